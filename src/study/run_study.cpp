// The study loop. Chunk 0 runs before the results file exists (its output times fix the kept series' length);
// from then on the file holds every completed chunk, and a stop, a crash between chunks or a signal leaves it
// valid, incomplete and resumable.
#include "study/run_study.hpp"

#include <sys/stat.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "io/atomic_file.hpp"
#include "io/temporary_files.hpp"
#include "study/chunk_evaluation.hpp"
#include "study/chunk_message.hpp"
#include "study/design.hpp"
#include "study/provenance.hpp"
#include "study/results_file.hpp"
#include "study/sha256.hpp"
#include "study/study_finish.hpp"

namespace myriad::study {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr long long kDefaultChunk = 16384;            // KPI-only chunks: a few MB of results
constexpr double kChunkSeriesBytes = 64.0 * 1048576;  // a chunk's series as the run holds them

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read the model file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Refuses an output path that is a directory or a special file, or whose folder does not exist.
void check_output_path(const std::string& out) {
  struct stat st {};
  if (::lstat(out.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw std::runtime_error(out + ": the results file would replace " + special_file_kind(st.st_mode) +
                             ", not a regular file");
  const fs::path folder = fs::path(out).parent_path();
  if (!folder.empty() && !fs::is_directory(folder))
    throw std::runtime_error(out + ": the folder " + folder.string() + " does not exist");
}

// The cuda backend's strategies other than fused bring every output at every output time back to the host
// whatever the study keeps (their kernels carry no KPI state: the KPIs come from the copied series), so their
// chunks are sized as if all were kept; the fused kernel's KPI states come back alone.
long long chunk_rows_for(const StudySpec& spec, const ChunkPlan& plan) {
  if (spec.chunk > 0) return spec.chunk;
  if (!plan.model) return kDefaultChunk;
  const bool all_series = api::resolved_backend(*plan.model, spec.run) == "cuda" &&
                          spec.run.gpu_strategy.value_or("fused") != "fused";
  if (plan.series_columns.empty() && !all_series) return kDefaultChunk;
  const api::SimulationDefaults d = plan.model->defaults();
  const double times = spec.run.t_end.value_or(d.t_end) / spec.run.dt_out.value_or(d.dt_out) + 2.0;
  const double bytes = times * static_cast<double>(plan.model->signal_names().size()) * 8.0;
  return std::max<long long>(
      1, std::min<long long>(kDefaultChunk, static_cast<long long>(kChunkSeriesBytes / bytes)));
}

ResultsLayout layout_for(const StudySpec& spec, const ChunkPlan& plan, const Design& design, long long chunk,
                         std::vector<double> series_times) {
  ResultsLayout l;
  l.instances = design.rows;
  l.chunk = chunk;
  l.parameter_names = design.names;
  for (std::size_t c = 0; c < design.names.size(); ++c) {
    std::string unit = design.units[c];
    if (unit.empty() && plan.model) {
      const std::vector<std::string>& names = plan.model->parameter_names();
      for (std::size_t j = 0; j < names.size(); ++j)
        if (names[j] == design.names[c]) unit = plan.model->parameter_units()[j];
    }
    l.parameter_units.push_back(unit);
  }
  for (int column : plan.kpi_columns) {
    l.kpi_names.push_back(plan.model ? plan.model->kpi_names()[static_cast<std::size_t>(column)] : "y");
    l.kpi_units.push_back(plan.model ? plan.model->kpi_units()[static_cast<std::size_t>(column)] : "-");
  }
  for (const DerivedParameter& d : spec.derived) {
    l.derived_names.push_back(d.name);
    l.derived_expressions.push_back(d.text);
  }
  l.series_signals = spec.series.signals;
  l.series_times = std::move(series_times);
  return l;
}

void record_run(ResultsFile& file, const StudySpec& spec, const ChunkPlan& plan, const ChunkRows& c) {
  file.set_text("backend", c.backend);
  file.set_text("integrator", c.integrator);
  file.set_integer("threads", c.threads);
  if (!plan.model) return;
  const api::SimulationDefaults d = plan.model->defaults();
  file.set_number("t_end", spec.run.t_end.value_or(d.t_end));
  file.set_number("dt_out", spec.run.dt_out.value_or(d.dt_out));
  file.set_number("rtol", spec.run.rtol.value_or(d.rtol));
  file.set_number("atol", spec.run.atol.value_or(d.atol));
  file.set_number("h", spec.run.h.value_or(d.h));
}

}  // namespace

std::string partial_path(const std::string& out) { return out + ".part"; }

std::string kpi_csv_path(const std::string& out) {
  const fs::path p(out);
  return (p.parent_path() / (p.stem().string() + "_kpis.csv")).string();
}

namespace {

// What rank 0 found before anything runs, for every rank: go or the reason not to, the chunk size, the chunks
// already done (a resumed run).
struct Start {
  std::string error;
  long long chunk = 0;
  std::vector<std::uint8_t> done;
};

std::vector<unsigned char> pack_start(const Start& s) {
  const long long header[2] = {s.chunk, static_cast<long long>(s.error.size())};
  const auto* head = reinterpret_cast<const unsigned char*>(header);
  std::vector<unsigned char> bytes(head, head + sizeof header);
  bytes.reserve(bytes.size() + s.error.size() + s.done.size());
  for (char c : s.error) bytes.push_back(static_cast<unsigned char>(c));
  for (std::uint8_t d : s.done) bytes.push_back(d);
  return bytes;
}

Start unpack_start(const std::vector<unsigned char>& bytes) {
  Start s;
  long long header[2];
  std::memcpy(header, bytes.data(), sizeof header);
  s.chunk = header[0];
  const std::size_t at = sizeof header, length = static_cast<std::size_t>(header[1]);
  s.error.assign(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                 bytes.begin() + static_cast<std::ptrdiff_t>(at + length));
  s.done.assign(bytes.begin() + static_cast<std::ptrdiff_t>(at + length), bytes.end());
  return s;
}

// Rank 0's checks before a run: the output paths, an unfinished run and --resume, a changed study or model.
std::optional<ResultsFile> open_or_check(const StudySpec& spec, const StudyRunOptions& options,
                                         const std::string& out, const std::string& model_text) {
  const std::string part = partial_path(out);
  check_output_path(out);
  check_output_path(part);
  const bool unfinished = fs::exists(part);
  if (options.resume && !unfinished)
    throw std::runtime_error(
        part + ": nothing to resume (no unfinished run of this study" +
        (fs::exists(out) ? std::string("; ") + out + " is a finished one)" : std::string(")")));
  if (!options.resume && unfinished)
    throw std::runtime_error(part +
                             ": an unfinished run of a study is here: --resume continues it; remove the file "
                             "to start over");
  if (!options.resume) return std::nullopt;
  ResultsFile file = ResultsFile::open(part, true);
  if (file.text("study_sha256") != sha256_hex(spec.text))
    throw std::runtime_error(part +
                             ": the study file changed since this run began (its SHA-256 differs): resuming "
                             "would mix two studies; remove the file to start over");
  if (file.text("model_sha256") != sha256_hex(model_text))
    throw std::runtime_error(part + ": the model file " + spec.model +
                             " changed since this run began (its SHA-256 "
                             "differs); remove the file to start over");
  return file;
}

// A resumed distributed run draws the design again on every rank: it must be the file's, bit for bit (a table
// file that changed would otherwise mix two designs).
void check_design_matches(const ResultsFile& file, const Design& design) {
  const std::size_t p = design.names.size();
  std::vector<double> rows;
  for (long long r0 = 0; r0 < design.rows; r0 += 4096) {
    const long long n = std::min<long long>(4096, design.rows - r0);
    rows.resize(static_cast<std::size_t>(n) * p);
    file.read_parameters(r0, n, rows.data());
    if (std::memcmp(rows.data(), design.values.data() + r0 * static_cast<long long>(p),
                    rows.size() * sizeof(double)))
      throw std::runtime_error(file.path() +
                               ": the design drawn again differs from the file's (a table or the "
                               "sampler changed since this run began); remove the file to start over");
  }
}

}  // namespace

StudyOutcome run_study(const StudySpec& spec, const StudyRunOptions& options) {
  const auto start = Clock::now();
  const StudyRanks single;
  const StudyRanks& ranks = options.ranks != nullptr ? *options.ranks : single;
  const bool root = ranks.rank == 0, distributed = ranks.size > 1;
  const std::string out = options.out.empty() ? spec.output : options.out;
  if (out.empty())
    throw std::runtime_error(spec.file + ": no results file: give \"output\" in the study file or --out");
  const std::string part = partial_path(out);
  const std::string model_text =
      spec.model == kIshigamiModel ? std::string(kIshigamiModel) : read_text(spec.model);

  StudyOutcome outcome;
  std::optional<ResultsFile> file;
  std::optional<Design> design;  // N x P: drawn, or read back from a resumed file; the chunks copy their rows
  ChunkPlan plan;
  Start begin;
  int temporary_slot = -1;  // options.temporary: the .part's entry in the signal cleanup table
  struct Forget {
    int& slot;
    ~Forget() {
      if (slot >= 0) forget_temporary_file(slot);
    }
  } forget{temporary_slot};
  if (root) {
    try {
      file = open_or_check(spec, options, out, model_text);
    } catch (const std::exception& e) {
      begin.error = e.what();
    }
  }
  if (distributed) {  // every rank learns rank 0's verdict before any of them runs
    std::vector<unsigned char> bytes = root ? pack_start(begin) : std::vector<unsigned char>();
    ranks.broadcast(bytes);
    if (!root) begin = unpack_start(bytes);
  }
  if (!begin.error.empty()) throw std::runtime_error(begin.error);
  if (!file || distributed) design = make_design(spec);
  plan = plan_chunks(spec, design ? design->names : file->layout().parameter_names);
  plan.spec = &spec;
  // Ranks on one node share its cores: each takes its share unless the study says how many threads.
  if (distributed && ranks.local_size > 1)
    plan.threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / ranks.local_size);
  if (root) {
    begin.chunk = file ? file->layout().chunk : chunk_rows_for(spec, plan);
    const long long total = design ? design->rows : file->layout().instances;
    begin.done = file ? file->chunks_done()
                      : std::vector<std::uint8_t>(
                            static_cast<std::size_t>((total + begin.chunk - 1) / begin.chunk), 0);
    if (file && design) check_design_matches(*file, *design);
  }
  if (distributed) {
    std::vector<unsigned char> bytes = root ? pack_start(begin) : std::vector<unsigned char>();
    ranks.broadcast(bytes);
    if (!root) begin = unpack_start(bytes);
  }
  if (!design) {  // a resumed run: the design from the file, so that only the writer touches it from here
    Design d;
    d.names = file->layout().parameter_names;
    d.units = file->layout().parameter_units;
    d.rows = file->layout().instances;
    d.values.resize(static_cast<std::size_t>(d.rows) * d.names.size());
    if (!d.values.empty()) file->read_parameters(0, d.rows, d.values.data());
    design = std::move(d);
  }
  if (file) file->close();  // opened again for each chunk's write (keep)
  const long long total = design->rows;
  const long long chunk = begin.chunk;
  const long long chunks = (total + chunk - 1) / chunk;
  const std::vector<std::uint8_t>& done = begin.done;
  long long rows_done = 0;
  for (long long k = 0; k < chunks; ++k)
    if (done[static_cast<std::size_t>(k)]) rows_done += std::min(chunk, total - k * chunk);
  outcome.instances = total;
  outcome.chunks = chunks;
  outcome.rank_instances.assign(static_cast<std::size_t>(ranks.size), 0);
  StudyProgress progress;
  progress.total = total;
  progress.chunks = chunks;
  progress.done_at_start = rows_done;
  for (std::uint8_t d : done) progress.chunks_done += d;
  outcome.chunks_resumed = progress.chunks_done;
  // The counters below change on the writer's thread (keep) and are read by the caller's progress: one lock.
  std::mutex counters;
  const auto report = [&](long long in_chunk) {
    if (!options.progress) return;
    const std::lock_guard<std::mutex> lock(counters);
    progress.done = rows_done + in_chunk;
    progress.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    options.progress(progress);
  };
  const std::size_t p = plan.parameter_names.size();
  // Rank 0 keeps a chunk: into the file (made with the first chunk's output times), counted.
  const auto keep = [&](long long k, const ChunkRows& c, int source) {
    if (!file) {
      const Provenance provenance = study_provenance(spec, model_text);
      if (options.temporary) temporary_slot = register_temporary_file(part);
      try {
        file = ResultsFile::create(part, layout_for(spec, plan, *design, chunk, c.series_times),
                                   provenance.text, provenance.numbers);
        for (long long r0 = 0; r0 < total; r0 += chunk) {
          const long long n = std::min(chunk, total - r0);
          file->write_parameters(r0, n, design->values.data() + r0 * static_cast<long long>(p));
        }
      } catch (...) {  // a file without its design is no run to resume
        file.reset();
        std::error_code ignored;
        fs::remove(part, ignored);
        throw;
      }
    }
    file->reopen();
    if (outcome.chunks_run == 0) record_run(*file, spec, plan, c);
    file->write_chunk(k, c);
    file->close();  // closed while the next chunk computes: a crash then leaves the file whole
    {
      const std::lock_guard<std::mutex> lock(counters);
      for (std::int32_t s : c.status)
        if (s >= 0 && static_cast<std::size_t>(s) < kStatusCodes)
          ++outcome.status_counts[static_cast<std::size_t>(s)];
      ++outcome.chunks_run;
      outcome.rank_instances[static_cast<std::size_t>(source)] += c.rows;
      rows_done += c.rows;
      ++progress.chunks_done;
    }
    report(0);
  };
  // Chunk k is written on a thread of its own while chunk k + 1 computes; one write in flight at a time (so
  // the file sees one thread at a time, and memory holds at most two chunks' results). Without a thread to
  // spare the write happens here.
  std::future<void> writing;
  bool file_ready =
      file.has_value();  // the caller's view: a chunk was handed to the writer, or the file existed
  const auto submit = [&](long long k, ChunkRows&& c, int source) {
    if (writing.valid()) writing.get();  // rethrows what the previous write threw
    file_ready = true;
    auto rows = std::make_shared<ChunkRows>(std::move(c));
    try {
      writing = std::async(std::launch::async, [&keep, k, rows, source] { keep(k, *rows, source); });
    } catch (const std::system_error&) {
      keep(k, *rows, source);
    }
  };
  bool stopped = false;
  int ends = 0;  // workers that said their last word
  const auto receive = [&](bool wait) {
    std::vector<unsigned char> message;
    int source = 0;
    while (file_ready && ends < ranks.size - 1 && ranks.receive_at_root(message, source, wait)) {
      long long k = 0;
      switch (message_kind(message)) {
        case MessageKind::chunk: {
          ChunkRows c = unpack_chunk(message, k);
          submit(k, std::move(c), source);
          break;
        }
        case MessageKind::end:
          stopped = unpack_end(message) || stopped;
          ++ends;
          break;
        case MessageKind::failed: {
          const std::string reason = unpack_failure(message, k);
          outcome.failure += (outcome.failure.empty() ? "" : "; ") + std::string("rank ") +
                             std::to_string(source) + " failed at chunk " + std::to_string(k) + ": " + reason;
          ++ends;
          break;
        }
      }
    }
  };

  std::vector<double> values;
  for (long long k = ranks.rank; k < chunks; k += ranks.size) {
    if (done[static_cast<std::size_t>(k)]) continue;
    if ((file_ready || !root) && options.stop != nullptr && options.stop->load()) {
      stopped = true;
      break;
    }
    const long long row0 = k * chunk, rows = std::min(chunk, total - row0);
    values.resize(static_cast<std::size_t>(rows) * p);
    std::copy(design->values.begin() + static_cast<std::ptrdiff_t>(row0 * static_cast<long long>(p)),
              design->values.begin() + static_cast<std::ptrdiff_t>((row0 + rows) * static_cast<long long>(p)),
              values.begin());
    if (root) {
      submit(k, evaluate_chunk(plan, row0, rows, values, report), 0);
      if (distributed) receive(false);
      continue;
    }
    try {
      if (ranks.rank == options.fail_rank) throw std::runtime_error("a failure injected for a test");
      const ChunkRows c = evaluate_chunk(plan, row0, rows, values, nullptr);
      ranks.send_to_root(pack_chunk(k, c));
      outcome.rank_instances[static_cast<std::size_t>(ranks.rank)] += rows;
      ++outcome.chunks_run;
    } catch (const std::exception& e) {
      ranks.send_to_root(pack_failure(k, e.what()));
      outcome.failure = e.what();
      return outcome;
    }
  }
  if (!root) {
    ranks.send_to_root(pack_end(stopped));
    return outcome;
  }
  receive(true);                       // every worker's chunks and last word
  if (writing.valid()) writing.get();  // the last chunk in the file before anything else touches it
  file->reopen();
  if (distributed)
    file->set_text("rank_instances", [&] {
      std::string text;
      for (long long n : outcome.rank_instances) text += (text.empty() ? "" : ",") + std::to_string(n);
      return text;
    }());
  outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (stopped || !outcome.failure.empty()) {
    file->set_text("stopped_time", utc_now());
    if (!outcome.failure.empty()) file->set_text("failure", outcome.failure);
    file->close();
    outcome.path = part;
    return outcome;
  }
  write_series_statistics(*file);
  write_sobol_indices(*file, spec);
  outcome.kpi_csv = kpi_csv_path(out);
  write_kpi_csv(*file, outcome.kpi_csv);
  outcome.status_counts = {};
  {
    const ResultsLayout& l = file->layout();
    std::vector<std::int32_t> status;
    for (long long r0 = 0; r0 < l.instances; r0 += chunk) {
      const long long n = std::min(chunk, l.instances - r0);
      status.resize(static_cast<std::size_t>(n));
      file->read_status_rows(r0, n, status.data());
      for (std::int32_t s : status)
        if (s >= 0 && static_cast<std::size_t>(s) < kStatusCodes)
          ++outcome.status_counts[static_cast<std::size_t>(s)];
    }
  }
  file->set_text("end_time", utc_now());
  file->set_integer("complete", 1);
  file->close();
  fs::rename(part, out);
  outcome.path = out;
  outcome.complete = true;
  outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return outcome;
}

}  // namespace myriad::study
