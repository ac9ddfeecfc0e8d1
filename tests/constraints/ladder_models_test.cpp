// The spatial ladders of models/loops/ladder/ (our variant of seed 004 sec. 4.3) and the redundant parallel
// five-bar of models/loops/five_bar.json (seed 004 sec. 4.2): the seed's counts, assembly with full rank to
// the known solution, and the reference augmented-system accelerations (seed 000 eq. 3). The ladders'
// inertias are chosen so that their independent coordinates move exactly as the 2-DOF spatial pendulum
// models/loops/ladder/spatial_pendulum_2dof.json (models/loops/README.md says why); these tests hold them to
// it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "constraints/assembly.hpp"
#include "constraints/constraint_equations.hpp"
#include "constraints/loop_test_models.hpp"
#include "reference/reference_constrained.hpp"
#include "reference/reference_dynamics.hpp"

namespace myriad::constraints {
namespace ladder_models_test {

using Eigen::Vector3d;
using Eigen::VectorXd;

double max_abs(const VectorXd& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; }

Model ladder(int loops) { return testing::literal_loop_model("ladder/ladder_L" + std::to_string(loops)); }

// The loop counts the tests below assemble and integrate; the generator writes more (up to 256, whose dense
// assembly takes minutes).
const int kTestedLoops[] = {1, 2, 4, 16};

// A state of the equivalent pendulum: the independent coordinates hooke_0[0], hooke_0[1] and their rates.
struct PendulumState {
  double q1, q2, u1, u2;
};

// The ladder's coordinates (or rates) in the parallelogram motion: every pendulum's Hooke joint at (a, b),
// every rung's at (b, 0) (the rung turns about x by the pendulums' first angle only). For rates pass (u1,
// u2): every joint here is universal, so v is the rate of q.
VectorXd parallelogram(const Model& model, double a, double b) {
  const reference::CoordinateLayout layout = reference::coordinate_layout(model);
  VectorXd x(layout.nq);
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const bool rung = model.joints[j].name.rfind("rung_", 0) == 0;
    x[layout.q_index[j]] = rung ? b : a;
    x[layout.q_index[j] + 1] = rung ? 0.0 : b;
  }
  return x;
}

TEST(LadderModels, every_generated_file_has_the_seed_004_counts) {
  // N = 2L + 1 bodies, n = 4L + 2 coordinates, m = 4L constraint equations, 2 named independent coordinates.
  for (int loops : {1, 2, 4, 8, 16, 32, 64, 128, 256}) {
    const Model model = ladder(loops);
    EXPECT_EQ(static_cast<int>(model.bodies.size()), 2 * loops + 1) << loops;
    EXPECT_EQ(reference::coordinate_layout(model).nv, 4 * loops + 2) << loops;
    EXPECT_EQ(constraint_count(model), 4 * loops) << loops;
    EXPECT_EQ(model.independent.size(), 2u) << loops;
  }
  EXPECT_EQ(constraint_count(testing::literal_loop_model("ladder/spatial_pendulum_2dof")), 0);
}

TEST(LadderModels, assembles_to_the_parallelogram_solution_with_full_rank) {
  for (int loops : kTestedLoops) {
    const Model model = ladder(loops);
    const AssemblyResult r = assemble(model);
    ASSERT_EQ(r.status, AssemblyStatus::ok) << loops << ": " << r.message;
    EXPECT_EQ(r.constraints, 4 * loops);
    EXPECT_EQ(r.rank, 4 * loops);
    EXPECT_LE(r.residual, 1e-12);
    EXPECT_LE(max_abs(constraint_residual(model, 0.0, r.q)), 1e-12);
    EXPECT_EQ(r.independent, (std::vector<int>{0, 1}));
    EXPECT_LE(max_abs(r.q - parallelogram(model, 0.4, 0.25)), 1e-10) << loops;  // parameters q1, q2
    EXPECT_LE(max_abs(r.v - parallelogram(model, 0.0, 1.0)), 1e-10) << loops;   // parameters u1, u2
    const ConstraintEvaluation c = evaluate_constraints(model, 0.0, r.q, r.v);
    EXPECT_LE(max_abs(c.G * r.v + c.phi_t), 1e-12);
    EXPECT_LT(r.condition, 1e3) << loops;
  }
}

TEST(LadderModels, independent_accelerations_equal_the_spatial_pendulum) {
  const Model pendulum = testing::literal_loop_model("ladder/spatial_pendulum_2dof");
  const std::vector<PendulumState> states = {
      {0.4, 0.25, 0.0, 1.0}, {-0.7, 0.5, 1.5, -0.8}, {1.1, -0.9, -2.0, 0.3}, {0.2, 1.2, 0.7, 2.5}};
  for (int loops : kTestedLoops) {
    const Model model = ladder(loops);
    for (const PendulumState& s : states) {
      // Independent coordinates at the state, the dependent ones up to 0.03 rad off the parallelogram:
      // assembly has to find it.
      const VectorXd exact_q = parallelogram(model, s.q1, s.q2), exact_v = parallelogram(model, s.u1, s.u2);
      VectorXd guess = exact_q, v_guess = VectorXd::Zero(exact_v.size());
      for (int k = 2; k < guess.size(); ++k) guess[k] += 0.03 * std::sin(1.7 * k);
      v_guess.head(2) = exact_v.head(2);
      const AssemblyResult r = assemble(model, 0.0, guess, v_guess);
      ASSERT_EQ(r.status, AssemblyStatus::ok) << loops << ": " << r.message;
      EXPECT_EQ(r.rank, 4 * loops);
      EXPECT_LE(max_abs(r.q - exact_q), 1e-10) << loops << " at q1 = " << s.q1;
      EXPECT_LE(max_abs(r.v - exact_v), 1e-10) << loops << " at q1 = " << s.q1;

      const reference::ConstrainedDynamics d = reference::constrained_forward_dynamics(model, 0.0, r.q, r.v);
      ASSERT_EQ(d.status, reference::ConstrainedDynamics::Status::ok) << d.message;
      const Eigen::Vector2d pq(s.q1, s.q2), pv(s.u1, s.u2);
      const VectorXd expected = reference::forward_dynamics(pendulum, 0.0, pq, pv);
      EXPECT_NEAR(d.vdot[0], expected[0], 1e-9) << loops << " at q1 = " << s.q1;
      EXPECT_NEAR(d.vdot[1], expected[1], 1e-9) << loops << " at q1 = " << s.q1;
      // Every pendulum and rung follows: the accelerations of the parallelogram motion itself.
      EXPECT_LE(max_abs(d.vdot - parallelogram(model, expected[0], expected[1])), 1e-9) << loops;
      const ConstraintEvaluation c = evaluate_constraints(model, 0.0, r.q, r.v);
      EXPECT_LE(max_abs(c.G * d.vdot - c.gamma), 1e-9);
      // The energies agree too (the rungs' centres of mass move with the tips, at the tips' height); at the
      // exact state, so that the assembly tolerance does not enter.
      const double energy = reference::constrained_kinetic_energy(model, exact_q, exact_v) +
                            reference::constrained_potential_energy(model, 0.0, exact_q);
      EXPECT_NEAR(
          energy,
          reference::kinetic_energy(pendulum, pq, pv) + reference::potential_energy(pendulum, 0.0, pq), 1e-12)
          << loops;
    }
  }
}

TEST(LadderModels, translating_rungs_would_leave_a_zero_row) {
  // Why the rungs turn about x instead of translating (models/loops/README.md): with rung axes (-y, -x) at
  // coordinates (q2, q1) the rung keeps its orientation, every joint axis of the loop lies in the plane of x
  // and P's y, and the cut universal's axis condition x . y_P = 0 has an identically zero gradient on the
  // whole parallelogram motion. Assembly reports the singular Jacobian (rank 3 of 4).
  const Model model = testing::literal_model_text(R"({"format": "myriad-model", "version": 1,
    "gravity": [0, 0, -9.81],
    "bodies": [
      {"name": "pendulum_0", "mass": 0.3, "center_of_mass": [0, 0, -1], "inertia": {"ixx": 0.01, "iyy": 0.01, "izz": 0.01}},
      {"name": "rung_1", "mass": 0.3, "center_of_mass": [0.25, 0, 0], "inertia": {"ixx": 1e-5, "iyy": 0.007, "izz": 0.007}},
      {"name": "pendulum_1", "mass": 0.3, "center_of_mass": [0, 0, -1], "inertia": {"ixx": 0.01, "iyy": 0.01, "izz": 0.01}}],
    "joints": [
      {"name": "hooke_0", "type": "universal", "parent": "ground", "child": "pendulum_0", "axis": [1, 0, 0],
       "axis2": [0, 1, 0], "position": [0.4, 0.25]},
      {"name": "rung_hooke_1", "type": "universal", "parent": "pendulum_0", "child": "rung_1",
       "parent_frame": {"origin": [0, 0, -1]}, "axis": [0, -1, 0], "axis2": [-1, 0, 0], "position": [0.25, 0.4]},
      {"name": "hooke_1", "type": "universal", "parent": "ground", "child": "pendulum_1",
       "parent_frame": {"origin": [0.5, 0, 0]}, "axis": [1, 0, 0], "axis2": [0, 1, 0], "position": [0.4, 0.25]}],
    "loops": [{"name": "loop_1", "type": "cut_universal", "body1": "rung_1", "frame1": {"origin": [0.5, 0, 0]},
               "body2": "pendulum_1", "frame2": {"origin": [0, 0, -1]}, "axis": [1, 0, 0], "axis2": [0, 1, 0]}],
    "independent": [{"joint": "hooke_0", "index": 0}, {"joint": "hooke_0", "index": 1}]})");
  const VectorXd q = reference::initial_q(model);
  const ConstraintEvaluation c = evaluate_constraints(model, 0.0, q, reference::initial_v(model));
  EXPECT_LE(max_abs(c.phi), 1e-15);                   // the parallelogram closes the loop...
  EXPECT_LE(max_abs(c.G.row(3).transpose()), 1e-15);  // ...but the axis condition has no gradient there
  const AssemblyResult r = assemble(model);
  EXPECT_EQ(r.status, AssemblyStatus::singular) << r.message;
  EXPECT_EQ(r.rank, 3);
}

// ---- five-bar ----

// World position of the point p_BQ_B on `body` at q.
Vector3d point_position(const Model& model, const VectorXd& q, const std::string& body,
                        const Vector3d& p_BQ_B) {
  for (size_t b = 0; b < model.bodies.size(); ++b)
    if (model.bodies[b].name == body) {
      const reference::BodyKinematics k =
          reference::body_kinematics(model, q, VectorXd::Zero(reference::coordinate_layout(model).nv))[b];
      return k.p_WBo + k.R_WB * p_BQ_B;
    }
  ADD_FAILURE() << "no body " << body;
  return Vector3d::Zero();
}

TEST(FiveBarModel, assembles_well_conditioned_with_rank_4) {
  const Model model = testing::literal_loop_model("five_bar");
  const AssemblyResult r = assemble(model);
  ASSERT_EQ(r.status, AssemblyStatus::ok) << r.message;
  EXPECT_EQ(r.constraints, 4);
  EXPECT_EQ(r.rank, 4);
  EXPECT_LE(r.residual, 1e-12);
  EXPECT_GT(r.condition, 0.0);
  EXPECT_LT(r.condition, 1e3);
  const int a = testing::joint_index(model, "a_pivot"), e = testing::joint_index(model, "e_pivot");
  EXPECT_EQ(r.independent, (std::vector<int>{a, e}));
  EXPECT_DOUBLE_EQ(r.q[a], 2.0536);  // parameters theta_a, theta_e: held
  EXPECT_DOUBLE_EQ(r.q[e], 1.288);
  // The three distal tips meet at the end effector.
  const Vector3d tip(0.35, 0, 0);
  const Vector3d p_a = point_position(model, r.q, "a_distal", tip);
  EXPECT_LE((point_position(model, r.q, "e_distal", tip) - p_a).norm(), 1e-12);
  EXPECT_LE((point_position(model, r.q, "c_distal", tip) - p_a).norm(), 1e-12);
}

TEST(FiveBarModel, reference_accelerations_satisfy_the_acceleration_constraints) {
  const Model model = testing::literal_loop_model("five_bar");
  const AssemblyResult at_rest = assemble(model);
  ASSERT_EQ(at_rest.status, AssemblyStatus::ok) << at_rest.message;
  VectorXd moving_v = VectorXd::Zero(at_rest.v.size());  // both independent angles turning
  moving_v[at_rest.independent[0]] = 1.0;
  moving_v[at_rest.independent[1]] = -0.7;
  const AssemblyResult moving = assemble(model, 0.0, at_rest.q, moving_v);
  ASSERT_EQ(moving.status, AssemblyStatus::ok) << moving.message;
  for (const AssemblyResult* r : {&at_rest, &moving}) {
    const reference::ConstrainedDynamics d = reference::constrained_forward_dynamics(model, 0.0, r->q, r->v);
    ASSERT_EQ(d.status, reference::ConstrainedDynamics::Status::ok) << d.message;
    EXPECT_TRUE(d.vdot.allFinite());
    EXPECT_TRUE(d.lambda.allFinite());
    const ConstraintEvaluation c = evaluate_constraints(model, 0.0, r->q, r->v);
    EXPECT_LE(max_abs(c.G * d.vdot - c.gamma), 1e-9);
    EXPECT_GT(max_abs(d.vdot), 1.0);  // released 0.15 rad off the springs' rest angle: it does move
  }
}

}  // namespace ladder_models_test
}  // namespace myriad::constraints
