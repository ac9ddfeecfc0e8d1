#pragma once
// The ensemble backends behind one interface: `reference` (dense Eigen dynamics, the oracle), `cpu` (fast path on
// all cores), `cuda` (fast path, thread per instance on the GPU), and `auto` (cuda when a device is present, else
// cpu).
#include <string>
#include <vector>

#include "backends/cuda_runner.hpp"
#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_spec.hpp"

namespace myriad {

enum class BackendKind { reference, cpu, cuda };

struct Backend {
  BackendKind kind = BackendKind::cpu;
  std::string name;         // reference | cpu | cuda
  std::string description;  // what it runs on
  bool automatic = false;   // chosen by `auto`: may fall back to cpu for what the device build cannot run
  CudaRunOptions cuda{};    // how the cuda backend runs (memory budget, step budget per launch)
  int cpu_lanes = 4;        // cpu: instances per thread in lockstep (ensemble/lane_runner.hpp; 1: one at a time)
};

// Resolves a --backend value. Throws std::invalid_argument for an unknown name and std::runtime_error when `cuda`
// is asked for where this build or this machine has none (saying which).
Backend choose_backend(const std::string& name, int threads);

// One line per backend: whether it is available here and on what.
std::vector<std::string> describe_backends();

// keep_series false: the cpu and reference backends keep no time series (result.values empty), only the model's
// named KPIs, computed on line; so does the cuda backend's fused strategy in its kernel (copying back the KPI
// states, not the series); its other strategies copy the series back, compute the KPIs from them with the same
// kpi_update and drop them. Runs the ensemble on the chosen backend; threads applies to reference and cpu (<= 0: all hardware threads).
// `progress` (optional) counts finished instances as the backend reports them: the CPU backends per block of
// instances, cuda per launch.
EnsembleResult run_on_backend(const Backend& backend, const Model& model, const CompiledModel& compiled,
                              const Ensemble& ensemble, const RunSpec& spec, const std::vector<double>& output_times,
                              int threads, RunProgress* progress = nullptr, bool keep_series = true);

}  // namespace myriad
