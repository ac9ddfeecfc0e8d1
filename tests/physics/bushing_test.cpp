// Bushings (issue 17, item 2; dynamics/bushing.hpp): a free body held at its centre of mass by one bushing to
// ground. Small deflections give the diagonal stiffness back (translational and rotational, fast path and
// reference); an undamped swing through a rotation of 1 rad with an anisotropic rotational stiffness keeps its
// energy (which needs the moment J_r(theta)^-1 K theta: K theta alone does work at large angles); damping only
// takes energy out; bad bushings are refused by name. models/engine_mount.json joins every cross-path test.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "dynamics/articulated_body.hpp"
#include "model/refusal_support.hpp"
#include "reference/reference_dynamics.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace bushing_test {

using namespace testing;

constexpr double kMass = 10.0, kIxx = 0.2, kIyy = 0.5, kIzz = 0.7;

// position: x y z qw qx qy qz; velocity: vx vy vz wx wy wz (linear first, body axes), as the free joint's.
std::string held_body(const std::string& position, const std::string& velocity, const std::string& damping) {
  return R"({"format": "myriad-model", "version": 1, "name": "held", "gravity": [0, 0, 0],
    "bodies": [{"name": "b", "mass": 10, "center_of_mass": [0, 0, 0], "inertia": {"ixx": 0.2, "iyy": 0.5, "izz": 0.7}}],
    "joints": [{"name": "free", "type": "free", "parent": "ground", "child": "b", "position": )" + position +
         R"(, "velocity": )" + velocity + R"(}],
    "forces": [{"name": "mount", "type": "bushing", "body1": "ground", "frame1": {"origin": [0, 0, 1]}, "body2": "b",
                "stiffness": [2000, 3000, 5000, 30, 80, 150], "damping": )" + damping + R"(}],
    "outputs": [{"name": "energy", "type": "total_energy"}, {"name": "qw", "type": "body_orientation", "body": "b", "component": "qw"}]})";
}

// Accelerations at a state on the fast path and the reference.
Eigen::VectorXd accelerations(const Model& model, bool fast) {
  const Instance inst(model);
  Eigen::VectorXd q(7), v(6);
  for (int i = 0; i < 7; ++i) q[i] = inst.q[static_cast<size_t>(i)];
  for (int i = 0; i < 6; ++i) v[i] = inst.v[static_cast<size_t>(i)];
  if (!fast) return reference::forward_dynamics(inst.model, 0.0, q, v);
  Instance scratch(inst.model);
  std::vector<double> qq(inst.q), vv(inst.v), a(6);
  EXPECT_TRUE(forward_dynamics(*inst.compiled, inst.k(), 0.0, qq.data(), vv.data(), scratch.w, a.data()));
  return Eigen::Map<Eigen::VectorXd>(a.data(), 6);
}

TEST(Bushing, SmallDeflectionsGiveTheDiagonalStiffnessBack) {
  // 1 mm along x and y, 1e-5 rad about y (quaternion w = cos(theta/2), y = sin(theta/2)).
  const double h = 0.5e-5;
  const Model model = load_model_text(
      held_body("[0.001, -0.001, 1, " + std::to_string(std::cos(h)) + ", 0, " + std::to_string(std::sin(h)) + ", 0]",
                "[0, 0, 0, 0, 0, 0]", "[0, 0, 0, 0, 0, 0]"),
      "held.json");
  for (bool fast : {true, false}) {
    const Eigen::VectorXd a = accelerations(model, fast);
    // Angular acceleration about y (body axes = world axes here up to 1e-5): -k_ry theta / I_yy, within what the
    // translational force's moment arm (the tilt) adds.
    EXPECT_NEAR(a[4], -80.0 * 2 * h / kIyy, 1e-6) << (fast ? "fast" : "reference");
    EXPECT_NEAR(a[3], 0.0, 1e-9);
    EXPECT_NEAR(a[5], 0.0, 1e-9);
    // Linear: -k d / m, within the coupling of the 1e-5 rad tilt.
    EXPECT_NEAR(a[0], -2000.0 * 0.001 / kMass, 1e-5);
    EXPECT_NEAR(a[1], 3000.0 * 0.001 / kMass, 1e-5);
  }
  EXPECT_NEAR((accelerations(model, true) - accelerations(model, false)).norm(), 0.0, 1e-12);
}

// Released at rest rotated 1 rad about (1, 2, 3) and shifted, spinning: the energy stays what it was.
TEST(Bushing, AnUndampedLargeSwingKeepsItsEnergy) {
  const double angle = 1.0, n = std::sqrt(14.0);
  const double c = std::cos(angle / 2), s = std::sin(angle / 2) / n;
  const std::string position = "[0.02, -0.01, 1.03, " + std::to_string(c) + ", " + std::to_string(s) + ", " +
                               std::to_string(2 * s) + ", " + std::to_string(3 * s) + "]";
  const Model model = load_model_text(held_body(position, "[0.1, 0, 0, 3, -2, 5]", "[0, 0, 0, 0, 0, 0]"), "held.json");
  const EnsembleResult r = run_model(model, dopri5(1e-11, 1e-13), output_grid(0.0, 3.0, 1e-3));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  const double e0 = r.value(0, 0, 0);
  double worst = 0.0, lowest_qw = 1.0;
  for (int k = 0; k < r.n_times; ++k) {
    worst = std::max(worst, std::abs(r.value(0, k, 0) - e0) / e0);
    lowest_qw = std::min(lowest_qw, std::abs(r.value(0, k, 1)));
  }
  std::printf("energy %.6f J, relative drift %.2e, smallest |qw| %.3f (rotation up to %.2f rad)\n", e0, worst,
              lowest_qw, 2 * std::acos(lowest_qw));
  EXPECT_LT(worst, 1e-8);
  EXPECT_LT(lowest_qw, std::cos(0.4)) << "the swing should reach large rotations";
  // The reference's potential at the start: 1/2 sum k d^2 + 1/2 sum k_r theta^2 (theta = 1 rad about (1,2,3)/n).
  const double expected = 0.5 * (2000 * 0.02 * 0.02 + 3000 * 0.01 * 0.01 + 5000 * 0.03 * 0.03) +
                          0.5 * (30 + 80 * 4 + 150 * 9) / 14.0 * angle * angle;
  const Instance inst(model);
  Eigen::VectorXd q(7);
  for (int i = 0; i < 7; ++i) q[i] = inst.q[static_cast<size_t>(i)];
  EXPECT_NEAR(reference::potential_energy(inst.model, 0.0, q), expected, 1e-6 * expected);
}

TEST(Bushing, DampingOnlyTakesEnergyOut) {
  const Model model = load_model_text(held_body("[0.02, 0, 1, 0.98, 0.2, 0, 0]", "[0.3, 0, 0, 1, 0, 0]",
                                                "[20, 20, 20, 0.1, 0.1, 0.1]"),
                                      "held.json");
  const EnsembleResult r = run_model(model, dopri5(1e-9, 1e-11), output_grid(0.0, 2.0, 1e-3));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  for (int k = 1; k < r.n_times; ++k) EXPECT_LE(r.value(0, k, 0), r.value(0, k - 1, 0) + 1e-9) << k;
  EXPECT_LT(r.value(0, r.n_times - 1, 0), 0.5 * r.value(0, 0, 0));
}

TEST(Bushing, BadBushingsAreRefusedByName) {
  const auto with = [](const std::string& fields) {
    return R"({"format": "myriad-model", "version": 1, "name": "held", "gravity": [0, 0, 0],
      "bodies": [{"name": "b", "mass": 10, "center_of_mass": [0, 0, 0], "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
      "joints": [{"name": "free", "type": "free", "parent": "ground", "child": "b"}],
      "forces": [{"name": "mount", "type": "bushing", )" + fields + "}]}";
  };
  EXPECT_TRUE(text_refused(with(R"("body1": "b", "body2": "b")"), "/forces/0/body2", {"two different bodies"}));
  EXPECT_TRUE(text_refused(with(R"("body1": "ground", "body2": "b", "stiffness": [1, 2, 3, 4, 5])"),
                           "/forces/0/stiffness", {"6"}));
  EXPECT_TRUE(text_refused(with(R"("body1": "ground", "body2": "b", "stiffness": [1, 2, -3, 4, 5, 6])"),
                           "/forces/0/stiffness/2", {"must not be negative"}));
  EXPECT_TRUE(text_refused(with(R"("body1": "ground", "body2": "b", "free_length": 1)"), "/forces/0/free_length",
                           {"unknown key"}));
  EXPECT_TRUE(text_refused(with(R"("body1": "ground", "body2": "wheel")"), "/forces/0/body2", {"wheel"}));
}

}  // namespace bushing_test
}  // namespace myriad

namespace myriad {
namespace bushing_test {

// The bushing_force output (issue 17, item 6: peak bushing forces) at a displaced state at rest: -K d and -K_r theta for small deflections, in frame 1's
// axes (here the world's); and a tsda's damper_force is its tension less the spring's part.
TEST(ForceOutputs, BushingForceAndDamperForceAreTheirParts) {
  std::string text = held_body("[0.001, -0.002, 1.0005, 1, 0, 0, 0]", "[0, 0, 0, 0, 0, 0]", "[0, 0, 0, 0, 0, 0]");
  const std::string outputs = R"("outputs": [)";
  text.replace(text.find(outputs), outputs.size(),
               outputs + R"({"name": "fx", "type": "bushing_force", "force": "mount", "component": "fx"},
                            {"name": "fy", "type": "bushing_force", "force": "mount", "component": "fy"},
                            {"name": "fz", "type": "bushing_force", "force": "mount", "component": "fz"},
                            {"name": "my", "type": "bushing_force", "force": "mount", "component": "my"},)");
  const Model model = load_model_text(text, "held.json");
  const EnsembleResult r = run_model(model, rk4(1e-4), output_grid(0.0, 0.0, 1.0));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  EXPECT_NEAR(r.value(0, 0, 0), -2000 * 0.001, 1e-12);
  EXPECT_NEAR(r.value(0, 0, 1), 3000 * 0.002, 1e-12);
  EXPECT_NEAR(r.value(0, 0, 2), -5000 * 0.0005, 1e-12);
  EXPECT_NEAR(r.value(0, 0, 3), 0.0, 1e-15);
  EXPECT_TRUE(text_refused(
      R"({"format": "myriad-model", "version": 1,
          "bodies": [{"name": "b", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
          "joints": [{"name": "j", "type": "prismatic", "parent": "ground", "child": "b", "axis": [0, 0, 1]}],
          "forces": [{"name": "s", "type": "tsda", "body1": "ground", "body2": "b", "stiffness": 1}],
          "outputs": [{"name": "o", "type": "bushing_force", "force": "s", "component": "fx"}]})",
      "/outputs/0/force", {"needs a bushing"}));
}

TEST(ForceOutputs, ATsdasDamperForceIsItsTensionLessTheSpring) {
  const Model model = load_model_file(model_path("quarter_car.json"));
  Model with = model;
  Output damper;
  damper.name = "susp_damper";
  damper.kind = OutputKind::damper_force;
  damper.force = 0;
  with.outputs.push_back(damper);
  const EnsembleResult r = run_model(with, dopri5(1e-8, 1e-10), output_grid(0.0, 1.0, 0.01));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  const int force = output_index(with, "susp_force"), length = output_index(with, "susp_length");
  const int last = static_cast<int>(with.outputs.size()) - 1;
  const double k = 25000, l0 = 0.45696;
  double largest = 0;
  for (int i = 0; i < r.n_times; ++i) {
    EXPECT_NEAR(r.value(0, i, last), r.value(0, i, force) - k * (r.value(0, i, length) - l0), 1e-9);
    largest = std::max(largest, std::abs(r.value(0, i, last)));
  }
  EXPECT_GT(largest, 100.0) << "the bump should move the damper";
}

}  // namespace bushing_test
}  // namespace myriad
