// `myriad simulate MODEL ...`: an ensemble on a backend, written as CSV, with a statistics summary. A client of
// the C++ API (api::load_model, api::simulate) with what only a command line needs around it: flags refused by
// name, output paths probed, the memory estimate and --max-memory, the progress display and the writers. Everything
// that can refuse the run (flags, model, parameter file, output paths, memory) is checked before it computes.
#include <sys/statvfs.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "api/model_impl.hpp"
#include "api/myriad/myriad.hpp"
#include "api/run_options.hpp"
#include "api/simulation_result.hpp"
#include "backends/backend.hpp"
#include "commands.hpp"
#include "ensemble/ensemble_statistics.hpp"
#include "ensemble/instance_blocks.hpp"
#include "ensemble/run_footprint.hpp"
#include "io/output_paths.hpp"
#include "io/result_writers.hpp"
#include "io/statistics_writers.hpp"
#include "kpi_summary.hpp"
#include "parameter_overrides.hpp"
#include "progress_display.hpp"
#include "simulate_csv_stream.hpp"
#include "simulate_hdf5.hpp"
#include "simulate_settings.hpp"
#include "system_memory.hpp"

namespace myriad::cli {
namespace {

using Clock = std::chrono::steady_clock;

// The GPU flags mean nothing to the cpu and reference backends: refused when that backend was asked for, a note
// when `auto` found no GPU.
void check_gpu_flags(const SimulateOptions& o, const Backend& backend) {
  if (backend.kind == BackendKind::cuda || (!o.gpu_strategy && !o.gpu_step_budget)) return;
  const std::string flag = o.gpu_strategy ? "--gpu-strategy " + *o.gpu_strategy
                                          : "--gpu-step-budget " + std::to_string(*o.gpu_step_budget);
  if (o.backend != "auto")
    throw std::invalid_argument(flag + ": applies to the cuda backend only, and this run uses --backend " +
                                backend.name);
  std::cerr << "myriad: note: " << flag << " is not used: no GPU here, the run uses the " << backend.name
            << " backend\n";
}

// Refuses a run that cannot fit in memory; says what it will take unless quiet.
// `resident`: the instances whose series are in memory at once (all of them, or two chunks of a streamed --out).
void check_footprint(const SimulateOptions& o, const CompiledModel& compiled, const api::ResolvedRun& settings,
                     long long instances, long long resident, bool streamed, int parameter_columns,
                     const Backend& backend, int n_parameters, const std::string& out, bool keep_series) {
  const int threads = backend.kind == BackendKind::cuda ? 1 : resolve_thread_count(o.threads, instances);
  const bool statistics = keep_series && (!o.summary.empty() || !o.kpis.empty());
  // Without kept series each thread holds one instance's rows only (and its KPIs).
  const long long kept_times = keep_series ? static_cast<long long>(settings.times.size()) : 0;
  RunFootprint f = estimate_run_footprint(compiled, settings.spec.method, resident, kept_times, n_parameters,
                                          parameter_columns, threads, statistics);
  const RunFootprint whole = estimate_run_footprint(compiled, settings.spec.method, instances, kept_times,
                                                    n_parameters, parameter_columns, threads, statistics);
  // The streamed statistics hold every instance's KPIs and every tile's partials, whatever the chunk.
  f.statistics = whole.statistics;
  const AvailableMemory available = available_memory();
  const bool capped = !o.max_memory.empty();
  const double limit = capped ? parse_byte_size(o.max_memory, "--max-memory") : available.bytes;
  const std::string parts = "results " + format_bytes(f.results) + ": " +
                            (resident < instances ? std::to_string(resident) + " of the " : "") +
                            std::to_string(instances) + " instances x " + std::to_string(kept_times) + " output times x " +
                            std::to_string(compiled.n_outputs) + " outputs" +
                            (keep_series ? "" : " (no series kept: only the model's KPIs)") + "; ensemble " +
                            format_bytes(f.ensemble) +
                            "; scratch " + format_bytes(f.scratch) +
                            (statistics ? "; statistics " + format_bytes(f.statistics) : "");
  if (f.total() > limit)
    throw std::invalid_argument(
        "the run needs about " + format_bytes(f.total()) + " of memory (" + parts + "), more than " +
        (capped ? "--max-memory " + o.max_memory : "the " + format_bytes(limit) + " available (" + available.source + ")") +
        "; give fewer --instances, a coarser --dt-out, fewer outputs" +
        (streamed ? ", a smaller --chunk" : ", a CSV --out (written in chunks)") +
        ", an HDF5 --out (FILE.h5, written in chunks)" + (capped ? ", or a larger --max-memory" : ""));
  if (o.quiet) return;
  std::cerr << "myriad: memory: about " << format_bytes(f.total()) << " (" << parts << ") of "
            << (capped ? "--max-memory " + o.max_memory : format_bytes(limit) + " available");
  if (!o.out.empty()) std::cerr << "; --out about " << format_bytes(whole.csv_bytes);
  std::cerr << '\n';
  struct statvfs disk {};
  // The directory of the file really written (a followed symlink's target may be elsewhere).
  const std::string directory = std::filesystem::path(out).parent_path().string();
  if (!out.empty() && ::statvfs(directory.empty() ? "." : directory.c_str(), &disk) == 0) {
    const double free_bytes = static_cast<double>(disk.f_bavail) * static_cast<double>(disk.f_frsize);
    if (whole.csv_bytes > free_bytes)
      std::cerr << "myriad: warning: --out may need about " << format_bytes(whole.csv_bytes) << ", and its file system has "
                << format_bytes(free_bytes) << " free\n";
  }
}

// Runs write() and returns its wall time; the display reports the instances it writes to `path`.
double timed_write(ProgressDisplay& display, const std::string& path, const std::function<void()>& write) {
  const auto start = Clock::now();
  display.writing(path);
  write();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int run_simulate(const SimulateOptions& o) {
  if (is_hdf5_path(o.out)) return run_simulate_hdf5(o);
  check_simulate_flags(o);
  const api::LoadedModel loaded = with_signals(api::load_model(o.model), o);
  const Model& model = loaded.impl->model;
  const CompiledModel& compiled = *loaded.impl->compiled;
  api::SimulateRequest request;
  request.options = run_options(o);
  const api::ResolvedRun settings = api::resolve_run_options(request.options, model, flag_names());

  // Before any computing: outputs that would replace a device, an input or each other, or cannot be written.
  const std::vector<std::string> paths = check_output_paths(
      {{"--out", o.out}, {"--stats-json", o.stats_json}, {"--summary", o.summary}, {"--kpis", o.kpis}},
      {{"the model file", o.model}, {"the parameter file (--params)", o.params_file}}, o.follow_symlinks);
  const std::string &out = paths[0], &stats_json = paths[1], &summary = paths[2], &kpis = paths[3];

  // The backend api::simulate will choose, for the GPU flags' check, the memory estimate and the report.
  Backend backend = choose_backend(o.backend, o.threads);
  std::string not_in_kernels;
  if (backend.automatic && backend.kind == BackendKind::cuda &&
      !kernels_take(compiled, settings.spec.method, &not_in_kernels)) {
    backend = choose_backend("cpu", o.threads);
    backend.description += " (auto: " + not_in_kernels.substr(0, not_in_kernels.find(';')) + ")";
  }
  check_gpu_flags(o, backend);

  if (!o.params_file.empty()) request.parameters = api::ParameterSet::from_csv(o.params_file);
  request.instances = o.instances.value_or(0);
  const api::ParameterSet* parameters = request.parameters ? &*request.parameters : nullptr;
  const long long instances = api::resolve_instance_count(request.instances, parameters, flag_names());
  request.overrides = parse_overrides(o.params);
  api::check_overrides(request.overrides, model, flag_names());
  // A run of a model with named KPIs that writes no series (--out) and no per-time summary keeps none: the KPIs
  // are computed on line (the cuda backend's strategies other than fused bring the series back for them).
  const bool named_kpis = !model.kpis.empty();
  request.keep_series = !named_kpis || !out.empty() || !summary.empty();
  // A CSV --out is computed and written in chunks; the statistics (--summary; --kpis of a model without named
  // KPIs) are then reduced chunk by chunk (StatisticsStream), which needs chunks of whole tiles.
  const bool streamed = !out.empty();
  const bool statistics_wanted = !summary.empty() || (!kpis.empty() && !named_kpis);
  if (o.chunk && !streamed) throw std::invalid_argument("--chunk: applies to a CSV --out");
  long long chunk =
      o.chunk ? *o.chunk : default_stream_chunk(static_cast<long long>(settings.times.size()), compiled.n_outputs,
                                       backend.kind == BackendKind::cuda);
  if (streamed && statistics_wanted && chunk < instances && chunk % kStatisticsTileInstances != 0) {
    if (o.chunk)
      throw std::invalid_argument("--chunk: " + std::to_string(chunk) + " is not a multiple of " +
                                  std::to_string(kStatisticsTileInstances) + ", which " +
                                  (summary.empty() ? "--kpis (from the statistics: this model names no KPIs)"
                                                   : "--summary") +
                                  " needs: the statistics combine the instances in tiles of " +
                                  std::to_string(kStatisticsTileInstances) + " in a fixed order");
    chunk = std::max<long long>(kStatisticsTileInstances,
                                chunk / kStatisticsTileInstances * kStatisticsTileInstances);
  }
  const long long resident = streamed ? std::min(instances, 2 * chunk) : instances;
  check_footprint(o, compiled, settings, instances, resident, streamed,
                  parameters ? static_cast<int>(parameters->names.size()) : 0, backend,
                  static_cast<int>(model.parameters.size()), out, request.keep_series);

  RunProgress progress;
  ProgressDisplay display(!o.quiet, instances, progress);
  if (!o.quiet)  // the display reads the counter; quiet runs need no reports (nor the API's reporting thread)
    request.progress = [&progress](const api::Progress& p) {
      progress.instances_done.store(p.done, std::memory_order_relaxed);
    };
  std::vector<std::string> kpi_names, kpi_units;
  const std::vector<std::string>& names = loaded.signal_names();
  double write_seconds = 0.0;
  EnsembleResult result;
  std::optional<StatisticsStream> statistics_stream;
  if (streamed) {
    if (statistics_wanted)
      statistics_stream = begin_statistics(instances, static_cast<int>(settings.times.size()), compiled.n_outputs);
    // Computing and writing overlap: the time is the run's, and the file is written when it returns.
    result = simulate_csv_streamed(
        loaded, request, instances, chunk, out, progress, &kpi_names, &kpi_units, [&] { display.writing(out); },
        [&](long long n_chunk, const double* values) {
          if (statistics_stream) add_statistics_chunk(*statistics_stream, n_chunk, values, o.threads);
        });
  } else {
    api::SimulationResult simulation = api::simulate(loaded, request);
    kpi_names = simulation.kpi_names;
    kpi_units = simulation.kpi_units;
    result = api::to_ensemble_result(std::move(simulation));
  }
  request.parameters.reset();

  if (!out.empty() && !streamed)
    write_seconds += timed_write(display, out, [&] { write_result_csv(out, result, names, &progress); });
  if (statistics_wanted) {
    const EnsembleStatistics statistics = statistics_stream ? finish_statistics(*statistics_stream, o.threads)
                                                            : compute_statistics(result, o.threads);
    if (!summary.empty())
      write_seconds += timed_write(display, summary,
                                   [&] { write_summary_csv(summary, statistics, result.times, names); });
    if (!kpis.empty()) write_seconds += timed_write(display, kpis, [&] { write_kpi_csv(kpis, statistics, names); });
  }
  if (!kpis.empty() && named_kpis)
    write_seconds += timed_write(display, kpis, [&] {
      write_named_kpi_csv(kpis, result.n_instances, result.kpis, kpi_names, kpi_units);
    });
  if (!stats_json.empty())
    write_seconds += timed_write(display, stats_json, [&] {
      write_stats_json(stats_json, result, model.name, settings.integrator, write_seconds);
    });
  display.stop();

  const StatsTotals t = totals(result);
  std::cout << "model: " << model.name << "  instances: " << result.n_instances
            << "  integrator: " << settings.integrator << "  t_end: " << settings.t_end
            << "  outputs: " << result.n_times << " times x " << result.n_signals << " signals\nbackend: "
            << backend.name << " (" << backend.description << ")";
  if (backend.kind != BackendKind::cuda && o.threads > 0 && result.threads < std::min<long long>(o.threads, instances))
    std::cout << "  [" << result.threads << " of the " << o.threads
              << " threads asked for could be created; the results are the same]";
  std::cout << "\nsteps: " << t.steps << "  rejected: " << t.rejected << "  function evaluations: "
            << t.function_evaluations << "  Jacobians: " << t.jacobian_evaluations << "  LU factorizations: "
            << t.lu_factorizations << "\nwall time: " << std::setprecision(4)
            << result.total_wall_seconds + write_seconds << " s (compute " << result.total_wall_seconds
            << " s, write " << write_seconds << " s)\nstatus:";
  for (int s = 0; s < kInstanceStatusCount; ++s)
    if (t.status_counts[s] > 0) std::cout << "  " << instance_status_name(static_cast<InstanceStatus>(s)) << " " << t.status_counts[s];
  std::cout << '\n';
  print_kpi_summary(std::cout, result.kpis, kpi_names, kpi_units);
  if (o.stats) {
    long long min_steps = -1, max_steps = 0;
    for (const IntegratorStats& s : result.stats) {
      min_steps = min_steps < 0 ? s.steps : std::min(min_steps, s.steps);
      max_steps = std::max(max_steps, s.steps);
    }
    std::cout << "steps per instance: min " << min_steps << "  mean "
              << static_cast<double>(t.steps) / result.n_instances << "  max " << max_steps
              << "\nfunction evaluations per instance: mean "
              << static_cast<double>(t.function_evaluations) / result.n_instances << '\n';
    const int shown = std::min(result.n_instances, 5);
    for (int i = 0; i < shown; ++i) {
      const IntegratorStats& s = result.stats[static_cast<size_t>(i)];
      std::cout << "  instance " << i << ": steps " << s.steps << "  rejected " << s.rejected << "  evaluations "
                << s.function_evaluations << "  " << instance_status_name(result.status[static_cast<size_t>(i)])
                << '\n';
    }
    if (result.n_instances > shown) std::cout << "  ... (" << result.n_instances - shown << " more; --stats-json has all)\n";
  }
  for (const std::string* path : {&o.out, &o.stats_json, &o.summary, &o.kpis})
    if (!path->empty()) std::cout << "wrote " << *path << '\n';
  return t.status_counts[0] == result.n_instances ? 0 : 3;
}

}  // namespace myriad::cli
