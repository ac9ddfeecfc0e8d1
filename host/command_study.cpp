// `myriad study STUDY.json`: a study file run into one HDF5 results file (docs/study-format.md), with a
// progress line on stderr (or JSON lines for machines), SIGINT / SIGTERM ending the run after the current
// chunk with the file valid and marked incomplete, and --resume continuing it. --design-only writes the
// sampled table and stops.
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "io/atomic_file.hpp"
#include "io/temporary_files.hpp"
#include "signal_cleanup.hpp"
#include "study/design.hpp"
#include "study/run_study.hpp"
#include "study/study_ranks.hpp"
#include "study/study_reader.hpp"
#include "study_progress.hpp"

namespace myriad::cli {
namespace {

std::atomic<bool> g_stop{false};

// The first SIGINT or SIGTERM asks the run to stop after its chunk; a second one ends the process at once
// (the default action), as a user pressing Ctrl-C twice expects. Only an atomic store: async-signal-safe.
extern "C" void request_stop(int signal_number) {
  if (g_stop.exchange(true)) {
    myriad::remove_registered_temporary_files();
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
  }
}

void write_design_csv(const study::Design& design, const std::string& path) {
  write_file_atomically(path, [&](std::ostream& out) {
    for (std::size_t c = 0; c < design.names.size(); ++c) out << (c ? "," : "") << design.names[c];
    out << '\n';
    char text[32];
    const std::size_t p = design.names.size();
    for (long long i = 0; i < design.rows; ++i) {
      for (std::size_t c = 0; c < p; ++c) {
        std::snprintf(text, sizeof text, "%.17g", design.values[static_cast<std::size_t>(i) * p + c]);
        out << (c ? "," : "") << text;
      }
      out << '\n';
    }
  });
}

}  // namespace

int run_study(const StudyOptions& o) {
  const study::StudySpec spec = study::read_study_file(o.study);
  if (!o.design_only.empty()) {
    const study::Design design = study::make_design(spec);
    write_design_csv(design, o.design_only);
    std::cout << "wrote " << o.design_only << ": " << design.rows << " rows x " << design.names.size()
              << " parameters (" << study::sampler_name(spec.sampler.kind) << ")\n";
    return 0;
  }
  install_signal_handler(request_stop, {SIGINT, SIGTERM});
  // Under mpirun every rank runs this; rank 0 writes the file and speaks for the job.
  const study::StudyRanks ranks = study::begin_ranks();
  struct EndRanks {
    ~EndRanks() { study::end_ranks(); }
  } end_ranks;
  study::StudyRunOptions options;
  options.out = o.out;
  options.resume = o.resume;
  options.stop = &g_stop;
  options.ranks = &ranks;
  if (const char* fail = std::getenv("MYRIAD_STUDY_FAIL_RANK")) options.fail_rank = std::atoi(fail);
  StudyProgressPrinter printer(o.progress_json, o.quiet || ranks.rank != 0);
  options.progress = [&printer](const study::StudyProgress& p) { printer(p); };
  study::StudyOutcome outcome;
  try {
    outcome = study::run_study(spec, options);
  } catch (const std::exception& e) {
    if (ranks.rank != 0) return 2;  // rank 0 says why, once
    throw;
  }
  if (ranks.rank != 0) return outcome.failure.empty() ? 0 : 4;
  const std::string resume =
      "myriad study " + o.study + " --resume" + (o.out.empty() ? "" : " --out " + o.out);
  if (!outcome.failure.empty()) {
    std::cerr << "myriad: study incomplete: " << outcome.failure << "; " << outcome.path
              << " holds every chunk the other ranks finished (marked incomplete); " << resume
              << " runs the rest\n";
    return 4;
  }
  if (!outcome.complete) {
    std::cerr << "myriad: study stopped after " << outcome.chunks_resumed + outcome.chunks_run << " of "
              << outcome.chunks << " chunks: " << outcome.path << " holds them (marked incomplete); "
              << resume << " continues\n";
    return 130;
  }
  std::cout << "study: " << spec.file << "  instances: " << outcome.instances
            << "  chunks: " << outcome.chunks << " (" << outcome.chunks_resumed
            << " resumed)  wall time: " << outcome.seconds << " s\n";
  if (ranks.size > 1) {
    std::cout << "ranks: " << ranks.size << "  instances per rank:";
    for (long long n : outcome.rank_instances) std::cout << ' ' << n;
    std::cout << '\n';
  }
  std::cout << "status:";
  long long failed = 0;
  for (std::size_t s = 0; s < outcome.status_counts.size(); ++s) {
    if (outcome.status_counts[s] > 0)
      std::cout << "  " << api::status_name(static_cast<int>(s)) << " " << outcome.status_counts[s];
    if (s > 0) failed += outcome.status_counts[s];
  }
  std::cout << "\nwrote " << outcome.path << "\nwrote " << outcome.kpi_csv << '\n';
  return failed == 0 ? 0 : 3;
}

}  // namespace myriad::cli
