#include "backends/backend.hpp"

#include <stdexcept>
#include <thread>

#include "backends/cuda_runner.hpp"
#include "ensemble/cpu_runner.hpp"
#include "ensemble/ensemble_kpis.hpp"
#include "reference/reference_runner.hpp"

namespace myriad {
namespace {

int hardware_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

std::string cpu_description(int threads) {
  const int n = threads > 0 ? threads : hardware_threads();
  return std::to_string(n) + " thread" + (n == 1 ? "" : "s") + " of " + std::to_string(hardware_threads());
}

}  // namespace

Backend choose_backend(const std::string& name, int threads) {
  std::string device;
  if (name == "reference") return {BackendKind::reference, "reference", "dense Eigen dynamics, " + cpu_description(threads)};
  if (name == "cpu") return {BackendKind::cpu, "cpu", "fast path, " + cpu_description(threads)};
  if (name == "cuda") {
    if (!cuda_device_available(&device)) throw std::runtime_error("--backend cuda: " + device);
    return {BackendKind::cuda, "cuda", device};
  }
  if (name == "auto") {
    if (cuda_device_available(&device)) return {BackendKind::cuda, "cuda", device, true};
    return {BackendKind::cpu, "cpu", "fast path, " + cpu_description(threads) + " (no GPU: " + device + ")"};
  }
  throw std::invalid_argument("--backend '" + name + "': expected one of auto, reference, cpu, cuda");
}

std::vector<std::string> describe_backends() {
  std::string device;
  const bool cuda = cuda_device_available(&device);
  return {"reference  available  dense Eigen reference dynamics, up to " + std::to_string(hardware_threads()) + " threads",
          "cpu        available  fast path (host+device code), up to " + std::to_string(hardware_threads()) + " threads",
          std::string("cuda       ") + (cuda ? "available  " : "unavailable  ") + device,
          std::string("auto       -> ") + (cuda ? "cuda" : "cpu")};
}

EnsembleResult run_on_backend(const Backend& backend, const Model& model, const CompiledModel& compiled,
                              const Ensemble& ensemble, const RunSpec& spec, const std::vector<double>& output_times,
                              int threads, RunProgress* progress, bool keep_series) {
  switch (backend.kind) {
    case BackendKind::reference:
      return run_ensemble_reference(model, compiled, ensemble, spec, output_times, threads, progress, keep_series);
    case BackendKind::cpu: return run_ensemble_cpu(compiled, ensemble, spec, output_times, threads, progress, keep_series,
                                backend.cpu_lanes);
    case BackendKind::cuda:
      if (backend.automatic && !kernels_take(compiled, spec.method))  // not in this build's kernels
        return run_ensemble_cpu(compiled, ensemble, spec, output_times, threads, progress, keep_series,
                                backend.cpu_lanes);
    {
      CudaRunOptions options = backend.cuda;
      options.progress = progress;
      options.keep_series = keep_series;
      EnsembleResult result = run_ensemble_cuda(compiled, ensemble, spec, output_times, options);
      finish_kpis(compiled, result);  // the fused kernel's KPI states, else from the series
      if (!keep_series) {  // a strategy whose kernel carries no KPI state brought the series back for them
        result.values.clear();
        result.values.shrink_to_fit();
      }
      return result;
    }
  }
  throw std::logic_error("unknown backend");
}

}  // namespace myriad
