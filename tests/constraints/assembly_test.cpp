// Partitioning (seed 000 eq. 6), assembly (Newton on Phi = 0 with the independent coordinates held) and
// velocity analysis: every status on a small model built in code, and every shipped loop model assembled to
// 1e-12.
#include "constraints/assembly.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "constraints/constraint_equations.hpp"
#include "constraints/loop_test_models.hpp"
#include "reference/reference_dynamics.hpp"

namespace myriad::constraints {
namespace assembly_test {

using Eigen::MatrixXd;
using Eigen::VectorXd;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The planar four-bar of models/loops/four_bar.json with its closure replaced by `loop_json` and extra
// top-level text.
std::string four_bar_text(const std::string& loop_json, const std::string& extra = "") {
  return R"({"format": "myriad-model", "version": 1, "gravity": [0, -9.81, 0],
    "bodies": [
      {"name": "crank", "mass": 1, "center_of_mass": [0.5, 0, 0], "inertia": {"ixx": 1e-4, "iyy": 0.0833, "izz": 0.0833}},
      {"name": "coupler", "mass": 2.5, "center_of_mass": [1.25, 0, 0], "inertia": {"ixx": 1e-4, "iyy": 1.3, "izz": 1.3}},
      {"name": "rocker", "mass": 2, "center_of_mass": [1, 0, 0], "inertia": {"ixx": 1e-4, "iyy": 0.667, "izz": 0.667}}],
    "joints": [
      {"name": "crank_pivot", "type": "revolute", "parent": "ground", "child": "crank", "axis": [0, 0, 1],
       "position": [1.5707963267948966]},
      {"name": "crank_coupler", "type": "revolute", "parent": "crank", "child": "coupler", "axis": [0, 0, 1],
       "parent_frame": {"origin": [1, 0, 0]}, "position": [-1.17]},
      {"name": "rocker_pivot", "type": "revolute", "parent": "ground", "child": "rocker", "axis": [0, 0, 1],
       "parent_frame": {"origin": [2, 0, 0]}, "position": [1.42]}],
    "loops": [)" +
         loop_json + "]" + extra + "}";
}

const char* const kCutSpherical = R"({"name": "c", "type": "cut_spherical", "body1": "coupler",
  "frame1": {"origin": [2.5, 0, 0]}, "body2": "rocker", "frame2": {"origin": [2, 0, 0]}})";
const char* const kCutRevolute = R"({"name": "c", "type": "cut_revolute", "body1": "coupler",
  "frame1": {"origin": [2.5, 0, 0]}, "body2": "rocker", "frame2": {"origin": [2, 0, 0]}, "axis": [0, 0, 1]})";
const char* const kCutPlanar = R"({"name": "c", "type": "cut_planar_revolute", "body1": "coupler",
  "frame1": {"origin": [2.5, 0, 0]}, "body2": "rocker", "frame2": {"origin": [2, 0, 0]}, "axis": [0, 0, 1]})";

double max_abs(const VectorXd& x) { return x.size() ? x.cwiseAbs().maxCoeff() : 0.0; }

// ---- partitioning ----

TEST(AssemblyPartition, gauss_jordan_takes_the_largest_pivots) {
  MatrixXd G(2, 3);
  G << 0.1, 5.0, 0.0,  //
      0.2, 0.0, 1.0;
  const Partition p = partition_coordinates(G);
  EXPECT_EQ(p.rank, 2);
  EXPECT_EQ(p.dependent, (std::vector<int>{1, 2}));
  EXPECT_EQ(p.independent, (std::vector<int>{0}));
}

TEST(AssemblyPartition, numerical_rank_of_dependent_rows) {
  MatrixXd G(3, 4);
  G << 1, 2, 3, 4,  //
      2, 4, 6, 8,   //
      0, 1, 0, 1;
  const Partition p = partition_coordinates(G);
  EXPECT_EQ(p.rank, 2);
  EXPECT_EQ(p.dependent.size() + p.independent.size(), 4u);
  EXPECT_EQ(partition_coordinates(MatrixXd::Zero(2, 3)).rank, 0);
  EXPECT_EQ(partition_coordinates(MatrixXd(0, 3)).independent.size(), 3u);
}

// ---- statuses ----

TEST(AssemblyStatus, ok_four_bar_to_1e_12_with_consistent_velocities) {
  const Model model = testing::literal_model_text(
      four_bar_text(kCutPlanar, R"(, "independent": [{"joint": "crank_pivot"}])"));
  VectorXd v0 = reference::initial_v(model);
  v0[0] = 1.3;  // crank rate
  const AssemblyResult r = assemble(model, 0.0, reference::initial_q(model), v0);
  ASSERT_EQ(r.status, AssemblyStatus::ok) << r.message;
  EXPECT_LE(r.residual, 1e-12);
  EXPECT_LE(max_abs(constraint_residual(model, 0.0, r.q)), 1e-12);
  EXPECT_EQ(r.independent, (std::vector<int>{0}));
  EXPECT_DOUBLE_EQ(r.q[0], M_PI / 2);  // held
  EXPECT_DOUBLE_EQ(r.v[0], 1.3);
  const ConstraintEvaluation c = evaluate_constraints(model, 0.0, r.q, r.v);
  EXPECT_LE(max_abs(c.G * r.v + c.phi_t), 1e-12);
  // Geometry: the coupler tip lands on the rocker tip, 2.5 from the crank tip and 2 from the rocker pivot.
  const double x = std::cos(r.q[2]) * 2 + 2, y = std::sin(r.q[2]) * 2;
  EXPECT_NEAR(std::hypot(x - 0.0, y - 1.0), 2.5, 1e-12);
  EXPECT_GT(r.condition, 0.0);
}

TEST(AssemblyStatus, pivoting_chooses_the_independent_coordinate_when_none_is_named) {
  const Model model = testing::literal_model_text(four_bar_text(kCutPlanar));
  const AssemblyResult r = assemble(model);
  ASSERT_EQ(r.status, AssemblyStatus::ok) << r.message;
  EXPECT_EQ(r.independent.size(), 1u);
  EXPECT_EQ(r.dependent.size(), 2u);
  EXPECT_LE(r.residual, 1e-12);
}

TEST(AssemblyStatus, not_converged_reports_the_residual) {
  const Model model = testing::literal_model_text(
      four_bar_text(kCutPlanar, R"(, "independent": [{"joint": "crank_pivot"}])"));
  AssemblyOptions options;
  options.max_iterations = 1;
  const AssemblyResult r = assemble(model, options);
  EXPECT_EQ(r.status, AssemblyStatus::not_converged);
  EXPECT_GT(r.residual, 1e-12);
  EXPECT_TRUE(contains(r.message, "Newton did not converge in 1 iterations: max |Phi| = ")) << r.message;
  EXPECT_STREQ(assembly_status_name(r.status), "not_converged");
}

TEST(AssemblyStatus, not_converged_when_the_loop_cannot_close) {
  // A 1 m pendulum tip can never be 0.5 m from a ground point 3 m from the pivot.
  const Model model = testing::literal_model_text(R"({"format": "myriad-model", "version": 1,
    "bodies": [{"name": "p", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "j", "type": "revolute", "parent": "ground", "child": "p", "axis": [0, 0, 1],
                "position": [0.4]}],
    "loops": [{"name": "d", "type": "distance", "body1": "p", "point1": [1, 0, 0], "body2": "ground",
               "point2": [3, 0, 0], "length": 0.5}]})");
  const AssemblyResult r = assemble(model);
  EXPECT_TRUE(r.status == AssemblyStatus::not_converged || r.status == AssemblyStatus::singular) << r.message;
  EXPECT_GE(r.residual, 1.0 - 1e-9);  // the closest the tip gets is 2 m, 1.5 m too long
}

TEST(AssemblyStatus, singular_at_the_initial_guess) {
  // Pendulum tip 1 m from a ground point 2 m out: the distance is smallest (= 1) at q = 0, where dPhi/dq = 0.
  const Model model = testing::literal_model_text(R"({"format": "myriad-model", "version": 1,
    "bodies": [{"name": "p", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "j", "type": "revolute", "parent": "ground", "child": "p", "axis": [0, 0, 1]}],
    "loops": [{"name": "d", "type": "distance", "body1": "p", "point1": [1, 0, 0], "body2": "ground",
               "point2": [2, 0, 0], "length": 1}]})");
  const AssemblyResult r = assemble(model);
  EXPECT_EQ(r.status, AssemblyStatus::singular);
  EXPECT_TRUE(contains(r.message, "singular at the initial guess (rank 0 of 1")) << r.message;
}

TEST(AssemblyStatus, singular_phi_u_for_a_bad_choice_of_independent_coordinate) {
  // Two-link arm; the distance from the shoulder to the tip depends on the elbow only, so with the elbow
  // named independent Phi_u (the shoulder's column) vanishes.
  const Model model = testing::literal_model_text(R"({"format": "myriad-model", "version": 1,
    "bodies": [{"name": "a", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}},
               {"name": "b", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "shoulder", "type": "revolute", "parent": "ground", "child": "a", "axis": [0, 0, 1]},
               {"name": "elbow", "type": "revolute", "parent": "a", "child": "b", "axis": [0, 0, 1],
                "parent_frame": {"origin": [1, 0, 0]}, "position": [1.0]}],
    "loops": [{"name": "d", "type": "distance", "body1": "b", "point1": [1, 0, 0], "body2": "ground",
               "length": 1.2}],
    "independent": [{"joint": "elbow"}]})");
  const AssemblyResult r = assemble(model);
  EXPECT_EQ(r.status, AssemblyStatus::singular);
  EXPECT_TRUE(contains(r.message, "Phi_u is singular (rank 0 of 1) at Newton iteration 0")) << r.message;
}

TEST(AssemblyStatus, redundant_planar_four_bar_closed_by_a_cut_spherical_joint) {
  const Model model = testing::literal_model_text(four_bar_text(kCutSpherical));
  const AssemblyResult r = assemble(model);
  EXPECT_EQ(r.status, AssemblyStatus::redundant);
  EXPECT_EQ(r.constraints, 3);
  EXPECT_EQ(r.rank, 2);
  EXPECT_TRUE(
      contains(r.message, "redundant constraints: 3 constraint equations but the Jacobian has rank 2"))
      << r.message;
}

TEST(AssemblyStatus, too_many_constraints_planar_four_bar_closed_by_a_cut_revolute_joint) {
  const Model model = testing::literal_model_text(four_bar_text(kCutRevolute));
  const AssemblyResult r = assemble(model);
  EXPECT_EQ(r.status, AssemblyStatus::too_many_constraints);
  EXPECT_EQ(r.rank, 2);
  EXPECT_TRUE(contains(r.message, "5 constraint equations for 3 velocity coordinates (rank 2)")) << r.message;
}

TEST(AssemblyStatus, bad_independent_count) {
  const Model model = testing::literal_model_text(
      four_bar_text(kCutPlanar, R"(, "independent": [{"joint": "crank_pivot"}, {"joint": "rocker_pivot"}])"));
  const AssemblyResult r = assemble(model);
  EXPECT_EQ(r.status, AssemblyStatus::bad_independent);
  EXPECT_TRUE(contains(r.message, "names 2 independent coordinates")) << r.message;
}

// ---- the shipped loop models ----

TEST(AssemblyModels, four_bar_assembles) {
  const Model model = testing::literal_loop_model("four_bar");
  const AssemblyResult r = assemble(model);
  ASSERT_EQ(r.status, AssemblyStatus::ok) << r.message;
  EXPECT_LE(max_abs(constraint_residual(model, 0.0, r.q)), 1e-12);
  EXPECT_EQ(r.constraints, 2);
}

TEST(AssemblyModels, slider_crank_assembles_with_its_driver) {
  const Model model = testing::literal_loop_model("slider_crank");
  for (double t : {0.0, 0.1, 0.37}) {
    VectorXd guess = reference::initial_q(model);
    const AssemblyResult r = assemble(model, t, guess, reference::initial_v(model));
    ASSERT_EQ(r.status, AssemblyStatus::ok) << "t = " << t << ": " << r.message;
    EXPECT_LE(max_abs(constraint_residual(model, t, r.q)), 1e-12);
    EXPECT_TRUE(r.independent.empty());  // zero degrees of freedom
    EXPECT_NEAR(r.q[0], 2.0 * M_PI * t, 1e-12);
    EXPECT_NEAR(r.v[0], 2.0 * M_PI, 1e-12);
    const ConstraintEvaluation c = evaluate_constraints(model, t, r.q, r.v);
    EXPECT_LE(max_abs(c.G * r.v + c.phi_t), 1e-12);
    // The slider stays on the x axis, 0.3 m from the crank pin at (0, 0.1 + 0.08 cos, 0.12 - 0.08 sin).
    const double x = r.q[1], angle = r.q[0];
    const double py = 0.1 + 0.08 * std::cos(angle), pz = 0.12 - 0.08 * std::sin(angle);
    EXPECT_NEAR(x * x + py * py + pz * pz, 0.09, 1e-12);
  }
}

// The seven angles of the test set's consistent initial values (Hairer & Wanner; problem 'andrews').
const double kAndrewsAngles[7] = {-0.0617138900142764496358948458001, 0.0,
                                  0.455279819163070380255912382449,   0.222668390165885884674473185609,
                                  0.487364979543842550225598953530,   -0.222668390165885884674473185609,
                                  1.23054744454982119249735015568};
const char* const kAndrewsJoints[7] = {"beta", "theta", "gamma", "phi", "delta", "omega", "epsilon"};

TEST(AssemblyModels, andrews_geometry_closes_at_the_test_set_initial_angles) {
  const Model model = testing::literal_loop_model("andrews_squeezer");
  VectorXd q(7);
  for (int k = 0; k < 7; ++k) q[testing::joint_index(model, kAndrewsJoints[k])] = kAndrewsAngles[k];
  EXPECT_LE(max_abs(constraint_residual(model, 0.0, q)), 1e-15);
}

TEST(AssemblyModels, andrews_assembles_to_the_test_set_angles_from_a_rough_guess) {
  const Model model = testing::literal_loop_model("andrews_squeezer");
  VectorXd guess = reference::initial_q(model);
  for (int k = 1; k < 7; ++k) {
    const int j = testing::joint_index(model, kAndrewsJoints[k]);
    guess[j] = std::round(guess[j] * 20.0) / 20.0 + 0.02;  // off by up to 0.045 rad
  }
  const AssemblyResult r = assemble(model, 0.0, guess, reference::initial_v(model));
  ASSERT_EQ(r.status, AssemblyStatus::ok) << r.message;
  EXPECT_LE(r.residual, 1e-12);
  ASSERT_EQ(r.independent.size(), 1u);
  EXPECT_EQ(r.independent[0], testing::joint_index(model, "beta"));
  for (int k = 0; k < 7; ++k)
    EXPECT_NEAR(r.q[testing::joint_index(model, kAndrewsJoints[k])], kAndrewsAngles[k], 1e-10)
        << kAndrewsJoints[k];
  EXPECT_LE(max_abs(r.v), 1e-15);  // at rest
}

}  // namespace assembly_test
}  // namespace myriad::constraints
