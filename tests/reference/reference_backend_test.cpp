// The reference backend (dense Eigen dynamics) against the cpu backend (fast path) on the same ensembles:
// every shipped model, 256 instances with randomized parameters (8-32 of the loop vehicles and template corners:
// plan_for) for RK4 and for DOPRI5. The backends share chart, integrators, step control, breakpoints and output
// signals, so they differ only in the dynamics (and, for RN4, the Jacobians):
//   * fixed-step RK4 takes identical steps and every output agrees to 1e-10 relative to max(1, |value|);
//   * DOPRI5 (tol 1e-8) agrees to 10 x tol relative to max(1, |value|) on every output (a tire's force, whose slip
//     stiffness multiplies wheel-speed differences, to plan_for's dopri5_force_pointwise);
//   * RN4 and ROS2-W (tol 1e-6) agree to 10 x tol: on the models with rotations relative to max(1, |value|);
//     on the stiff models the state-like outputs so, and the stiff spring forces and accelerations relative
//     to their magnitude over the run (see RosenbrockMethodsAgreeToTenTimesTheToleranceOnStiffModels).
// Each case prints both backends' wall times (no assertions on them) and the largest differences.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dynamics/tree_chart.hpp"
#include "dynamics/tree_second_order.hpp"
#include "ensemble/cpu_runner.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"
#include "reference/reference_runner.hpp"
#include "random_state.hpp"
#include "support/backend_comparison.hpp"
#include "support/model_fixture.hpp"

namespace myriad {
namespace reference_backend_test {

using namespace testing;

constexpr int kInstances = 256;
constexpr int kThreads = 2;

struct Comparison {
  EnsembleResult cpu, reference;
  Differences max_difference;
};

// Runs `ensemble` on both backends from t0 to t_end and prints their wall times and largest differences.
Comparison compare_backends(const std::string& name, const Loaded& l, const Ensemble& ensemble, RunSpec spec,
                            double t0, double t_end, int n_intervals) {
  Comparison c;
  spec.t0 = t0;
  const std::vector<double> times = output_grid(t0, t_end, (t_end - t0) / n_intervals);
  c.cpu = run_ensemble_cpu(*l.compiled, ensemble, spec, times, kThreads);
  c.reference = run_ensemble_reference(l.model, *l.compiled, ensemble, spec, times, kThreads);
  c.max_difference = max_differences(l.model, c.reference, c.cpu);
  long long cpu_steps = 0, reference_steps = 0;
  for (int i = 0; i < ensemble.n_instances; ++i) {
    cpu_steps += c.cpu.stats[static_cast<size_t>(i)].steps;
    reference_steps += c.reference.stats[static_cast<size_t>(i)].steps;
  }
  std::printf(
      "[ reference ] %-21s %-6s N=%3d t=[%g,%g] steps cpu %7lld ref %7lld | wall cpu %6.3f s ref %6.3f s |"
      " max diff pointwise %.2e (state-like %.2e) signalwise %.2e\n",
      name.c_str(), method_name(spec.method), ensemble.n_instances, t0, t_end, cpu_steps, reference_steps,
      c.cpu.total_wall_seconds, c.reference.total_wall_seconds, c.max_difference.pointwise,
      c.max_difference.state_pointwise, c.max_difference.signalwise);
  std::fflush(stdout);
  return c;
}

void expect_all_ok(const EnsembleResult& r, const char* backend) {
  for (int i = 0; i < r.n_instances; ++i)
    ASSERT_EQ(r.status[static_cast<size_t>(i)], InstanceStatus::ok) << backend << " instance " << i;
}

TEST(ReferenceBackend, Rk4TakesIdenticalStepsAndAgreesTo1e10OnEveryModel) {
  const std::vector<std::string> names = shipped_model_names();
  ASSERT_GE(names.size(), 8u);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const Loaded l = load(name);
    const ModelPlan plan = plan_for(name);
    const Ensemble ensemble = randomized_ensemble(l.model, *l.compiled, plan.instances, 17);
    const Comparison c = compare_backends(name, l, ensemble, rk4(plan.rk4_h), 0.0, plan.rk4_t_end, 10);
    expect_all_ok(c.cpu, "cpu");
    expect_all_ok(c.reference, "reference");
    for (int i = 0; i < plan.instances; ++i) {
      const IntegratorStats& a = c.reference.stats[static_cast<size_t>(i)];
      const IntegratorStats& b = c.cpu.stats[static_cast<size_t>(i)];
      EXPECT_EQ(a.steps, b.steps) << "instance " << i;
      EXPECT_EQ(a.function_evaluations, b.function_evaluations) << "instance " << i;  // the same rebases too
    }
    EXPECT_LE(c.max_difference.state_pointwise, 1e-10);
    EXPECT_LE(c.max_difference.pointwise, plan.rk4_force_pointwise);
  }
}

TEST(ReferenceBackend, Dopri5AgreesToTenTimesTheToleranceOnEveryModel) {
  const double tol = 1e-8;
  for (const std::string& name : shipped_model_names()) {
    SCOPED_TRACE(name);
    const Loaded l = load(name);
    const ModelPlan plan = plan_for(name);
    const Ensemble ensemble = randomized_ensemble(l.model, *l.compiled, plan.instances, 29);
    const Comparison c =
        compare_backends(name, l, ensemble, adaptive(Method::dopri5, tol), 0.0, plan.dopri5_t_end, 20);
    expect_all_ok(c.cpu, "cpu");
    expect_all_ok(c.reference, "reference");
    EXPECT_LE(c.max_difference.state_pointwise, 10 * tol);
    EXPECT_LE(c.max_difference.pointwise, std::max(10 * tol, plan.dopri5_force_pointwise));
  }
}

// The stiff models over the stiff quarter car's bump (its breakpoints lie in [0.45, 0.66]). Their spring
// forces and accelerations are stiffness and damping (up to 5e4 N m s/rad, 1e7 N/m) times state differences
// and cross zero (measured pointwise: 6.9e-4 for the stiff pendulum's torque2 under RN4, whose 5e4 N m s/rad
// damping multiplies a 1e-7 rad/s velocity difference), so every output is compared relative to its magnitude
// over the run (signalwise), and the state-like outputs pointwise as well.
TEST(ReferenceBackend, RosenbrockMethodsAgreeToTenTimesTheToleranceOnStiffModels) {
  const double tol = 1e-6;
  for (const std::string name : {"stiff_double_pendulum", "stiff_quarter_car"}) {
    SCOPED_TRACE(name);
    const Loaded l = load(name);
    const Ensemble ensemble = randomized_ensemble(l.model, *l.compiled, 16, 41);
    const Comparison rn4 = compare_backends(name, l, ensemble, adaptive(Method::rn4, tol), 0.0, 0.7, 70);
    expect_all_ok(rn4.cpu, "cpu");
    expect_all_ok(rn4.reference, "reference");
    EXPECT_LE(rn4.max_difference.signalwise, 10 * tol);
    EXPECT_LE(rn4.max_difference.state_pointwise, 10 * tol);
    // ROS2-W (order 2) needs ~1e5 steps per instance over the bump: fewer instances.
    const Ensemble few = randomized_ensemble(l.model, *l.compiled, 4, 43);
    const Comparison ros2w = compare_backends(name, l, few, adaptive(Method::ros2w, tol), 0.4, 0.7, 30);
    expect_all_ok(ros2w.cpu, "cpu");
    expect_all_ok(ros2w.reference, "reference");
    EXPECT_LE(ros2w.max_difference.signalwise, 10 * tol);
    EXPECT_LE(ros2w.max_difference.state_pointwise, 10 * tol);
  }
}

// The second-order form's rotation-vector charts (re-centred at every step, w recomputed from u) and the free
// joint's position map, on the models with spherical and free joints.
TEST(ReferenceBackend, RosenbrockMethodsAgreeToTenTimesTheToleranceOnModelsWithRotations) {
  const double tol = 1e-6;
  for (const std::string name : {"free_body", "undamped_chain", "spatial_chain"}) {
    SCOPED_TRACE(name);
    const Loaded l = load(name);
    const bool slow = name == std::string("spatial_chain");
    const Ensemble ensemble = randomized_ensemble(l.model, *l.compiled, slow ? 4 : 16, 47);
    for (Method method : {Method::rn4, Method::ros2w}) {
      SCOPED_TRACE(method_name(method));
      const Comparison c =
          compare_backends(name, l, ensemble, adaptive(method, tol), 0.0, slow ? 0.1 : 0.2, 10);
      expect_all_ok(c.cpu, "cpu");
      expect_all_ok(c.reference, "reference");
      EXPECT_LE(c.max_difference.pointwise, 10 * tol);
    }
  }
}

// Models with loops (models/loops): the reference integrates its own state-space ODE (Newton with the dense
// constraint Jacobian, the augmented system of seed 000 eq. 3), the cpu backend the fast path's; same partition,
// so RK4 takes identical steps.
TEST(ReferenceBackend, LoopModelsAgreeWithTheReferenceStateSpaceOde) {
  for (const std::string name : kLoopModels) {
    SCOPED_TRACE(name);
    const Loaded l = load(name);
    // The five-bar's third leg reaches the end effector only near its design pose: +-1% there.
    const Ensemble ensemble =
        randomized_ensemble(l.model, *l.compiled, kInstances, 61, name == "loops/five_bar" ? 0.01 : 0.1);
    const ModelPlan plan = plan_for(name);
    const Comparison fixed = compare_backends(name, l, ensemble, rk4(plan.rk4_h), 0.0, plan.rk4_t_end, 10);
    expect_all_ok(fixed.cpu, "cpu");
    expect_all_ok(fixed.reference, "reference");
    for (int i = 0; i < kInstances; ++i)
      EXPECT_EQ(fixed.reference.stats[static_cast<size_t>(i)].steps, fixed.cpu.stats[static_cast<size_t>(i)].steps);
    EXPECT_LE(fixed.max_difference.pointwise, 1e-10);
    const double tol = 1e-8;
    const Comparison dopri5 =
        compare_backends(name, l, ensemble, adaptive(Method::dopri5, tol), 0.0, plan.dopri5_t_end, 20);
    expect_all_ok(dopri5.cpu, "cpu");
    expect_all_ok(dopri5.reference, "reference");
    EXPECT_LE(dopri5.max_difference.pointwise, 10 * tol);
  }
}

// RN4 on loop models: exact Dual Jacobians through the partitioning (cpu) against finite differences of the
// reference state-space ODE.
TEST(ReferenceBackend, Rn4OnLoopModelsAgreesToTenTimesTheTolerance) {
  const double tol = 1e-6;
  // The template models too (issue 17: every template model runs on the cpu and reference backends with RN4).
  for (const std::string name : {"loops/four_bar", "loops/andrews_squeezer", "loops/five_bar", "double_wishbone_corner",
                                 "macpherson_corner", "five_link_corner", "half_car", "full_car"}) {
    SCOPED_TRACE(name);
    const Loaded l = load(name);
    const ModelPlan plan = plan_for(name);
    const Ensemble ensemble = randomized_ensemble(l.model, *l.compiled, std::max(1, std::min(16, plan.instances / 8)),
                                                  67, name == "loops/five_bar" ? 0.01 : 0.1);
    const Comparison c =
        compare_backends(name, l, ensemble, adaptive(Method::rn4, tol), 0.0, plan.dopri5_t_end, 10);
    expect_all_ok(c.cpu, "cpu");
    expect_all_ok(c.reference, "reference");
    if (name.rfind("loops/", 0) == 0) {
      EXPECT_LE(c.max_difference.pointwise, 10 * tol);
    } else {
      // The exact and the finite-difference Jacobians part the step sequences of the half and full car (4231 and
      // 4223 steps), and their accelerations and 19 kN s/m dampers weigh the tolerance-sized state differences:
      // pointwise 1e-3 on an acceleration near zero. The state stays within 10 tol (measured 6.3e-10), every signal
      // relative to its own size too (3.4e-6).
      EXPECT_LE(c.max_difference.state_pointwise, 10 * tol);
      EXPECT_LE(c.max_difference.signalwise, 10 * tol);
    }
  }
}

TEST(ReferenceBackend, ResultsDoNotDependOnTheThreadCount) {
  const Loaded l = load("spatial_chain");
  const Ensemble ensemble = randomized_ensemble(l.model, *l.compiled, 40, 3);
  const std::vector<double> times = output_grid(0.0, 0.05, 0.01);
  const RunSpec spec = adaptive(Method::dopri5, 1e-8);
  const EnsembleResult one = run_ensemble_reference(l.model, *l.compiled, ensemble, spec, times, 1);
  const EnsembleResult three = run_ensemble_reference(l.model, *l.compiled, ensemble, spec, times, 3);
  EXPECT_EQ(one.threads, 1);
  EXPECT_EQ(three.threads, 3);
  ASSERT_EQ(one.values.size(), three.values.size());
  for (size_t i = 0; i < one.values.size(); ++i) ASSERT_EQ(one.values[i], three.values[i]) << i;
  for (int i = 0; i < ensemble.n_instances; ++i)
    EXPECT_EQ(one.stats[static_cast<size_t>(i)].steps, three.stats[static_cast<size_t>(i)].steps);
}

TEST(ReferenceBackend, AFailingInstanceStopsAloneWithNaNValues) {
  const Loaded l = load("double_pendulum_002");
  Ensemble ensemble = randomized_ensemble(l.model, *l.compiled, 8, 5);
  // A NaN mass for instance 3 in the parameter table only: its literal model, and so its reference dynamics,
  // become non-finite (the packed constants the recorder reads stay valid, so the t0 outputs are recorded).
  ensemble.parameters[static_cast<size_t>(0) * 8 + 3] = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> times = output_grid(0.0, 0.1, 0.01);
  for (const RunSpec& spec :
       {rk4(1e-3), adaptive(Method::dopri5, 1e-8), adaptive(Method::rn4, 1e-6)}) {
    SCOPED_TRACE(method_name(spec.method));
    const EnsembleResult r = run_ensemble_reference(l.model, *l.compiled, ensemble, spec, times, 2);
    for (int i = 0; i < 8; ++i) {
      if (i == 3) continue;
      EXPECT_EQ(r.status[static_cast<size_t>(i)], InstanceStatus::ok) << i;
      EXPECT_TRUE(std::isfinite(r.value(i, r.n_times - 1, 0))) << i;
    }
    EXPECT_EQ(r.status[3], InstanceStatus::non_finite);
    for (int k = 1; k < r.n_times; ++k)
      for (int s = 0; s < r.n_signals; ++s) EXPECT_TRUE(std::isnan(r.value(3, k, s))) << k << " " << s;
  }
}

TEST(ReferenceBackend, FiniteDifferenceJacobiansMatchTheDualNumberJacobiansOnEveryModel) {
  for (const std::string& name : shipped_model_names()) {
    SCOPED_TRACE(name);
    const testing::Instance inst(load_model_file(testing::model_path(name + ".json")));
    const CompiledModel& model = *inst.compiled;
    const int n = model.nv;
    std::mt19937_64 rng(11);
    std::vector<double> q, v;
    cli::random_state(inst.model, inst.q, rng, q, v);
    std::vector<double> base_fast(static_cast<size_t>(model.nq) + 1), x(static_cast<size_t>(n) + 1);
    chart_from_q(model, q.data(), base_fast.data(), x.data());
    for (int i = 0; i < n; ++i) x[static_cast<size_t>(i)] += 0.05;  // off the chart centre
    std::vector<double> base_reference = base_fast;
    std::vector<unsigned char> buffer(tree_second_order_bytes(model));
    TreeSecondOrder<const double*> fast =
        make_tree_second_order(model, inst.k(), base_fast.data(), buffer.data());
    reference::ReferenceTreeSecondOrder slow(inst.model, model, base_reference.data());
    std::vector<double> y(2 * static_cast<size_t>(n) + 1), w(static_cast<size_t>(n) + 1);
    for (int i = 0; i < n; ++i) {
      y[static_cast<size_t>(i)] = x[static_cast<size_t>(i)];
      y[static_cast<size_t>(n + i)] = v[static_cast<size_t>(i)];
    }
    fast.from_first_order(y.data(), x.data(), w.data());
    const size_t nn = static_cast<size_t>(n) * static_cast<size_t>(n) + 1;
    std::vector<double> f_fast(static_cast<size_t>(n) + 1), J1_fast(nn), J2_fast(nn),
        ft_fast(static_cast<size_t>(n) + 1);
    std::vector<double> f_slow = f_fast, J1_slow = J1_fast, J2_slow = J2_fast, ft_slow = ft_fast;
    const double t = 0.37;  // away from every input's kinks
    ASSERT_TRUE(
        fast.jacobians(t, x.data(), w.data(), f_fast.data(), J1_fast.data(), J2_fast.data(), ft_fast.data()));
    ASSERT_TRUE(
        slow.jacobians(t, x.data(), w.data(), f_slow.data(), J1_slow.data(), J2_slow.data(), ft_slow.data()));
    auto largest = [](const std::vector<double>& a) {
      double m = 1.0;
      for (double value : a) m = std::max(m, std::abs(value));
      return m;
    };
    const double f_scale = largest(f_fast), J1_scale = largest(J1_fast), J2_scale = largest(J2_fast);
    for (int i = 0; i < n; ++i) {
      EXPECT_NEAR(f_slow[static_cast<size_t>(i)], f_fast[static_cast<size_t>(i)], 1e-9 * f_scale);
      // Zero for models without time functions on both (the differences of f in t vanish exactly).
      EXPECT_NEAR(ft_slow[static_cast<size_t>(i)], ft_fast[static_cast<size_t>(i)],
                  1e-6 * std::max(largest(ft_fast), f_scale));
      for (int j = 0; j < n; ++j) {
        const size_t ij = static_cast<size_t>(i * n + j);
        EXPECT_NEAR(J1_slow[ij], J1_fast[ij], 1e-7 * J1_scale) << i << "," << j;
        EXPECT_NEAR(J2_slow[ij], J2_fast[ij], 1e-7 * J2_scale) << i << "," << j;
      }
    }
  }
}

// The rule the cuda comparison applies where rounding parts two backends' adaptive step sequences (own_error,
// support/backend_comparison.hpp), checked where no device is needed: perturbing rtol by one part in 1e12 (a
// rounding difference of the size the GPU's multiply-adds bring) on the rough-road quarter car under DOPRI5 at
// 1e-8 moves its forces and accelerations past 10 x tol, while its state-like outputs stay within 10 x tol and
// every output within the run's own error against tolerance 1e-12.
TEST(ReferenceBackend, RoundingPartsDopri5StepsWithinTheRunsOwnError) {
  const Loaded l = load("quarter_car_road");
  const ModelPlan plan = plan_for("quarter_car_road");
  const Ensemble e = randomized_ensemble(l.model, *l.compiled, 256, 71);
  const std::vector<double> times = output_grid(0.0, plan.dopri5_t_end, plan.dopri5_t_end / 20);
  const RunSpec spec = adaptive(Method::dopri5, 1e-8);
  RunSpec nudged = spec;
  nudged.control.rtol *= 1.0 + 1e-12;
  const Differences d = max_differences(l.model, run_ensemble_cpu(*l.compiled, e, nudged, times, 0),
                                        run_ensemble_cpu(*l.compiled, e, spec, times, 0));
  const Differences own = own_error(l, e, spec, times);
  std::printf("rtol nudged by 1e-12: pointwise %.2e (state-like %.2e); own error %.2e\n", d.pointwise,
              d.state_pointwise, own.pointwise);
  EXPECT_GT(d.pointwise, 1e-7);  // the parted sequences the rule is for
  EXPECT_LE(d.state_pointwise, 1e-7);
  EXPECT_LE(d.pointwise, own.pointwise);
}

}  // namespace reference_backend_test
}  // namespace myriad
