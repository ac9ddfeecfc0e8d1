// One-sided spring-dampers (a tsda's "acts": compression or tension; issue 17, items 2 and 3): a wheel of 40 kg on
// a vertical slide, dropped from 0.2 m above the height (0.3 m) where its tire (k = 2e5 N/m) touches the ground.
// A compression-only tire never pulls, lifts off, and stores energy only while compressed; the fast path, the
// reference path and the exact Jacobians all see the cut. The tire's ground end lies 100 m down (free length
// 100.3 m) rather than at the origin: an element between two points has a far side where it is long again, and
// in free flight an adaptive method's steps grow until one can land there, tunnelling through the contact
// (with the end at the origin, DOPRI5 at its default facmax put the wheel at z = -1.3 m after the third bounce).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "support/model_fixture.hpp"
#include "support/run_model.hpp"
#include "support/slide_probe.hpp"

namespace myriad {
namespace one_sided_tsda_test {

using namespace testing;

constexpr double kMass = 40.0, kStiffness = 2e5, kContactHeight = 0.3, kDropHeight = 0.5, kGravity = 9.81;
constexpr double kDepth = 100.0;  // of the tire's ground end

std::string wheel_model(const std::string& acts, double damping) {
  return R"({"format": "myriad-model", "version": 1, "name": "dropped_wheel", "gravity": [0, 0, -9.81],
    "bodies": [{"name": "wheel", "mass": 40, "center_of_mass": [0, 0, 0],
                "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "slide", "type": "prismatic", "parent": "ground", "child": "wheel", "axis": [0, 0, 1],
                "position": [0.5], "velocity": [0]}],
    "forces": [{"name": "tire", "type": "tsda", "body1": "ground", "point1": [0, 0, -100], "body2": "wheel",
                "point2": [0, 0, 0], "stiffness": 200000, "damping": )" +
         std::to_string(damping) + R"(, "free_length": 100.3)" + (acts.empty() ? "" : R"(, "acts": ")" + acts + "\"") +
         R"(}],
    "outputs": [{"name": "z", "type": "joint_coordinate", "joint": "slide"},
                {"name": "tire_force", "type": "spring_force", "force": "tire"},
                {"name": "tire_length", "type": "spring_length", "force": "tire"},
                {"name": "energy", "type": "total_energy"}]})";
}

EnsembleResult drop(const std::string& acts, double damping, double t_end) {
  const Model model = load_model_text(wheel_model(acts, damping), "dropped_wheel.json");
  return run_model(model, dopri5(1e-10, 1e-12), output_grid(0.0, t_end, 1e-3));
}

TEST(OneSidedTsda, AWheelFallsFreelyUntilItsTireTouchesAndTheTireNeverPulls) {
  const EnsembleResult r = drop("compression", 500.0, 1.0);
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  const double t_contact = std::sqrt(2.0 * (kDropHeight - kContactHeight) / kGravity);  // 0.2019 s
  double most_pulling = -INFINITY, most_pushing = 0.0;
  bool lifted_off_after_contact = false, touched = false;
  for (int k = 0; k < r.n_times; ++k) {
    const double t = r.times[static_cast<size_t>(k)], z = r.value(0, k, 0), force = r.value(0, k, 1);
    if (t < t_contact - 1e-3) {
      EXPECT_NEAR(z, kDropHeight - 0.5 * kGravity * t * t, 1e-9) << "t = " << t;  // free fall
      EXPECT_EQ(force, 0.0) << "t = " << t;
    }
    most_pulling = std::max(most_pulling, force);
    most_pushing = std::min(most_pushing, force);
    touched |= force < 0.0;
    lifted_off_after_contact |= touched && force == 0.0 && r.value(0, k, 2) > kDepth + kContactHeight;
  }
  EXPECT_EQ(most_pulling, 0.0);          // never a tension: the damper's pull on rebound is cut
  EXPECT_LT(most_pushing, -3000.0);      // the landing (1.98 m/s into 2828 N s/m of impedance): 8 wheel weights
  EXPECT_TRUE(lifted_off_after_contact);  // it bounced (damping ratio 0.09)
  // The same drop with a two-sided tire: stretched at the start, it pulls the wheel down, so the cut above did
  // something.
  const EnsembleResult both = drop("", 500.0, 1.0);
  double pull = 0.0;
  for (int k = 0; k < both.n_times; ++k) pull = std::max(pull, both.value(0, k, 1));
  EXPECT_GT(pull, 100.0);
}

TEST(OneSidedTsda, EnergyIsConservedAcrossBouncesWithoutDamping) {
  const EnsembleResult r = drop("compression", 0.0, 1.5);
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  const double e0 = kMass * kGravity * kDropHeight;  // at rest, tire not touching
  EXPECT_NEAR(r.value(0, 0, 3), e0, 1e-12 * e0);
  int contacts = 0;
  bool in_contact = false;
  double worst = 0.0;
  for (int k = 0; k < r.n_times; ++k) {
    worst = std::max(worst, std::abs(r.value(0, k, 3) - e0) / e0);
    const bool now = r.value(0, k, 1) < 0.0;
    contacts += now && !in_contact;
    in_contact = now;
  }
  EXPECT_GE(contacts, 2);  // it lands, rises back to its drop height, lands again
  EXPECT_LT(worst, 1e-7);
}

// State (z, v) of the slide: the tire's length is z + kDepth, its rate v.
struct Probe {
  double z, v;
};

TEST(OneSidedTsda, FastPathReferenceAndExactJacobiansSeeTheCutOnEitherSide) {
  for (const std::string acts : {"compression", "tension"}) {
    SCOPED_TRACE(acts);
    const Instance inst(load_model_text(wheel_model(acts, 500.0), "dropped_wheel.json"));
    // Compressed and closing (the tire pushes), compressed but opening fast (the damper would pull), and
    // stretched beyond the free length (a two-sided spring would pull).
    for (const Probe p : {Probe{0.25, -1.0}, Probe{0.25, 30.0}, Probe{0.4, 0.0}}) {
      const double full = kStiffness * (p.z - kContactHeight) + 500.0 * p.v;  // the uncut tension
      const bool acting =
          acts == "compression" ? p.z < kContactHeight && full <= 0.0 : p.z > kContactHeight && full >= 0.0;
      const double expected = -kGravity - (acting ? full : 0.0) / kMass;
      const SlideProbe r = probe_slide(inst, p.z, p.v);
      ASSERT_TRUE(r.ok);
      EXPECT_NEAR(r.fast, expected, 1e-12 * std::abs(expected)) << "z " << p.z << " v " << p.v;
      EXPECT_NEAR(r.reference, expected, 1e-12 * std::abs(expected));
      EXPECT_NEAR(r.f, expected, 1e-12 * std::abs(expected));
      // The exact Jacobians: -k/m and -c/m where the tire acts, zero where it is cut.
      EXPECT_NEAR(r.J1, acting ? -kStiffness / kMass : 0.0, 1e-9);
      EXPECT_NEAR(r.J2, acting ? -500.0 / kMass : 0.0, 1e-12);
    }
  }
}

TEST(OneSidedTsda, AnUnknownSideIsRefusedByName) {
  try {
    load_model_text(wheel_model("sometimes", 0.0), "dropped_wheel.json");
    FAIL() << "an unknown 'acts' was accepted";
  } catch (const std::exception& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("dropped_wheel.json"), std::string::npos) << message;
    EXPECT_NE(message.find("/forces/0/acts"), std::string::npos) << message;
    EXPECT_NE(message.find("sometimes"), std::string::npos) << message;
    EXPECT_NE(message.find("compression"), std::string::npos) << message;
  }
}

}  // namespace one_sided_tsda_test
}  // namespace myriad
