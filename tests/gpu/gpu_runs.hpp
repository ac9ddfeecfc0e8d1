#pragma once
// The runs the GPU tests compare (cuda_backend_test.cpp), kept in one place so that a CPU test
// (gpu_runs_test.cpp) can hold each of them to what makes the comparison mean something and lets it fit a device
// session. The first device run (H200, 2026-11-26) found two ways to fail that: RK4 at h = 1e-4 on the stiff
// double pendulum blows up after 3 steps on both backends, so the comparison set NaN against NaN
// (CudaBackend.StagedStrategyMatchesCpuOnEveryMethod reported 33,000 NaN differences of runs that both failed);
// and ROS2-W needs 52,000 steps for 0.5 s of the spatial chain at rtol 1e-6, which a budget of 5 steps per launch
// turns into 10,000 launches a chunk (CudaBackend.StepBudgetsWithCompactionGiveTheSameResultsBitForBit ran past
// 130 s). Each model now runs each method where plan_for (support/backend_comparison.hpp) says it is stable and
// over a horizon of a few thousand steps.
#include <algorithm>
#include <string>
#include <vector>

#include "support/backend_comparison.hpp"
#include "support/run_model.hpp"

namespace myriad::testing {

struct GpuRun {
  RunSpec spec;
  std::vector<double> times;
};

inline const char* method_label(Method m) {
  return m == Method::rk4 ? "rk4" : m == Method::dopri5 ? "dopri5" : m == Method::rn4 ? "rn4" : "ros2w";
}

// plan_for's name of a model file under models/ ("loops/four_bar.json" -> "loops/four_bar").
inline std::string plan_name(const std::string& file) { return file.substr(0, file.rfind(".json")); }

// Horizon of the Rosenbrock runs: 0.5 s (RN4 takes 142 steps of the stiff pendulum there, ROS2-W 10,838), but
// 0.1 s of the spatial chain (ROS2-W: 52,098 steps for 0.5 s).
inline double rosenbrock_t_end(const std::string& file) { return plan_name(file) == "spatial_chain" ? 0.1 : 0.5; }

// Instances per comparison: fewer of the large models (their CPU halves cost seconds).
inline int gpu_instances(const CompiledModel& compiled) { return compiled.nv > 6 ? 40 : 300; }

// RN4 or ROS2-W at rtol 1e-6, atol 1e-8.
inline RunSpec rosenbrock_spec(Method method) {
  RunSpec spec;
  spec.method = method;
  spec.control.rtol = 1e-6;
  spec.control.atol = 1e-8;
  return spec;
}

// Each of `methods` on the model in `file`, ten output intervals over its horizon: RK4 at plan_for's stable step,
// DOPRI5 at rtol 1e-8 (atol 1e-10) over plan_for's DOPRI5 horizon, RN4 and ROS2-W as rosenbrock_spec over
// rosenbrock_t_end.
inline std::vector<GpuRun> gpu_runs(const std::string& file, const std::vector<Method>& methods) {
  const ModelPlan plan = plan_for(plan_name(file));
  std::vector<GpuRun> runs;
  for (Method method : methods) {
    const double t_end = method == Method::rk4      ? plan.rk4_t_end
                         : method == Method::dopri5 ? plan.dopri5_t_end
                                                    : rosenbrock_t_end(file);
    const RunSpec spec = method == Method::rk4      ? rk4(plan.rk4_h)
                         : method == Method::dopri5 ? dopri5(1e-8, 1e-10)
                                                    : rosenbrock_spec(method);
    runs.push_back({spec, output_grid(0.0, t_end, t_end / 10)});
  }
  return runs;
}

inline std::vector<GpuRun> gpu_runs_every_method(const std::string& file) {
  return gpu_runs(file, {Method::rk4, Method::dopri5, Method::rn4, Method::ros2w});
}

// n instances with the model's first parameter spread linearly over [low, high] times its default (all alike for
// a model without parameters).
inline Ensemble spread_ensemble(const Model& model, const CompiledModel& compiled, int n, double low, double high) {
  if (model.parameters.empty()) return build_ensemble(model, compiled, n, nullptr, {});
  ParameterTable t;
  t.source = "generated";
  t.names = {model.parameters[0].name};
  for (int i = 0; i < n; ++i)
    t.rows.push_back({model.parameters[0].value * (low + (high - low) * i / std::max(1, n - 1))});
  return build_ensemble(model, compiled, 0, &t, {});
}

// The model files of the GPU tests that run these plans.
inline const std::vector<std::string>& gpu_run_files() {
  static const std::vector<std::string> files = {"quarter_car.json", "stiff_double_pendulum.json",
                                                 "spatial_chain.json", "free_body.json", "loops/four_bar.json"};
  return files;
}

// The widest spread of the first parameter the GPU tests give a model: x0.5 .. x2, so that instances need
// different step counts and finish in different launches; x0.8 .. x1.2 for a loop model, whose first parameter
// is its independent coordinate (the four-bar does not assemble at twice its crank angle).
struct Spread {
  double low, high;
};
inline Spread gpu_spread(const std::string& file) {
  return file.rfind("loops/", 0) == 0 ? Spread{0.8, 1.2} : Spread{0.5, 2.0};
}

// The most steps (accepted and rejected) any instance of a GPU test's run may take: with a budget of 5 steps a
// launch, 3,000 launches per chunk.
constexpr long long kGpuRunMaxSteps = 15000;

}  // namespace myriad::testing
