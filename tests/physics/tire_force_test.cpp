// The handling tire as a force element (issue 17, item 3; dynamics/tire_force.hpp). Each check is an independent
// computation from the run's own outputs, not a second copy of the element:
//   * the driven wheel (models/driven_wheel.json): Newton along x (M a_x = Fx), the wheel's spin equation
//     (I_yy omega' = T - z Fx, z the centre's height = the contact's lever arm), the vertical load at rest
//     ((m_c + m_w) g), the longitudinal slip recomputed from the states (kappa = (omega z - v_x) / sqrt(v_x^2 +
//     v0^2)), and Fx the Magic Formula's at that slip and load;
//   * a wheel sliding sideways: alpha = atan(v_y / v_ref), a lateral force against the motion, M a_y = Fy;
//   * an undamped wheel dropped on a Fiala tire keeps its energy through bounces and lift-offs (the vertical
//     force is the gradient of k delta^2 / 2);
//   * a rising road carries a damped wheel at its static height and load (the deflection rate counts the road's);
//   * bad tires are refused by name.
// The reference path's own contact geometry (reference/reference_dynamics.cpp) is held to the fast path by every
// cross-path test through models/driven_wheel.json.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "model/refusal_support.hpp"
#include "support/run_model.hpp"
#include "tire/magic_formula.hpp"
#include "tire/tir_file.hpp"

namespace myriad {
namespace tire_force_test {

using namespace testing;

constexpr double kG = 9.81;

int signal(const Model& model, const std::string& name) {
  for (size_t i = 0; i < model.outputs.size(); ++i)
    if (model.outputs[i].name == name) return static_cast<int>(i);
  ADD_FAILURE() << "no output " << name;
  return 0;
}

TEST(TireForce, DrivenWheelObeysNewtonTheSpinEquationAndItsSlip) {
  const Model model = load_model_file(model_path("driven_wheel.json"));
  const EnsembleResult r = run_model(model, dopri5(1e-10, 1e-12), output_grid(0.0, 0.5, 0.01));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  const TirCoefficients p = read_tir_file(model_path("tires/pacejka2006_205_60R15.tir"));
  const double total_mass = 1.0 + 300.0 + 15.0, wheel_iyy = 1.0, torque = 300.0, v0 = 1.0;
  const auto at = [&](int k, const char* name) { return r.value(0, k, signal(model, name)); };
  double worst_newton = 0, worst_spin = 0, worst_kappa = 0, worst_fx = 0, worst_fz = 0;
  for (int k = 0; k < r.n_times; ++k) {
    const double t = r.times[static_cast<size_t>(k)];
    if (std::abs(t - 0.05) < 1e-9) continue;  // the torque's step
    const double fx = at(k, "fx"), fz = at(k, "fz"), z = at(k, "z"), vx = at(k, "vx");
    worst_newton = std::max(worst_newton, std::abs(total_mass * at(k, "ax") - fx));
    worst_spin = std::max(worst_spin, std::abs(wheel_iyy * at(k, "omega_dot") - ((t > 0.05 ? torque : 0.0) - z * fx)));
    const double kappa = (at(k, "omega") * z - vx) / std::sqrt(vx * vx + v0 * v0);
    worst_kappa = std::max(worst_kappa, std::abs(at(k, "kappa") - kappa));
    worst_fx = std::max(worst_fx, std::abs(tire_forces(p.data(), kappa, 0.0, 0.0, fz).fx - fx));
    worst_fz = std::max(worst_fz, std::abs(fz - 315.0 * kG));
    EXPECT_NEAR(at(k, "alpha"), 0.0, 1e-15) << t;
  }
  EXPECT_LT(worst_newton, 1e-9);  // N
  EXPECT_LT(worst_spin, 1e-9);    // N m
  EXPECT_LT(worst_kappa, 1e-14);
  EXPECT_LT(worst_fx, 1e-8);      // N
  EXPECT_LT(worst_fz, 1.0);       // N: the initial height is rounded to 10 um (0.15 N), lightly damped
  // Driving: the slip settles where it stays constant, omega' z = (1 + kappa) v_x' (v_x >> v0), which with
  // I omega' = T - z Fx and M v_x' = Fx gives Fx = T z M / ((1 + kappa) I + M z^2).
  const int last = r.n_times - 1;
  const double kappa = at(last, "kappa"), z = at(last, "z");
  EXPECT_GT(kappa, 0.01);
  EXPECT_LT(kappa, 0.03);
  EXPECT_NEAR(at(last, "fx"), torque * z * total_mass / ((1.0 + kappa) * wheel_iyy + total_mass * z * z), 0.5);
}

// A wheel free to slide sideways at 1 m/s while rolling at 10 m/s: slip angle atan(1 / sqrt(101)) = 5.7 degrees.
std::string sliding_wheel(const std::string& tire_file, const std::string& lateral_speed, const std::string& extra) {
  return R"({"format": "myriad-model", "version": 1, "name": "sliding", "gravity": [0, 0, -9.81],
    "bodies": [{"name": "sx", "mass": 1, "center_of_mass": [0, 0, 0], "inertia": {"ixx": 0.01, "iyy": 0.01, "izz": 0.01}},
               {"name": "sy", "mass": 1, "center_of_mass": [0, 0, 0], "inertia": {"ixx": 0.01, "iyy": 0.01, "izz": 0.01}},
               {"name": "carriage", "mass": 300, "center_of_mass": [0, 0, 0], "inertia": {"ixx": 10, "iyy": 10, "izz": 10}},
               {"name": "wheel", "mass": 15, "center_of_mass": [0, 0, 0], "inertia": {"ixx": 0.6, "iyy": 1.0, "izz": 0.6}}],
    "joints": [{"name": "x", "type": "prismatic", "parent": "ground", "child": "sx", "axis": [1, 0, 0], "position": [0], "velocity": [10]},
               {"name": "y", "type": "prismatic", "parent": "sx", "child": "sy", "axis": [0, 1, 0], "position": [0], "velocity": [)" +
         lateral_speed + R"(]},
               {"name": "z", "type": "prismatic", "parent": "sy", "child": "carriage", "axis": [0, 0, 1], "position": [0.29755], "velocity": [0]},
               {"name": "spin", "type": "revolute", "parent": "carriage", "child": "wheel", "axis": [0, 1, 0], "position": [0], "velocity": [33.6078]}],
    "forces": [{"name": "tire", "type": "tire", "wheel": "wheel", "file": ")" +
         tire_file + R"(", "stiffness": 200000)" + extra + R"(}],
    "outputs": [{"name": "vx", "type": "joint_velocity", "joint": "x"}, {"name": "vy", "type": "joint_velocity", "joint": "y"},
                {"name": "ay", "type": "joint_acceleration", "joint": "y"},
                {"name": "fy", "type": "tire_force", "force": "tire", "component": "fy"},
                {"name": "mz", "type": "tire_force", "force": "tire", "component": "mz"},
                {"name": "alpha", "type": "tire_slip", "force": "tire", "component": "alpha"},
                {"name": "camber", "type": "tire_slip", "force": "tire", "component": "camber"},
                {"name": "energy", "type": "total_energy"}]})";
}

TEST(TireForce, SideslipGivesAtanSlipAngleAndARestoringLateralForce) {
  const Model model = load_model_text(sliding_wheel(model_path("tires/pacejka2006_205_60R15.tir"), "1", ""), "s.json");
  const EnsembleResult r = run_model(model, dopri5(1e-10, 1e-12), output_grid(0.0, 0.05, 0.005));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  for (int k = 0; k < r.n_times; ++k) {
    const double vx = r.value(0, k, 0), vy = r.value(0, k, 1), ay = r.value(0, k, 2), fy = r.value(0, k, 3);
    EXPECT_NEAR(r.value(0, k, 5), std::atan(vy / std::sqrt(vx * vx + 1.0)), 1e-15);
    EXPECT_LT(fy * vy, 0.0) << "the lateral force pushes against the sliding";
    EXPECT_NEAR(316.0 * ay, fy, 1e-8 * std::abs(fy));  // everything above the y slide moves with it
    EXPECT_NEAR(r.value(0, k, 6), 0.0, 1e-15);         // the wheel stays upright
  }
  // At the start: the Magic Formula's lateral force at 5.7 degrees and the initial deflection (kappa ~ 1e-7).
  const TirCoefficients p = read_tir_file(model_path("tires/pacejka2006_205_60R15.tir"));
  const double alpha0 = std::atan(1.0 / std::sqrt(101.0));
  EXPECT_NEAR(r.value(0, 0, 3), tire_forces(p.data(), 0.0, alpha0, 0.0, 200000.0 * (0.313 - 0.29755)).fy, 1e-2);
  EXPECT_GT(std::abs(r.value(0, 0, 3)), 2000.0);  // a 5.7 degree slip at 3.1 kN uses most of the friction
}

TEST(TireForce, UndampedDropOnAFialaTireKeepsItsEnergyThroughLiftOffs) {
  // Dropped from 5 cm above its static height, not rolling: it bounces (lifting off each time) for 1 s.
  std::string text = sliding_wheel(model_path("tires/hmmwv_fiala.tir"), "0", ", \"radius\": 0.313");
  text.replace(text.find("\"position\": [0.29755]"), 21, "\"position\": [0.35]");
  text.replace(text.find("\"velocity\": [10]"), 16, "\"velocity\": [0]");
  text.replace(text.find("\"velocity\": [33.6078]"), 21, "\"velocity\": [0]");
  const Model model = load_model_text(text, "drop.json");
  const EnsembleResult r = run_model(model, dopri5(1e-11, 1e-13), output_grid(0.0, 1.0, 1e-3));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  const double e0 = r.value(0, 0, 7);
  double worst = 0.0;
  for (int k = 0; k < r.n_times; ++k) worst = std::max(worst, std::abs(r.value(0, k, 7) - e0));
  EXPECT_LT(worst, 1e-6 * 316.0 * kG * 0.35) << "energy drift (J)";
}

// The road rising at 0.1 m/s (a ramp in time, already rising at t = 0) lifts the resting wheel with it: the deflection's rate counts the
// road's rate (delta' = h' - v_z), so the damper does not fight the rise, and the load stays (m_c + m_w) g.
TEST(TireForce, ARisingRoadCarriesTheWheelWithItsStaticLoad) {
  std::string text = sliding_wheel(model_path("tires/pacejka2006_205_60R15.tir"), "0",
                                   ", \"damping\": 2000, \"road\": {\"type\": \"ramp\", \"t0\": -1, \"slope\": 0.1, \"offset\": -0.1}");
  const std::string heave = "\"position\": [0.29755], \"velocity\": [0]";
  // At the static height R0 - (m_c + m_w) g / k, rising with the road.
  text.replace(text.find(heave), heave.size(), "\"position\": [0.29754925], \"velocity\": [0.1]");
  const size_t outputs = text.find("\"outputs\": [") + 12;
  text.insert(outputs, R"({"name": "z", "type": "joint_coordinate", "joint": "z"},
                {"name": "fz", "type": "tire_force", "force": "tire", "component": "fz"}, )");
  const Model model = load_model_text(text, "ramp.json");
  const EnsembleResult r = run_model(model, dopri5(1e-10, 1e-12), output_grid(0.0, 1.0, 0.1));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  for (int k = 0; k < r.n_times; ++k) {
    const double t = r.times[static_cast<size_t>(k)];
    EXPECT_NEAR(r.value(0, k, 0) - 0.1 * t, 0.29754925, 1e-9) << t;  // the centre keeps its height above the road
    EXPECT_NEAR(r.value(0, k, 1), 315.0 * kG, 1e-4) << t;
  }
}

TEST(TireForce, BadTiresAreRefusedByName) {
  const std::string tir = model_path("tires/pacejka2006_205_60R15.tir");
  const auto with = [&](const std::string& force) {
    return R"({"format": "myriad-model", "version": 1, "name": "t",
      "bodies": [{"name": "w", "mass": 15, "center_of_mass": [0, 0, 0], "inertia": {"ixx": 0.6, "iyy": 1, "izz": 0.6}}],
      "joints": [{"name": "j", "type": "prismatic", "parent": "ground", "child": "w", "axis": [0, 0, 1]}],
      "forces": [)" + force + "]}";
  };
  EXPECT_TRUE(text_refused(with(R"({"name": "t", "type": "tire", "wheel": "ground", "file": ")" + tir +
                                R"(", "stiffness": 1e5})"),
                           "/forces/0/wheel", {"a tire sits on a wheel body"}));
  EXPECT_TRUE(text_refused(with(R"({"name": "t", "type": "tire", "wheel": "w", "file": "/nonexistent/x.tir", "stiffness": 1e5})"),
                           "/forces/0/file", {"tire file", "/nonexistent/x.tir"}));
  EXPECT_TRUE(text_refused(with(R"({"name": "t", "type": "tire", "wheel": "w", "file": ")" + tir +
                                R"(", "stiffness": 0})"),
                           "/forces/0/stiffness", {"stiffness must be positive"}));
  EXPECT_TRUE(text_refused(with(R"({"name": "t", "type": "tire", "wheel": "w", "file": ")" + tir +
                                R"(", "stiffness": 1e5, "radius": -0.3})"),
                           "/forces/0/radius", {"radius must be positive"}));
  EXPECT_TRUE(text_refused(with(R"({"name": "t", "type": "tire", "wheel": "w", "file": ")" + tir +
                                R"(", "stiffness": 1e5, "axis": [0, 0, 0]})"),
                           "/forces/0/axis", {"axis must be non-zero"}));
  EXPECT_TRUE(text_refused(with(R"({"name": "t", "type": "tire", "wheel": "w", "file": ")" + tir +
                                R"(", "stiffness": 1e5, "grip": 1})"),
                           "/forces/0/grip", {"unknown key 'grip' for a tire", "min_speed"}));
}

}  // namespace tire_force_test
}  // namespace myriad
