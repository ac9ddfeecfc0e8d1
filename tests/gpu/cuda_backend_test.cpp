// CUDA thread-per-instance run against the CPU fast path. Skips, saying why, where no device is present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "backends/backend.hpp"
#include "backends/cuda_runner.hpp"
#include "ensemble/device_slot.hpp"
#include "integrators/implicit_coefficients.hpp"
#include "gpu/gpu_runs.hpp"
#include "support/backend_comparison.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace cuda_backend_test {

using namespace testing;

RunSpec rosenbrock(Method method) { return rosenbrock_spec(method); }

// gpu against cpu: the same statuses, every value within `tolerance` relative to max(1, |cpu value|), and with
// same_steps the same step counts.
void expect_agrees(const EnsembleResult& cpu, const EnsembleResult& gpu, double tolerance, bool same_steps) {
  for (int i = 0; i < cpu.n_instances; ++i) {
    const size_t index = static_cast<size_t>(i);
    // A run that fails on both backends would agree NaN for NaN: the runs compared must finish (gpu_runs.hpp).
    ASSERT_EQ(cpu.status[index], InstanceStatus::ok) << "instance " << i;
    ASSERT_EQ(gpu.status[index], cpu.status[index]) << "instance " << i;
    if (same_steps) EXPECT_EQ(gpu.stats[index].steps, cpu.stats[index].steps) << "instance " << i;
    for (int k = 0; k < cpu.n_times; ++k)
      for (int s = 0; s < cpu.n_signals; ++s) {
        const double a = cpu.value(i, k, s), b = gpu.value(i, k, s);
        EXPECT_LE(std::abs(a - b), tolerance * std::max(1.0, std::abs(a))) << "instance " << i << " signal " << s;
      }
  }
}

// Two device runs of the same ensemble, bit for bit: statuses, step and rejection counts (and Jacobian counts with
// `jacobians`), every value's bits (NaN for NaN). Counts every instance that differs and names the first, without
// stopping, so that one device session reports every case a test covers.
void expect_same_bits(const EnsembleResult& reference, const EnsembleResult& other, bool jacobians,
                      const std::string& what) {
  ASSERT_EQ(other.values.size(), reference.values.size()) << what;
  int differing = 0, first = -1;
  std::string first_difference;
  for (int i = 0; i < reference.n_instances; ++i) {
    const size_t index = static_cast<size_t>(i);
    ASSERT_EQ(reference.status[index], InstanceStatus::ok) << what << ", instance " << i;
    const IntegratorStats &a = reference.stats[index], &b = other.stats[index];
    std::string difference;
    if (other.status[index] != reference.status[index]) {
      difference = "status";
    } else if (b.steps != a.steps || b.rejected != a.rejected) {
      difference = "steps " + std::to_string(b.steps) + " vs " + std::to_string(a.steps) + ", rejected " +
                   std::to_string(b.rejected) + " vs " + std::to_string(a.rejected);
    } else if (jacobians && b.jacobian_evaluations != a.jacobian_evaluations) {
      difference = "Jacobian evaluations";
    }
    for (int k = 0; difference.empty() && k < reference.n_times; ++k)
      for (int s = 0; difference.empty() && s < reference.n_signals; ++s) {
        const double x = reference.value(i, k, s), y = other.value(i, k, s);
        if (std::memcmp(&x, &y, sizeof(double)) != 0 && !(std::isnan(x) && std::isnan(y))) {
          char text[96];
          std::snprintf(text, sizeof text, "time %d signal %d: %.17g vs %.17g", k, s, y, x);
          difference = text;
        }
      }
    if (difference.empty()) continue;
    if (differing++ == 0) {
      first = i;
      first_difference = difference;
    }
  }
  EXPECT_EQ(differing, 0) << what << ": " << differing << " of " << reference.n_instances
                          << " instances differ; the first, instance " << first << ": " << first_difference;
}

// A run's options under the name a failure message gives them.
struct SlotVariant {
  const char* name;
  CudaRunOptions options;
};

TEST(CudaBackend, MatchesCpuOnRandomizedQuarterCarEnsemble) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  const Model model = load_model_file(model_path("quarter_car.json"));
  const auto compiled = compile(model);
  ParameterTable t;
  t.source = "generated";
  t.names = {"k_s", "c_s"};
  for (int i = 0; i < 256; ++i) t.rows.push_back({15000.0 + 97.0 * i, 800.0 + 12.5 * i});
  const Ensemble e = build_ensemble(model, *compiled, 0, &t, {});
  const std::vector<double> times = output_grid(0.0, 2.0, 0.01);
  for (const RunSpec& spec : {rk4(1e-3), dopri5(1e-8, 1e-10)}) {
    const EnsembleResult cpu = run_ensemble_cpu(*compiled, e, spec, times, 0);
    const EnsembleResult gpu = run_ensemble_cuda(*compiled, e, spec, times);
    for (int i = 0; i < e.n_instances; ++i) ASSERT_EQ(gpu.status[static_cast<size_t>(i)], InstanceStatus::ok);
    expect_agrees(cpu, gpu, spec.method == Method::rk4 ? 1e-10 : 1e-7, spec.method == Method::rk4);
  }
}

// The consistency check on every shipped model, tree and loop: the same 256 instances with randomized
// parameters (support/backend_comparison.hpp, as the reference-vs-cpu tests) on the cpu backend and the cuda
// backend (fused, the default). Fixed-step RK4 takes identical steps and agrees to 1e-10 relative to
// max(1, |value|); DOPRI5 (tol 1e-8) to 10 x tol on the state-like outputs and, on the others, to 10 x tol or
// where larger the cpu run's own error (own_error: rounding parts the step sequences on the rough-road quarter
// car, see there); RN4 (tol 1e-6) to 10 x tol on the state-like outputs
// pointwise and on every output relative to its magnitude over the run (stiff spring forces multiply state
// differences by up to 1e7, see ReferenceBackend.RosenbrockMethodsAgreeToTenTimesTheToleranceOnStiffModels).
// The GPU contracts multiply-adds where the CPU build does not, so the adaptive runs differ by rounding per
// step.
TEST(CudaBackend, MatchesCpuOnEveryShippedModelWithRandomizedParameters) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  std::vector<std::string> names = shipped_model_names();
#ifdef MYRIAD_DEVICE_LOOPS
  for (const char* loop : kLoopModels) names.push_back(loop);
#endif
  // MYRIAD_TEST_MODELS=a,b runs these alone (a device session's rerun of what it changed).
  if (const char* only = std::getenv("MYRIAD_TEST_MODELS")) {
    const std::string wanted = std::string(",") + only + ",";
    names.erase(std::remove_if(names.begin(), names.end(),
                               [&](const std::string& n) { return wanted.find("," + n + ",") == std::string::npos; }),
                names.end());
    std::printf("[ cuda ] MYRIAD_TEST_MODELS: %zu models\n", names.size());
  }
  const auto compare = [](const std::string& name, const Loaded& l, const Ensemble& e, const RunSpec& spec,
                          double t_end, int intervals) {
    const std::vector<double> times = output_grid(0.0, t_end, t_end / intervals);
    const EnsembleResult cpu = run_ensemble_cpu(*l.compiled, e, spec, times, 0);
    const EnsembleResult gpu = run_ensemble_cuda(*l.compiled, e, spec, times);
    const Differences d = max_differences(l.model, gpu, cpu);
    std::printf(
        "[ cuda ] %-24s %-6s N=%d wall cpu %.3f s cuda %.3f s | max diff pointwise %.2e (state-like %.2e) "
        "signalwise %.2e\n",
        name.c_str(), method_name(spec.method), e.n_instances, cpu.total_wall_seconds, gpu.total_wall_seconds,
        d.pointwise, d.state_pointwise, d.signalwise);
    for (int i = 0; i < e.n_instances; ++i) {
      EXPECT_EQ(cpu.status[static_cast<size_t>(i)], InstanceStatus::ok) << "cpu instance " << i;
      EXPECT_EQ(gpu.status[static_cast<size_t>(i)], InstanceStatus::ok) << "cuda instance " << i;
      if (spec.method == Method::rk4)
        EXPECT_EQ(gpu.stats[static_cast<size_t>(i)].steps, cpu.stats[static_cast<size_t>(i)].steps) << i;
    }
    return d;
  };
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const Loaded l = load(name);
    const double spread = name == "loops/five_bar" ? 0.01 : 0.1;  // its third leg closes only near its pose
    const Ensemble e = randomized_ensemble(l.model, *l.compiled, 256, 71, spread);
    const ModelPlan plan = plan_for(name);
    const Differences rk4_d = compare(name, l, e, rk4(plan.rk4_h), plan.rk4_t_end, 10);
    EXPECT_LE(rk4_d.state_pointwise, 1e-10);
    EXPECT_LE(rk4_d.pointwise, plan.rk4_force_pointwise);  // stiff template forces: plan_for says why
    const RunSpec d5 = adaptive(Method::dopri5, 1e-8);
    const Differences dopri5_d = compare(name, l, e, d5, plan.dopri5_t_end, 20);
    EXPECT_LE(dopri5_d.state_pointwise, 1e-7);
    if (dopri5_d.pointwise > 1e-7) {  // parted step sequences: the stiff outputs within the run's own error
      const Differences own = own_error(l, e, d5, output_grid(0.0, plan.dopri5_t_end, plan.dopri5_t_end / 20));
      std::printf("[ cuda ] %-24s dopri5 cpu's own error (vs tol 1e-12): pointwise %.2e\n", name.c_str(),
                  own.pointwise);
      EXPECT_LE(dopri5_d.pointwise, own.pointwise);
    }
    const Differences rn4 = compare(name, l, e, adaptive(Method::rn4, 1e-6), plan.dopri5_t_end, 10);
    EXPECT_LE(rn4.state_pointwise, 1e-5);
    EXPECT_LE(rn4.signalwise, 1e-5);
  }
}

// Named KPIs on the device: the fused kernel updates their states on line (finish_kpis turns them into values),
// as the cpu backend does without a series; RK4 takes the same steps on both, so each KPI of every shipped model
// that names some agrees to the outputs' bound (relative to max(1, |cpu value|)).
TEST(CudaBackend, NamedKpisAgreeWithTheCpuBackendsOnLineValues) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  int models_with_kpis = 0;
  for (const std::string& name : shipped_model_names()) {
    Loaded l = load(name);
    if (l.model.kpis.empty()) continue;
    SCOPED_TRACE(name);
    ++models_with_kpis;
    const ModelPlan plan = plan_for(name);
    // The shipped KPIs' windows open at 1 s, past these runs (an empty window reads NaN): here at half the run.
    for (Kpi& kpi : l.model.kpis) kpi.from = std::min(kpi.from, plan.rk4_t_end / 2);
    l.compiled = compile(l.model);
    // Parameters within 1% of the design: the relative KPIs divide by the first output time's tire load, which is
    // static only near the design (the H200 run of 2026-11-26 found 10% spreads of the free lengths starting a
    // quarter of the rough-road quarter cars with the tire unloaded, and their dynamic tire load infinite on
    // both backends).
    const Ensemble e = randomized_ensemble(l.model, *l.compiled, 64, 73, 0.01);
    const std::vector<double> times = output_grid(0.0, plan.rk4_t_end, plan.rk4_t_end / 10);
    Backend cpu_backend, cuda_backend;
    cuda_backend.kind = BackendKind::cuda;
    const RunSpec spec = rk4(plan.rk4_h);
    const EnsembleResult cpu = run_on_backend(cpu_backend, l.model, *l.compiled, e, spec, times, 0, nullptr, false);
    const EnsembleResult gpu = run_on_backend(cuda_backend, l.model, *l.compiled, e, spec, times, 0);
    ASSERT_EQ(gpu.n_kpis, static_cast<int>(l.model.kpis.size()));
    ASSERT_EQ(cpu.kpis.size(), gpu.kpis.size());
    double worst = 0.0;
    for (size_t k = 0; k < cpu.kpis.size(); ++k) {
      ASSERT_TRUE(std::isfinite(cpu.kpis[k])) << "kpi entry " << k;
      worst = std::max(worst, std::abs(gpu.kpis[k] - cpu.kpis[k]) / std::max(1.0, std::abs(cpu.kpis[k])));
    }
    std::printf("[ cuda ] %-24s %zu KPIs x %d instances: max rel diff vs cpu on line %.2e\n", name.c_str(),
                l.model.kpis.size(), e.n_instances, worst);
    EXPECT_LE(worst, plan.rk4_force_pointwise);
    // Without series (issue 18): the fused kernel's KPI states come back instead of the series, the same bits as
    // the run above, which kept its series and read the states too; the staged strategy, whose kernels carry no
    // KPI state, computes them from its series on the host and drops those.
    const EnsembleResult lean = run_on_backend(cuda_backend, l.model, *l.compiled, e, spec, times, 0, nullptr, false);
    EXPECT_TRUE(lean.values.empty());
    ASSERT_EQ(lean.kpis.size(), gpu.kpis.size());
    for (size_t k = 0; k < gpu.kpis.size(); ++k)
      ASSERT_EQ(std::memcmp(&lean.kpis[k], &gpu.kpis[k], sizeof(double)), 0) << "kpi entry " << k;
    Backend staged_backend = cuda_backend;
    staged_backend.cuda.strategy = GpuStrategy::staged;
    const EnsembleResult staged =
        run_on_backend(staged_backend, l.model, *l.compiled, e, spec, times, 0, nullptr, false);
    EXPECT_TRUE(staged.values.empty());
    ASSERT_EQ(staged.kpis.size(), cpu.kpis.size());
    for (size_t k = 0; k < cpu.kpis.size(); ++k)
      EXPECT_LE(std::abs(staged.kpis[k] - cpu.kpis[k]) / std::max(1.0, std::abs(cpu.kpis[k])),
                plan.rk4_force_pointwise)
          << "staged, kpi entry " << k;
  }
  EXPECT_GE(models_with_kpis, 3);  // quarter_car_road, half_car, full_car
}

// Loop models on the device (the same loop code as the cpu backend, compiled into the kernel unless
// MYRIAD_DEVICE_LOOPS is OFF): 256 instances with the independent coordinate spread, every method.
TEST(CudaBackend, MatchesCpuOnLoopModels) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
#ifndef MYRIAD_DEVICE_LOOPS
  GTEST_SKIP() << "this build leaves loop models out of the kernel (MYRIAD_DEVICE_LOOPS=OFF)";
#endif
  for (const char* file : {"loops/four_bar.json", "loops/andrews_squeezer.json", "loops/ladder/ladder_L4.json"}) {
    SCOPED_TRACE(file);
    const Model model = load_model_file(model_path(file));
    const auto compiled = compile(model);
    const Ensemble e = spread_ensemble(model, *compiled, 256, 0.95, 1.05);
    const double t_end = std::min(model.simulation.t_end, 0.5);
    const std::vector<double> times = output_grid(0.0, t_end, t_end / 20);
    RunSpec rn4;
    rn4.method = Method::rn4;
    rn4.control.rtol = rn4.control.atol = 1e-6;
    for (const RunSpec& spec : {rk4(t_end / 500), dopri5(1e-8, 1e-10), rn4}) {
      const EnsembleResult cpu = run_ensemble_cpu(*compiled, e, spec, times, 0);
      const EnsembleResult gpu = run_ensemble_cuda(*compiled, e, spec, times);
      const bool rk = spec.method == Method::rk4;
      expect_agrees(cpu, gpu, rk ? 1e-10 : 10 * spec.control.rtol, rk);
    }
  }
}

// A step budget per launch, with finished instances compacted out between launches, computes exactly what one
// launch to the end computes (the resumable integrations of advance_instance), on every method, stiff and not.
TEST(CudaBackend, StepBudgetsWithCompactionGiveTheSameResultsBitForBit) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  for (const char* file : {"quarter_car.json", "stiff_double_pendulum.json", "spatial_chain.json"}) {
    SCOPED_TRACE(file);
    const Model model = load_model_file(model_path(file));
    const auto compiled = compile(model);
    // Parameters spread widely so that instances need different step counts and finish in different launches.
    const Spread spread = gpu_spread(file);
    const Ensemble e = spread_ensemble(model, *compiled, gpu_instances(*compiled), spread.low, spread.high);
    for (const GpuRun& run : gpu_runs_every_method(file)) {
      const RunSpec& spec = run.spec;
      const std::vector<double>& times = run.times;
      SCOPED_TRACE(static_cast<int>(spec.method));
      const EnsembleResult whole = run_ensemble_cuda(*compiled, e, spec, times);
      for (int i = 0; i < e.n_instances; ++i) ASSERT_EQ(whole.status[static_cast<size_t>(i)], InstanceStatus::ok) << i;
      CudaRunOptions options;
      options.step_budget = 5;
      options.memory_budget_bytes = 1 << 20;  // several chunks too
      const EnsembleResult pieces = run_ensemble_cuda(*compiled, e, spec, times, options);
      long long most_steps = 0;
      for (const IntegratorStats& stats : whole.stats) most_steps = std::max(most_steps, stats.steps + stats.rejected);
      std::printf("[ cuda ] %-24s %-6s N=%d one launch %.3f s, budget 5 + compaction %.3f s (most steps %lld)\n",
                  file, method_label(spec.method), e.n_instances, whole.total_wall_seconds, pieces.total_wall_seconds,
                  most_steps);
      std::fflush(stdout);
      for (int i = 0; i < e.n_instances; ++i) {
        ASSERT_EQ(pieces.status[static_cast<size_t>(i)], whole.status[static_cast<size_t>(i)]) << i;
        EXPECT_EQ(pieces.stats[static_cast<size_t>(i)].steps, whole.stats[static_cast<size_t>(i)].steps) << i;
        EXPECT_EQ(pieces.stats[static_cast<size_t>(i)].rejected, whole.stats[static_cast<size_t>(i)].rejected) << i;
      }
      for (size_t j = 0; j < whole.values.size(); ++j) {
        const double a = whole.values[j], b = pieces.values[j];
        ASSERT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << "value " << j << ": " << a << " vs " << b;
      }
    }
  }
}

// Where the fused kernel keeps an instance's scratch (the thread's local memory, interleaved across the warp,
// or a slot in global memory) changes how it is addressed, never what is computed: bit for bit the same
// results, on tree and loop models, every method.
TEST(CudaBackend, ThreadLocalAndGlobalScratchGiveTheSameResultsBitForBit) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  std::vector<const char*> files = {"quarter_car.json", "stiff_double_pendulum.json", "free_body.json"};
#ifdef MYRIAD_DEVICE_LOOPS
  files.push_back("loops/four_bar.json");
#endif
  for (const char* file : files) {
    SCOPED_TRACE(file);
    const Model model = load_model_file(model_path(file));
    const auto compiled = compile(model);
    const Spread spread = gpu_spread(file);
    const Ensemble e = spread_ensemble(model, *compiled, 300, spread.low, spread.high);
    for (const GpuRun& run : gpu_runs_every_method(file)) {
      const RunSpec& spec = run.spec;
      const std::vector<double>& times = run.times;
      SCOPED_TRACE(static_cast<int>(spec.method));
      CudaRunOptions global;
      global.scratch = CudaRunOptions::Scratch::global;
      ASSERT_TRUE(plan_cuda_run(*compiled, spec.method, {}).thread_local_scratch);
      ASSERT_FALSE(plan_cuda_run(*compiled, spec.method, global).thread_local_scratch);
      const EnsembleResult in_threads = run_ensemble_cuda(*compiled, e, spec, times);
      const EnsembleResult in_global = run_ensemble_cuda(*compiled, e, spec, times, global);
      for (int i = 0; i < e.n_instances; ++i) {
        const size_t index = static_cast<size_t>(i);
        ASSERT_EQ(in_threads.status[index], InstanceStatus::ok) << i;
        ASSERT_EQ(in_threads.status[index], in_global.status[index]) << i;
        EXPECT_EQ(in_threads.stats[index].steps, in_global.stats[index].steps) << i;
        EXPECT_EQ(in_threads.stats[index].rejected, in_global.stats[index].rejected) << i;
        EXPECT_EQ(in_threads.stats[index].function_evaluations, in_global.stats[index].function_evaluations)
            << i;
      }
      for (size_t j = 0; j < in_threads.values.size(); ++j) {
        const double a = in_threads.values[j], b = in_global.values[j];
        ASSERT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << "value " << j << ": " << a << " vs " << b;
      }
    }
  }
}

// The fused kernel compiled for one method on tree models (kernels/tree_kernels.cuh) runs the same functions as
// the generic interpreter, less the branches such a run never takes: the same results bit for bit, every method,
// with slots in the threads' local memory, in global memory, and with step budgets and compaction. The method's
// kernel is asked for by name (Kernel::without_model): the quarter car's DOPRI5 and the pendulum's RN4 run in
// their model's own kernel by default (the next test).
TEST(CudaBackend, SpecializedAndGenericKernelsGiveTheSameResultsBitForBit) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  for (const char* file : {"quarter_car.json", "stiff_double_pendulum.json", "free_body.json", "spatial_chain.json"}) {
    const Model model = load_model_file(model_path(file));
    const auto compiled = compile(model);
    const Spread spread = gpu_spread(file);
    const Ensemble e = spread_ensemble(model, *compiled, 300, spread.low, spread.high);
    for (const GpuRun& run : gpu_runs_every_method(file)) {
      const RunSpec& spec = run.spec;
      CudaRunOptions generic, specialized, global, budget;
      generic.kernel = CudaRunOptions::Kernel::generic;
      specialized.kernel = global.kernel = budget.kernel = CudaRunOptions::Kernel::without_model;
      global.scratch = CudaRunOptions::Scratch::global;
      budget.step_budget = 5;
      ASSERT_TRUE(plan_cuda_run(*compiled, spec.method, specialized).specialized) << file;
      ASSERT_FALSE(plan_cuda_run(*compiled, spec.method, generic).specialized) << file;
      const EnsembleResult reference = run_ensemble_cuda(*compiled, e, spec, run.times, generic);
      for (const SlotVariant& v : {SlotVariant{"thread-local slots", specialized}, SlotVariant{"global slots", global},
                                   SlotVariant{"step budget 5", budget}}) {
        const std::string what = std::string(file) + " " + method_name(spec.method) + ", " + v.name;
        expect_same_bits(reference, run_ensemble_cuda(*compiled, e, spec, run.times, v.options), true, what);
      }
    }
  }
}

// The kernels compiled for one model (kernels/model_kernels.cu: the quarter car with DOPRI5, the stiff double
// pendulum with RN4) run the method's kernel with the model's topology folded in: the same results bit for bit as
// the method's and class's kernel, with slots in the threads' local memory, in global memory, and with step
// budgets and compaction; 300 instances whose first parameter spans 0.5x..2x.
TEST(CudaBackend, ModelKernelsGiveTheMethodKernelsResultsBitForBit) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  struct Case {
    const char* file;
    Method method;
    ModelKernel kernel;
  };
  for (const Case& c : {Case{"quarter_car.json", Method::dopri5, ModelKernel::quarter_car_dopri5},
                        Case{"stiff_double_pendulum.json", Method::rn4, ModelKernel::stiff_double_pendulum_rn4}}) {
    const Model model = load_model_file(model_path(c.file));
    const auto compiled = compile(model);
    const Spread spread = gpu_spread(c.file);
    const Ensemble e = spread_ensemble(model, *compiled, 300, spread.low, spread.high);
    const GpuRun run = gpu_runs(c.file, {c.method}).front();
    CudaRunOptions without_model, global, budget;
    without_model.kernel = CudaRunOptions::Kernel::without_model;
    global.scratch = CudaRunOptions::Scratch::global;
    budget.step_budget = 5;
    ASSERT_EQ(plan_cuda_run(*compiled, c.method, {}).model_kernel, c.kernel) << c.file;
    ASSERT_EQ(plan_cuda_run(*compiled, c.method, without_model).model_kernel, ModelKernel::none) << c.file;
    const EnsembleResult reference = run_ensemble_cuda(*compiled, e, run.spec, run.times, without_model);
    for (const SlotVariant& v : {SlotVariant{"thread-local slots", CudaRunOptions{}},
                                 SlotVariant{"global slots", global}, SlotVariant{"step budget 5", budget}}) {
      const std::string what = std::string(c.file) + " " + method_name(c.method) + ", " + v.name;
      expect_same_bits(reference, run_ensemble_cuda(*compiled, e, run.spec, run.times, v.options), true, what);
    }
  }
}

// Which runs the specialized kernel takes: fused runs (RK4 and DOPRI5 under the warp strategies too) of models
// without loops, unless the generic kernel is asked for; its AxisJointsClass copy for the models of that class.
// Host logic: runs without a device.
TEST(CudaRunPlan, SpecializedKernelForFusedRunsOfTreeModels) {
  const Model pendulum_model = load_model_file(model_path("stiff_double_pendulum.json"));
  const auto pendulum = compile(pendulum_model);
  const Model chain_model = load_model_file(model_path("spatial_chain.json"));
  const auto chain = compile(chain_model);
  const Model four_bar_model = load_model_file(model_path("loops/four_bar.json"));
  const auto four_bar = compile(four_bar_model);
  CudaRunOptions fused, generic, staged, warp;
  generic.kernel = CudaRunOptions::Kernel::generic;
  staged.strategy = GpuStrategy::staged;
  warp.strategy = GpuStrategy::warp;
  for (Method method : {Method::rk4, Method::dopri5, Method::rn4, Method::ros2w}) {
    SCOPED_TRACE(static_cast<int>(method));
    const bool rosenbrock_method = method == Method::rn4 || method == Method::ros2w;
    EXPECT_TRUE(plan_cuda_run(*pendulum, method, fused).specialized);
    EXPECT_TRUE(plan_cuda_run(*pendulum, method, fused).axis_joints);
    EXPECT_TRUE(plan_cuda_run(*chain, method, fused).specialized);
    EXPECT_FALSE(plan_cuda_run(*chain, method, fused).axis_joints);
    EXPECT_FALSE(plan_cuda_run(*pendulum, method, generic).specialized);
    EXPECT_FALSE(plan_cuda_run(*pendulum, method, generic).axis_joints);
    EXPECT_FALSE(plan_cuda_run(*pendulum, method, staged).specialized);
    EXPECT_EQ(plan_cuda_run(*pendulum, method, warp).specialized, !rosenbrock_method);
    EXPECT_FALSE(plan_cuda_run(*four_bar, method, fused).specialized);
  }
}

// Seed 003's implicit methods run in the fused kernel specialized for them (kernels/tree_implicit_kernel.cu, the one
// translation unit compiling them for the device) on tree models; loop models are refused, naming why. Host logic.
TEST(CudaRunPlan, ImplicitMethodsRunInTheirSpecializedKernelOnTreeModels) {
  const auto pendulum = compile(load_model_file(model_path("stiff_double_pendulum.json")));
  const auto four_bar = compile(load_model_file(model_path("loops/four_bar.json")));
  CudaRunOptions fused, generic;
  generic.kernel = CudaRunOptions::Kernel::generic;
  EXPECT_TRUE(plan_cuda_run(*pendulum, Method::implicit, fused).specialized);
  EXPECT_FALSE(plan_cuda_run(*pendulum, Method::implicit, generic).specialized);
  EXPECT_TRUE(kernels_take(*pendulum, Method::implicit));
  std::string why;
  EXPECT_FALSE(kernels_take(*four_bar, Method::implicit, &why));
  EXPECT_NE(why.find("without loops"), std::string::npos) << why;
}

// The implicit methods on the device against the cpu backend: 256 instances of the quarter car and of seed 002's
// double pendulum, LMS3 (rho_inf 0.6: a multistep history), Bathe and ESDIRK4(3)6L; the same equal-step grid and
// Newton to 1e-10 on both, so the values agree to 1e-8 relative (the GPU contracts multiply-adds).
TEST(CudaBackend, ImplicitMethodsMatchCpu) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  for (const char* file : {"quarter_car.json", "double_pendulum_002.json"}) {
    const Model model = load_model_file(model_path(file));
    const auto compiled = compile(model);
    const Ensemble e = spread_first_parameter(model, *compiled, 256);
    const std::vector<double> times = output_grid(0.0, 0.5, 0.01);
    for (const ImplicitMethod method : {ImplicitMethod::lms3, ImplicitMethod::bathe, ImplicitMethod::esdirk4_6l}) {
      RunSpec spec;
      spec.method = Method::implicit;
      spec.implicit = implicit_scheme(method, method == ImplicitMethod::esdirk4_6l ? 0.0 : 0.6);
      spec.h = 1e-3;
      const EnsembleResult cpu = run_ensemble_cpu(*compiled, e, spec, times, 0);
      const EnsembleResult gpu = run_ensemble_cuda(*compiled, e, spec, times);
      SCOPED_TRACE(std::string(file) + " " + implicit_method_name(method));
      expect_agrees(cpu, gpu, 1e-8, true);
    }
  }
}

// Which runs keep their scratch in the threads' local memory: one launch to the end (no step budget) of the
// thread-per-instance kernel (fused; RK4 and DOPRI5 under the warp strategies too, which have no Pi to
// share), with a slot that fits. Host logic: runs without a device.
TEST(CudaRunPlan, ThreadLocalScratchOnlyForOneFusedLaunchWhoseSlotFits) {
  const Model pendulum_model = load_model_file(model_path("stiff_double_pendulum.json"));
  const auto pendulum = compile(pendulum_model);
  const Model ladder_model = load_model_file(model_path("loops/ladder/ladder_L16.json"));
  const auto ladder = compile(ladder_model);
  CudaRunOptions fused, budget, staged, warp, shared, global;
  budget.step_budget = 256;
  staged.strategy = GpuStrategy::staged;
  warp.strategy = GpuStrategy::warp;
  shared.strategy = GpuStrategy::shared_lu;
  global.scratch = CudaRunOptions::Scratch::global;
  ASSERT_LE(device_slot_bytes(*pendulum, Method::rn4), kThreadLocalSlotBytes);
  ASSERT_GT(device_slot_bytes(*ladder, Method::rk4), kThreadLocalSlotBytes);
  EXPECT_GT(device_slot_bytes(*pendulum, Method::rn4), device_slot_bytes(*pendulum, Method::rk4));
  for (Method method : {Method::rk4, Method::dopri5, Method::rn4, Method::ros2w}) {
    SCOPED_TRACE(static_cast<int>(method));
    const bool rosenbrock_method = method == Method::rn4 || method == Method::ros2w;
    EXPECT_TRUE(plan_cuda_run(*pendulum, method, fused).thread_local_scratch);
    EXPECT_FALSE(plan_cuda_run(*pendulum, method, budget).thread_local_scratch);
    EXPECT_FALSE(plan_cuda_run(*pendulum, method, global).thread_local_scratch);
    EXPECT_TRUE(plan_cuda_run(*pendulum, method, staged).staged);
    EXPECT_FALSE(plan_cuda_run(*pendulum, method, staged).thread_local_scratch);
    for (const CudaRunOptions& warp_wide : {warp, shared}) {
      const CudaRunPlan plan = plan_cuda_run(*pendulum, method, warp_wide);
      EXPECT_EQ(plan.kernel, rosenbrock_method ? warp_wide.strategy : GpuStrategy::fused);
      EXPECT_EQ(plan.thread_local_scratch, !rosenbrock_method);
    }
    EXPECT_FALSE(plan_cuda_run(*ladder, method, fused).thread_local_scratch);
  }
}

// The staged strategy (cuBLAS batched LU between per-phase kernels, the cycle in a CUDA graph; RK4 and DOPRI5 one
// attempt per kernel) against the cpu backend, every method: cuBLAS factors Pi^T where the fused path factors Pi,
// so the implicit methods agree to rounding per step and to 10x the tolerance over a run (step counts may differ
// by a few); the explicit ones compute what the fused kernel computes.
TEST(CudaBackend, StagedStrategyMatchesCpuOnEveryMethod) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  for (const char* file : {"stiff_double_pendulum.json", "quarter_car.json", "spatial_chain.json", "loops/four_bar.json"}) {
    SCOPED_TRACE(file);
    const Model model = load_model_file(model_path(file));
    const auto compiled = compile(model);
    // The spatial chain's RN4 Jacobians cost 0.1 s an instance on the CPU: fewer of them.
    const Ensemble e = spread_ensemble(model, *compiled, gpu_instances(*compiled), 0.8, 1.2);
    for (const GpuRun& run : gpu_runs_every_method(file)) {
      const RunSpec& spec = run.spec;
      const std::vector<double>& times = run.times;
      SCOPED_TRACE(static_cast<int>(spec.method));
      const EnsembleResult cpu = run_ensemble_cpu(*compiled, e, spec, times, 0);
      CudaRunOptions options;
      options.strategy = GpuStrategy::staged;
      options.memory_budget_bytes = 64 << 20;
      const EnsembleResult gpu = run_ensemble_cuda(*compiled, e, spec, times, options);
      const bool rk = spec.method == Method::rk4;
      expect_agrees(cpu, gpu, rk ? 1e-10 : 10 * spec.control.rtol, rk);
    }
  }
}

// The warp-per-instance variant of the fused strategy (lane 0 integrates, the 32 lanes share each LU of Pi and
// each stage solve) and the shared-LU variant (thread per instance, the warp doing every lane's LU in turn)
// against the cpu backend, RN4 and ROS2-W, with a step budget and compaction as well. Their LU
// reproduces lu_factor/lu_solve operation for operation (linalg/lane_lu.hpp), so they agree with the thread-per-
// instance kernel to rounding; against the CPU (whose compiler does not contract to multiply-adds) to 10x the
// tolerance over a run.
TEST(CudaBackend, WarpAndSharedLuStrategiesMatchCpuOnRosenbrockMethods) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  for (const char* file : {"stiff_double_pendulum.json", "spatial_chain.json", "loops/four_bar.json"}) {
    SCOPED_TRACE(file);
    const Model model = load_model_file(model_path(file));
    const auto compiled = compile(model);
    const Ensemble e = spread_ensemble(model, *compiled, gpu_instances(*compiled), 0.8, 1.2);
    for (const GpuRun& run : gpu_runs(file, {Method::rn4, Method::ros2w})) {
      const RunSpec& spec = run.spec;
      const std::vector<double>& times = run.times;
      SCOPED_TRACE(static_cast<int>(spec.method));
      const EnsembleResult cpu = run_ensemble_cpu(*compiled, e, spec, times, 0);
      for (GpuStrategy strategy : {GpuStrategy::warp, GpuStrategy::shared_lu})
        for (long long budget : {0LL, 7LL}) {
          SCOPED_TRACE(strategy == GpuStrategy::warp ? "warp" : "shared-lu");
          CudaRunOptions options;
          options.strategy = strategy;
          options.step_budget = budget;
          const EnsembleResult gpu = run_ensemble_cuda(*compiled, e, spec, times, options);
          std::printf("[ cuda ] %-24s %-6s %-9s budget %lld N=%d: %.3f s (cpu %.3f s)\n", file,
                      method_label(spec.method), strategy == GpuStrategy::warp ? "warp" : "shared-lu", budget,
                      e.n_instances, gpu.total_wall_seconds, cpu.total_wall_seconds);
          std::fflush(stdout);
          for (const IntegratorStats& stats : gpu.stats) EXPECT_GT(stats.lu_factorizations, 0);
          expect_agrees(cpu, gpu, 10 * spec.control.rtol, false);
        }
    }
  }
  CudaRunOptions odd;
  odd.strategy = GpuStrategy::warp;
  odd.threads_per_block = 100;
  const Model model = load_model_file(model_path("stiff_double_pendulum.json"));
  const auto compiled = compile(model);
  EXPECT_THROW(run_ensemble_cuda(*compiled, build_ensemble(model, *compiled, 2, nullptr, {}), rosenbrock(Method::rn4),
                                 output_grid(0.0, 0.1, 0.05), odd),
               std::invalid_argument);
}

}  // namespace cuda_backend_test
}  // namespace myriad
