// Rods on the fast path (seed 001 eqs. 18-19, kept exact): a four-bar whose coupler is a rod, i.e. a distance
// constraint between the crank and rocker tips with the coupler's mass lumped on them. The reduction method's
// accelerations and energies against the reference augmented system, and energy conservation under RK4.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dynamics/energy.hpp"
#include "loops/loop_support.hpp"
#include "model/model_loader.hpp"
#include "reference/reference_constrained.hpp"

namespace myriad::testing {
namespace loop_rod_test {

const char* const kRodFourBar = R"({
  "format": "myriad-model", "version": 1, "name": "rod_four_bar", "gravity": [0, -9.81, 0],
  "bodies": [
    {"name": "crank", "mass": 1.0, "center_of_mass": [0.5, 0, 0],
     "inertia": {"ixx": 1e-4, "iyy": 0.0833333333, "izz": 0.0833333333}},
    {"name": "rocker", "mass": 2.0, "center_of_mass": [1.0, 0, 0],
     "inertia": {"ixx": 1e-4, "iyy": 0.6666666667, "izz": 0.6666666667}}],
  "joints": [
    {"name": "crank_pivot", "type": "revolute", "parent": "ground", "child": "crank", "axis": [0, 0, 1],
     "position": [1.5707963267948966], "velocity": [1.0]},
    {"name": "rocker_pivot", "type": "revolute", "parent": "ground", "child": "rocker",
     "parent_frame": {"origin": [2, 0, 0]}, "axis": [0, 0, 1], "position": [1.42], "velocity": [0]}],
  "loops": [{"name": "coupler", "type": "rod", "body1": "crank", "point1": [1, 0, 0], "body2": "rocker",
             "point2": [2, 0, 0], "length": 2.5, "mass": 2.5}],
  "independent": [{"joint": "crank_pivot"}],
  "outputs": [{"name": "E", "type": "total_energy"}]
})";

TEST(LoopRods, ReductionMatchesTheReferenceAugmentedSystemWithLumpedInertia) {
  const Model model = load_model_text(kRodFourBar, "rod_four_bar.json");
  LoopInstance inst(model);
  ASSERT_EQ(inst.compiled->constraints.n_rods, 1);
  for (double crank : {1.5707963267948966, 0.3, -2.0}) {
    inst.q[0] = crank;
    inst.v[0] = 1.7;
    ASSERT_TRUE(inst.ode.initialize(0.0, inst.q.data(), inst.v.data(), inst.y.data()));
    const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(inst.ode.s.q, 2);
    const Eigen::VectorXd v = Eigen::Map<const Eigen::VectorXd>(inst.ode.s.v, 2);
    const reference::ConstrainedDynamics ref = reference::constrained_forward_dynamics(model, 0.0, q, v);
    ASSERT_EQ(ref.status, reference::ConstrainedDynamics::Status::ok);
    for (int i = 0; i < 2; ++i)
      EXPECT_NEAR(inst.ode.s.vdot[i], ref.vdot[i], 1e-10 * std::max(1.0, ref.vdot.cwiseAbs().maxCoeff()));
    const double k_fast = kinetic_energy(*inst.compiled, inst.constants.data(), inst.ode.s.tree);
    const double p_fast = potential_energy(*inst.compiled, inst.constants.data(), 0.0, inst.ode.s.q, inst.ode.s.tree);
    EXPECT_NEAR(k_fast, reference::constrained_kinetic_energy(model, q, v), 1e-12);
    EXPECT_NEAR(p_fast, reference::constrained_potential_energy(model, 0.0, q), 1e-12);
  }
}

TEST(LoopRods, RodFourBarConservesEnergyUnderRk4) {
  const Model model = load_model_text(kRodFourBar, "rod_four_bar.json");
  const std::vector<double> times = output_grid(0.0, 5.0, 0.01);
  const EnsembleResult r = run_model(model, rk4(1e-3), times);
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  double drift = 0.0;
  for (int k = 0; k < r.n_times; ++k)
    drift = std::max(drift, std::fabs(r.value(0, k, 0) - r.value(0, 0, 0)) / std::fabs(r.value(0, 0, 0)));
  EXPECT_LE(drift, 1e-7);
}

}  // namespace loop_rod_test
}  // namespace myriad::testing
