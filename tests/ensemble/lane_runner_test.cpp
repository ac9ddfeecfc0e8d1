// The cpu backend with instances in lanes (ensemble/lane_runner.hpp) against one instance at a time: the same
// numbers bit for bit, the same statuses, work counters and KPIs, on every shipped model it takes (DOPRI5, RK4
// and RN4), with lane counts that leave lanes idle at the end and
// instances whose steps differ; and an instance that fails in the middle of a joint step (DOPRI5) or of an RN4
// attempt or linearization gets its own scalar outcome while its lane mates go on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ensemble/lane_runner.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace lane_runner_test {

using namespace testing;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same_run(const EnsembleResult& lanes, const EnsembleResult& alone) {
  ASSERT_EQ(lanes.values.size(), alone.values.size());
  for (std::size_t i = 0; i < alone.status.size(); ++i) {
    EXPECT_EQ(lanes.status[i], alone.status[i]) << "instance " << i;
    EXPECT_EQ(lanes.stats[i].steps, alone.stats[i].steps) << "instance " << i;
    EXPECT_EQ(lanes.stats[i].rejected, alone.stats[i].rejected) << "instance " << i;
    EXPECT_EQ(lanes.stats[i].function_evaluations, alone.stats[i].function_evaluations) << "instance " << i;
    EXPECT_EQ(lanes.stats[i].jacobian_evaluations, alone.stats[i].jacobian_evaluations) << "instance " << i;
    EXPECT_EQ(lanes.stats[i].lu_factorizations, alone.stats[i].lu_factorizations) << "instance " << i;
  }
  std::size_t differing = 0;
  for (std::size_t i = 0; i < alone.values.size(); ++i)
    differing += same_bits(lanes.values[i], alone.values[i]) ? 0 : 1;
  EXPECT_EQ(differing, 0u) << "of " << alone.values.size() << " values";
  ASSERT_EQ(lanes.kpis.size(), alone.kpis.size());
  for (std::size_t i = 0; i < alone.kpis.size(); ++i)
    EXPECT_TRUE(same_bits(lanes.kpis[i], alone.kpis[i])) << "KPI " << i;
}

TEST(LaneRunner, EveryShippedTreeModelGivesTheOneAtATimeResultsBitForBit) {
  int taken = 0, taken_rn4 = 0;
  for (const std::string& file : shipped_model_files()) {
    SCOPED_TRACE(file);
    const Model model = load_model_file(file);
    const auto compiled = compile(model);
    if (!lanes_supported(*compiled, dopri5(1e-6, 1e-8))) continue;
    ++taken;
    // 11 instances: no lane count divides it.
    const Ensemble e = spread_first_parameter(model, *compiled, 11);
    const std::vector<double> times = output_grid(0.0, std::min(0.6, model.simulation.t_end), 0.02);
    RunSpec fixed = rk4(1e-3);  // the stiff models blow up at this h: their failures must match too
    fixed.max_steps = 20000;
    RunSpec adaptive = dopri5(1e-6, 1e-8);
    adaptive.max_steps = 20000;
    RunSpec rosenbrock = adaptive;
    rosenbrock.method = Method::rn4;
    std::vector<RunSpec> specs = {adaptive, fixed};
    if (lanes_supported(*compiled, rosenbrock)) {
      specs.push_back(rosenbrock);
      ++taken_rn4;
    }
    for (const RunSpec& spec : specs) {
      SCOPED_TRACE(spec.method == Method::rk4 ? "rk4" : spec.method == Method::rn4 ? "rn4" : "dopri5");
      const EnsembleResult alone = run_ensemble_cpu(*compiled, e, spec, times, 1, nullptr, true, 1);
      for (const int lanes : {2, 4, 8}) {
        SCOPED_TRACE(lanes);
        expect_same_run(run_ensemble_cpu(*compiled, e, spec, times, 2, nullptr, true, lanes), alone);
      }
    }
  }
  // The pendulums, the quarter cars, the active suspension, the chains, the free body (quaternion charts), the
  // cart-pole, the golden car: 13 when this test was written; RN4 on every one of them (the free body's and the
  // chains' quaternion charts mapped lane by lane).
  EXPECT_GE(taken, 12);
  EXPECT_EQ(taken_rn4, taken);
}

TEST(LaneRunner, TakesDopri5Rk4AndRn4OnTreeModelsWithoutBushingsOrTires) {
  const auto pendulum = compile(load_model_file(model_path("stiff_double_pendulum.json")));
  EXPECT_TRUE(lanes_supported(*pendulum, dopri5(1e-6, 1e-8)));
  EXPECT_TRUE(lanes_supported(*pendulum, rk4(1e-3)));
  RunSpec rn4 = dopri5(1e-6, 1e-8);
  rn4.method = Method::rn4;
  EXPECT_TRUE(lanes_supported(*pendulum, rn4));
  RunSpec ros2w = rn4;
  ros2w.method = Method::ros2w;
  EXPECT_FALSE(lanes_supported(*pendulum, ros2w));
  const auto free_body = compile(load_model_file(model_path("free_body.json")));
  EXPECT_TRUE(lanes_supported(*free_body, dopri5(1e-6, 1e-8)));
  EXPECT_TRUE(lanes_supported(*free_body, rn4));  // its quaternion chart mapped lane by lane
  const auto corner = compile(load_model_file(model_path("double_wishbone_corner.json")));
  EXPECT_FALSE(lanes_supported(*corner, dopri5(1e-6, 1e-8)));  // loops
  const auto full_car = compile(load_model_file(model_path("full_car.json")));
  EXPECT_FALSE(lanes_supported(*full_car, dopri5(1e-6, 1e-8)));  // tires
}

TEST(LaneRunner, AnInstanceThatFailsInAJointStepGetsItsOwnOutcomeAndItsMatesGoOn) {
  // Instance 5's bump is 1e300 m high: when the road point starts to rise the tire spring's force overflows in
  // the middle of a step that its three lane mates take with it.
  const Model model = load_model_file(model_path("quarter_car.json"));
  const auto compiled = compile(model);
  ParameterTable t;
  t.source = "generated";
  t.names = {"bump_height"};
  for (int i = 0; i < 9; ++i) t.rows.push_back({i == 5 ? 1e300 : 0.01 + 0.01 * i});
  const Ensemble e = build_ensemble(model, *compiled, 9, &t, {});
  const std::vector<double> times = output_grid(0.0, 1.0, 0.01);
  RunSpec rosenbrock = dopri5(1e-6, 1e-8);
  rosenbrock.method = Method::rn4;
  for (const RunSpec& spec : {dopri5(1e-6, 1e-8), rosenbrock}) {
    SCOPED_TRACE(spec.method == Method::rn4 ? "rn4" : "dopri5");
    const EnsembleResult alone = run_ensemble_cpu(*compiled, e, spec, times, 1, nullptr, true, 1);
    ASSERT_NE(alone.status[5], InstanceStatus::ok);
    for (int i = 0; i < 9; ++i)
      if (i != 5) ASSERT_EQ(alone.status[static_cast<std::size_t>(i)], InstanceStatus::ok) << i;
    expect_same_run(run_ensemble_cpu(*compiled, e, spec, times, 1, nullptr, true, 4), alone);
  }
}

TEST(LaneRunner, WithoutKeptSeriesTheKpisAreTheSame) {
  const Model model = load_model_file(model_path("quarter_car_road.json"));
  const auto compiled = compile(model);
  RunSpec spec = dopri5(1e-6, 1e-8);
  if (!lanes_supported(*compiled, spec)) GTEST_SKIP() << "quarter_car_road.json has a force without a lane form";
  const Ensemble e = spread_first_parameter(model, *compiled, 7);
  const std::vector<double> times = output_grid(0.0, 1.0, 0.01);
  const EnsembleResult alone = run_ensemble_cpu(*compiled, e, spec, times, 1, nullptr, false, 1);
  const EnsembleResult lanes = run_ensemble_cpu(*compiled, e, spec, times, 2, nullptr, false, 8);
  EXPECT_TRUE(lanes.values.empty());
  EXPECT_GT(alone.kpis.size(), 0u);
  expect_same_run(lanes, alone);
}

TEST(LaneRunner, RefusesALaneCountItDoesNotHave) {
  const auto pendulum = compile(load_model_file(model_path("stiff_double_pendulum.json")));
  const Model model = load_model_file(model_path("stiff_double_pendulum.json"));
  const Ensemble e = build_ensemble(model, *pendulum, 2, nullptr, {});
  EXPECT_THROW(run_ensemble_cpu(*pendulum, e, dopri5(1e-6, 1e-8), {0.0, 0.1}, 1, nullptr, true, 3),
               std::invalid_argument);
}

}  // namespace lane_runner_test
}  // namespace myriad
