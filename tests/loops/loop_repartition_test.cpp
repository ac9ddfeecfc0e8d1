// Re-choosing the coordinate partition during a run (seed 000 sec. 4): a four-bar whose independent coordinate
// is left to full pivoting starts with the coupler angle independent, which cannot parametrize the whole
// crank revolution; the partition check moves to better coordinates whenever the condition of Phi_u grows by
// more than 25%, and the motion is the one of the four-bar with its crank named independent.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "integrators/dopri5.hpp"
#include "loops/loop_support.hpp"

namespace myriad::testing {
namespace loop_repartition_test {

struct NoOutput {
  MYRIAD_HD void operator()(int, double, const double*) {}
};

// Four-bar at its assembled initial state, with or without the crank named independent.
Model four_bar(bool named) {
  Model model = loop_model_with_state_outputs("loops/four_bar.json");
  if (!named) {
    model.independent.clear();
    model.joints[1].initial_position[0].value = -1.16920692999064;  // the assembled values, so that both
    model.joints[2].initial_position[0].value = 1.41967061050251;   // variants start from the same state
  }
  return model;
}

// Runs DOPRI5 (rtol = atol = 1e-10) to t_end; returns the full q at the end.
std::vector<double> run(LoopInstance& inst, double t_end, InstanceStatus& status) {
  EXPECT_TRUE(inst.ode.initialize(0.0, inst.q.data(), inst.v.data(), inst.y.data()));
  std::vector<double> work(static_cast<size_t>(dopri5_workspace_size(inst.ode.dimension())));
  StepControl control;
  control.rtol = control.atol = 1e-10;
  IntegratorStats stats;
  NoOutput observer;
  const double times[1] = {t_end};
  status = integrate_dopri5(inst.ode, 0.0, inst.y.data(), times, 1, observer, control, work.data(), stats);
  EXPECT_TRUE(inst.ode.expand(t_end, inst.y.data()));
  return std::vector<double>(inst.ode.s.q, inst.ode.s.q + inst.compiled->nv);
}

TEST(LoopPartition, FourBarRepartitionsAndFollowsTheNamedPartition) {
  LoopInstance named(four_bar(true)), chosen(four_bar(false));
  ASSERT_EQ(chosen.compiled->constraints.named_independent, 0);
  EXPECT_EQ(chosen.compiled->constraints.independent[0], 1);  // full pivoting picks the coupler angle
  InstanceStatus a = InstanceStatus::ok, b = InstanceStatus::ok;
  const std::vector<double> q_named = run(named, 4.0, a), q_chosen = run(chosen, 4.0, b);
  ASSERT_EQ(a, InstanceStatus::ok);
  ASSERT_EQ(b, InstanceStatus::ok);
  EXPECT_EQ(named.ode.repartitions, 0);  // named coordinates are kept
  EXPECT_GE(chosen.ode.repartitions, 1);
  RecordProperty("repartitions", chosen.ode.repartitions);
  for (size_t i = 0; i < q_named.size(); ++i) EXPECT_NEAR(q_chosen[i], q_named[i], 1e-6) << "coordinate " << i;
}

}  // namespace loop_repartition_test
}  // namespace myriad::testing
