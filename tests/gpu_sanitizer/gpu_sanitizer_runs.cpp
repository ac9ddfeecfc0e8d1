// Small runs of every GPU strategy (fused, with and without a step budget; warp; shared LU; staged; and the
// stepping API's step kernel, "step") and every method (rk4, dopri5, rn4, ros2w) on a tree model and a loop model,
// in one process, for compute-sanitizer (scripts/gpu-session.sh runs it under memcheck, racecheck, initcheck and
// synccheck: one process per tool, so that the tool's start-up is paid four times, not once per run). Each run is
// also held to the cpu backend (10 x tol, RK4 1e-10 with identical step counts; the step kernel to its own body run
// on the host), so a kernel that is clean for the sanitizer but computes something else still fails.
// The runs are the GPU tests' (tests/gpu/gpu_runs.hpp), cut to at most 0.05 s (--t-end: shorter).
// Usage: gpu_sanitizer_runs [--instances N] [--strategies fused,budget,warp,shared-lu,staged,step] [--t-end T]
//                           [--models stiff_double_pendulum,four_bar] [--rosenbrock-tol TOL] [--source-dir DIR]
// (--models: a device session runs each model in a process of its own, so that the tools' slowest runs, ROS2-W on
// the stiff pendulum, do not queue the loop model's behind them; --rosenbrock-tol: RN4 and ROS2-W at rtol = atol =
// TOL rather than the GPU tests' 1e-6 / 1e-8, held to 10 x TOL. ROS2-W takes 3,800 steps of the stiff pendulum's
// first 4 ms at the tests' tolerances, whatever --t-end, and 254 at 1e-4: under a tool the difference is minutes
// of a device session, and the kernels run the same code either way)
// Exit status: 0 when every run agrees, 1 when one does not, 2 for bad arguments, 77 without a device.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "backends/cuda_runner.hpp"
#include "backends/cuda_stepper.hpp"
#include "ensemble/cpu_runner.hpp"
#include "ensemble/device_instances.hpp"
#include "ensemble/step_instance.hpp"
#include "gpu/gpu_runs.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"

using namespace myriad;
using myriad::testing::GpuRun;

namespace {

struct Strategy {
  std::string name;
  CudaRunOptions options;
  bool step = false;  // the stepping API's kernel rather than an ensemble run
};

std::vector<Strategy> all_strategies() {
  CudaRunOptions fused, budget, warp, shared, staged;
  budget.step_budget = 5;  // several launches with compaction between them
  warp.strategy = GpuStrategy::warp;
  shared.strategy = GpuStrategy::shared_lu;
  staged.strategy = GpuStrategy::staged;
  return {{"fused", fused}, {"budget", budget},    {"warp", warp},
          {"shared-lu", shared}, {"staged", staged}, {"step", {}, true}};
}

// Largest |gpu - cpu| / max(1, |cpu|) over every output; infinity when a status differs or a step count differs
// where it must not.
double difference(const EnsembleResult& cpu, const EnsembleResult& gpu, bool same_steps, std::string* why) {
  double worst = 0.0;
  for (int i = 0; i < cpu.n_instances; ++i) {
    const size_t index = static_cast<size_t>(i);
    if (cpu.status[index] != InstanceStatus::ok || cpu.status[index] != gpu.status[index] ||
        (same_steps && cpu.stats[index].steps != gpu.stats[index].steps)) {
      *why = "instance " + std::to_string(i) + ": status not ok or differs, or step count differs";
      return INFINITY;
    }
    for (int k = 0; k < cpu.n_times; ++k)
      for (int s = 0; s < cpu.n_signals; ++s) {
        const double a = cpu.value(i, k, s), b = gpu.value(i, k, s);
        const double d = std::abs(a - b) / std::max(1.0, std::abs(a));
        if (!(d <= worst)) worst = std::isnan(d) ? INFINITY : d;
      }
  }
  return worst;
}

// The final (status, q, v) and output signals of every instance stepped from t = 0 through the output times, an
// advance per interval: on the device by the stepping backend's kernels (CudaStepper: input, step, observe), else
// instance by instance on the host through the kernels' own bodies (step_strided_instance,
// observe_strided_instance). Layout: status, then q, then v, then the signals, n each.
struct Stepped {
  std::vector<int> status;
  std::vector<double> q, v, signals;
};

Stepped step_run(const CompiledModel& model, const Ensemble& e, const RunSpec& spec, const std::vector<double>& times,
                 bool device) {
  const long long n = e.n_instances;
  Stepped r{std::vector<int>(static_cast<size_t>(n)), std::vector<double>(static_cast<size_t>(n * model.nq)),
            std::vector<double>(static_cast<size_t>(n * model.nv)),
            std::vector<double>(static_cast<size_t>(n * model.n_outputs))};
  std::vector<double> t(static_cast<size_t>(n), times.front()), rows(static_cast<size_t>(n * model.n_constants));
  for (long long i = 0; i < n; ++i) {
    e.gather_initial_state(static_cast<int>(i), r.q.data() + i * model.nq, r.v.data() + i * model.nv);
    e.gather_constants(static_cast<int>(i), rows.data() + i * model.n_constants);
  }
  if (device) {
    // The input kernel runs under the tool too: one input per instance, written with gain 1 into constant 0 as
    // that constant's own value, so the run is what it would be without it (the sanitizer models have no inputs).
    std::vector<double> u(static_cast<size_t>(n));
    for (long long i = 0; i < n; ++i) u[static_cast<size_t>(i)] = rows[static_cast<size_t>(i * model.n_constants)];
    CudaStepper stepper(model, spec, n, {FlatInputSlot{0, 0, 1.0}}, 1);
    stepper.set_constants(rows.data());
    stepper.set_inputs(u.data());
    stepper.upload_state(t.data(), r.q.data(), r.v.data(), r.status.data());
    for (size_t k = 1; k < times.size(); ++k) stepper.advance(times[k] - times[k - 1]);
    stepper.download_state(t.data(), r.q.data(), r.v.data(), r.status.data());
    stepper.observe(r.signals.data());
    return r;
  }
  std::vector<double> scratch((step_scratch_bytes(model, spec.method) + 7) / 8);
  for (size_t k = 1; k < times.size(); ++k)
    for (long long i = 0; i < n; ++i)
      step_strided_instance(model, e.constants.data(), n, i, spec, times[k] - times[k - 1], t.data(), r.q.data(),
                            r.v.data(), r.status.data(), scratch.data());
  for (long long i = 0; i < n; ++i)
    observe_strided_instance(model, e.constants.data(), n, i, spec.method, t.data(), r.q.data(), r.v.data(),
                             scratch.data(), r.signals.data());
  return r;
}

double step_difference(const Stepped& cpu, const Stepped& gpu, std::string* why) {
  for (size_t i = 0; i < cpu.status.size(); ++i)
    if (cpu.status[i] != 0 || gpu.status[i] != cpu.status[i]) {
      *why = "instance " + std::to_string(i) + ": status not ok or differs";
      return INFINITY;
    }
  double worst = 0.0;
  for (const auto& [a, b] : {std::pair{&cpu.q, &gpu.q}, std::pair{&cpu.v, &gpu.v}, std::pair{&cpu.signals, &gpu.signals}})
    for (size_t j = 0; j < a->size(); ++j) {
      const double d = std::abs((*a)[j] - (*b)[j]) / std::max(1.0, std::abs((*a)[j]));
      if (!(d <= worst)) worst = std::isnan(d) ? INFINITY : d;
    }
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  int instances = 33;  // a full warp and a partial one
  double max_t_end = 0.05;
  std::string wanted = "fused,budget,warp,shared-lu,staged,step", wanted_models = "stiff_double_pendulum,four_bar";
  std::string source_dir = ".";
  double rosenbrock_tol = 0;  // 0: the GPU tests' tolerances
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (a + 1 >= argc) {
      std::fprintf(stderr,
                   "usage: gpu_sanitizer_runs [--instances N] [--strategies LIST] [--t-end T] [--models LIST] "
                   "[--rosenbrock-tol TOL] [--source-dir DIR]\n");
      return 2;
    }
    const std::string value = argv[++a];
    if (arg == "--instances") instances = std::max(1, std::atoi(value.c_str()));
    else if (arg == "--strategies") wanted = value;
    else if (arg == "--t-end") {
      max_t_end = std::min(0.05, std::atof(value.c_str()));
      if (!(max_t_end > 0)) {
        std::fprintf(stderr, "gpu_sanitizer_runs: --t-end '%s': expected a positive time\n", value.c_str());
        return 2;
      }
    }
    else if (arg == "--models") wanted_models = value;
    else if (arg == "--rosenbrock-tol") {
      rosenbrock_tol = std::atof(value.c_str());
      if (!(rosenbrock_tol > 0 && rosenbrock_tol < 1)) {
        std::fprintf(stderr, "gpu_sanitizer_runs: --rosenbrock-tol '%s': expected a tolerance in (0, 1)\n",
                     value.c_str());
        return 2;
      }
    }
    else if (arg == "--source-dir") source_dir = value;
    else {
      std::fprintf(stderr, "gpu_sanitizer_runs: unknown option %s\n", arg.c_str());
      return 2;
    }
  }
  std::string device;
  if (!cuda_device_available(&device)) {
    std::printf("gpu_sanitizer_runs: skipped, no GPU: %s\n", device.c_str());
    return 77;
  }
  std::printf("device: %s\n", device.c_str());
  std::vector<Strategy> strategies;
  for (const Strategy& s : all_strategies())
    if (("," + wanted + ",").find("," + s.name + ",") != std::string::npos) strategies.push_back(s);
  int failures = 0, runs = 0;
  for (const std::string file : {"stiff_double_pendulum.json", "loops/four_bar.json"}) {
    const std::string stem = file.substr(file.rfind('/') + 1, file.size() - file.rfind('/') - 6);
    if (("," + wanted_models + ",").find("," + stem + ",") == std::string::npos) continue;
    const Model model = load_model_file(source_dir + "/models/" + file);
    const auto compiled = compile(model);
    // The GPU tests' runs (tests/gpu/gpu_runs.hpp: stable steps, runs that finish) over their spread of the first
    // parameter, so that the instances take different steps (divergent warps).
    const testing::Spread spread = testing::gpu_spread(file);
    const Ensemble e = testing::spread_ensemble(model, *compiled, instances, spread.low, spread.high);
    for (const GpuRun& run : testing::gpu_runs_every_method(file)) {
      RunSpec spec = run.spec;
      const Method method = spec.method;
      if (rosenbrock_tol > 0 && (method == Method::rn4 || method == Method::ros2w))
        spec.control.rtol = spec.control.atol = rosenbrock_tol;
      // At most 0.05 s: under memcheck a kernel runs a hundred times slower.
      const double t_end = std::min(run.times.back(), max_t_end);
      const std::vector<double> times = output_grid(0.0, t_end, t_end / 5);
      const EnsembleResult cpu = run_ensemble_cpu(*compiled, e, spec, times, 1);
      for (const Strategy& s : strategies) {
        if (s.step && compiled->constraints.m > 0) continue;  // the cuda stepper refuses loop models
        ++runs;
        std::string why;
        double d = INFINITY;
        const auto start = std::chrono::steady_clock::now();
        try {
          if (s.step) {
            d = step_difference(step_run(*compiled, e, spec, times, false), step_run(*compiled, e, spec, times, true),
                                &why);
          } else {
            const EnsembleResult gpu = run_ensemble_cuda(*compiled, e, spec, times, s.options);
            d = difference(cpu, gpu, method == Method::rk4, &why);
          }
        } catch (const std::exception& error) {
          why = error.what();
        }
        // Wall time under the tool: what the next device session plans its step limits by.
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double bound = method == Method::rk4 ? 1e-10 : 10 * spec.control.rtol;
        const bool ok = d <= bound;
        failures += !ok;
        std::printf("%-5s %-28s %-7s %-10s N=%d max rel diff vs cpu %.2e (bound %.0e) %.1f s %s\n", ok ? "ok" : "FAIL",
                    model.name.c_str(), testing::method_label(method), s.name.c_str(), instances, d, bound, seconds,
                    why.c_str());
        std::fflush(stdout);
      }
    }
  }
  if (runs == 0) {  // a misspelt strategy or model must not pass as a clean run
    std::fprintf(stderr, "gpu_sanitizer_runs: no run matches --strategies '%s' and --models '%s'\n", wanted.c_str(),
                 wanted_models.c_str());
    return 2;
  }
  std::printf("gpu_sanitizer_runs: %d of %d runs agree with the cpu backend\n", runs - failures, runs);
  return failures ? 1 : 0;
}
