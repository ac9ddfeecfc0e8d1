// simulate -> a study of its own: the flags become a StudySpec (the parameter file a table design, or N plain
// instances; --param values fixed; every output kept at every output time; every named KPI), run by
// study::run_study into FILE.h5. Memory is one chunk's whatever --instances is. A signal removes the
// unfinished file (simulate has no --resume); a study file is the way to a resumable run.
#include "simulate_hdf5.hpp"

#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "api/model_impl.hpp"
#include "api/myriad/myriad.hpp"
#include "api/run_options.hpp"
#include "io/output_paths.hpp"
#include "parameter_overrides.hpp"
#include "simulate_settings.hpp"
#include "study/run_study.hpp"
#include "study_progress.hpp"

namespace myriad::cli {
namespace {

namespace fs = std::filesystem;

void refuse_with_hdf5(bool given, const std::string& flag, const std::string& why) {
  if (given) throw std::invalid_argument(flag + ": not with an HDF5 --out (" + why + ")");
}

// The command as the results file's provenance records it (its "study_text").
std::string command_text(const SimulateOptions& o) {
  std::string text = "myriad simulate " + o.model;
  if (o.instances) text += " --instances " + std::to_string(*o.instances);
  if (!o.params_file.empty()) text += " --params " + o.params_file;
  for (const std::string& p : o.params) text += " --param " + p;
  const api::RunOptions run = run_options(o);
  const auto number = [&](const char* flag, const std::optional<double>& v) {
    if (v) text += std::string(" ") + flag + " " + std::to_string(*v);
  };
  number("--t-end", run.t_end);
  number("--dt-out", run.dt_out);
  number("--h", run.h);
  number("--rtol", run.rtol);
  number("--atol", run.atol);
  number("--rho-inf", run.rho_inf);
  if (run.integrator) text += " --integrator " + *run.integrator;
  text += " --backend " + run.backend + " --threads " + std::to_string(run.threads) + " --out " + o.out;
  return text;
}

}  // namespace

bool is_hdf5_path(const std::string& path) {
  const std::string extension = fs::path(path).extension().string();
  return extension == ".h5" || extension == ".hdf5";
}

int run_simulate_hdf5(const SimulateOptions& o) {
  check_simulate_flags(o);
  const std::string why = "the file holds the KPIs, the statistics per output time and the work counters";
  refuse_with_hdf5(!o.summary.empty(), "--summary", why);
  refuse_with_hdf5(!o.kpis.empty(), "--kpis", why);
  refuse_with_hdf5(!o.stats_json.empty(), "--stats-json", why);
  refuse_with_hdf5(o.stats, "--stats", why);
  refuse_with_hdf5(!o.max_memory.empty(), "--max-memory", "it holds one chunk of instances at a time");
  refuse_with_hdf5(o.gpu_strategy.has_value() || o.gpu_step_budget.has_value(),
                   "--gpu-strategy / --gpu-step-budget",
                   "not yet: an HDF5 run uses the default GPU strategy");
  refuse_with_hdf5(o.coordinates.has_value() && *o.coordinates != "joint", "--coordinates " + o.coordinates.value_or(""),
                   "not yet: an HDF5 run integrates in joint coordinates");
  const std::string out = check_output_paths(
      {{"--out", o.out}}, {{"the model file", o.model}, {"the parameter file (--params)", o.params_file}},
      o.follow_symlinks)[0];
  const api::LoadedModel loaded = api::load_model(o.model);

  study::StudySpec spec;
  spec.file = "myriad simulate";
  spec.text = command_text(o);
  spec.model = fs::absolute(o.model).lexically_normal().string();
  spec.fixed = parse_overrides(o.params);
  api::check_overrides(spec.fixed, loaded.impl->model, flag_names());
  spec.run = run_options(o);
  api::resolve_run_options(spec.run, loaded.impl->model, flag_names());  // refuses a bad setting by its flag
  spec.series.signals = with_signals(loaded, o).signal_names();  // --signals: the series the file keeps
  spec.output = out;
  if (o.chunk) spec.chunk = *o.chunk;  // --chunk: instances per chunk of the results file too
  if (!o.params_file.empty()) {
    spec.sampler.kind = study::SamplerKind::table;
    spec.sampler.table = fs::absolute(o.params_file).string();
    const api::ParameterSet set =
        api::ParameterSet::from_csv(o.params_file);  // refused as simulate refuses it
    api::resolve_instance_count(o.instances.value_or(0), &set, flag_names());
  } else {
    spec.sampler.kind = study::SamplerKind::instances;
    spec.sampler.samples = o.instances.value_or(1);
  }

  study::StudyRunOptions options;
  options.temporary = true;
  StudyProgressPrinter printer(false, o.quiet);
  options.progress = [&printer](const study::StudyProgress& p) { printer(p); };
  study::StudyOutcome outcome;
  try {
    outcome = study::run_study(spec, options);
  } catch (...) {
    std::error_code ignored;
    fs::remove(study::partial_path(out), ignored);  // no resume for simulate: nothing half-written stays
    throw;
  }
  long long failed = 0;
  std::cout << "model: " << loaded.name() << "  instances: " << outcome.instances
            << "  chunks: " << outcome.chunks << "  wall time: " << outcome.seconds << " s\nstatus:";
  for (std::size_t s = 0; s < outcome.status_counts.size(); ++s) {
    if (outcome.status_counts[s] > 0)
      std::cout << "  " << api::status_name(static_cast<int>(s)) << " " << outcome.status_counts[s];
    if (s > 0) failed += outcome.status_counts[s];
  }
  std::cout << "\nwrote " << outcome.path << "\nwrote " << outcome.kpi_csv << '\n';
  return failed == 0 ? 0 : 3;
}

}  // namespace myriad::cli
