// A tsda's preload (issue 17, item 2): a constant force P that pushes the ends apart, tension k (l - l0) + c l' - P.
// A 40 kg body on a strut from ground (a slide along z): the static position moves by P / k, the fast path and the
// reference agree with the force by hand and with each other, the Jacobian is the spring's, stored energy is
// k x^2 / 2 - P x and an undamped drop keeps it; on a one-sided (compression) strut the preload acts only while
// the strut is compressed.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "reference/reference_dynamics.hpp"
#include "support/run_model.hpp"
#include "support/slide_probe.hpp"

namespace myriad {
namespace preload_test {

using namespace testing;

constexpr double kMass = 40.0, kGravity = 9.81, kRest = 0.3, kStiffness = 20000.0, kPreload = 250.0;

std::string strut_model(const std::string& fields, double z0) {
  return R"({"format": "myriad-model", "version": 1, "name": "preload_slide", "gravity": [0, 0, -9.81],
    "parameters": {"P": {"value": 250, "unit": "N"}},
    "bodies": [{"name": "body", "mass": 40, "center_of_mass": [0, 0, 0], "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "slide", "type": "prismatic", "parent": "ground", "child": "body", "axis": [0, 0, 1],
                "position": [)" + std::to_string(z0) + R"(], "velocity": [0]}],
    "forces": [{"name": "strut", "type": "tsda", "body1": "ground", "point1": [0, 0, -100], "body2": "body",
                "point2": [0, 0, 0], "free_length": 100.3, "stiffness": 20000, "preload": "$P")" + fields + R"(}],
    "outputs": [{"name": "z", "type": "joint_coordinate", "joint": "slide"},
                {"name": "force", "type": "spring_force", "force": "strut"},
                {"name": "energy", "type": "total_energy"}]})";
}

TEST(Preload, ShiftsTheStaticPositionByPOverKOnBothPaths) {
  const Instance inst(load_model_text(strut_model("", kRest), "preload.json"));
  const double z_static = kRest + (kPreload - kMass * kGravity) / kStiffness;  // k x - P = -m g
  const SlideProbe at_rest = probe_slide(inst, z_static, 0.0);
  ASSERT_TRUE(at_rest.ok);
  EXPECT_NEAR(at_rest.fast, 0.0, 1e-10);
  EXPECT_NEAR(at_rest.reference, 0.0, 1e-10);
  for (double z : {0.25, 0.31, 0.4}) {
    const double expected = -kGravity - (kStiffness * (z - kRest) - kPreload) / kMass;
    const SlideProbe p = probe_slide(inst, z, 0.3);
    // 1e-10: the length is 100 m, its difference from the free length cancels to about 1e-14 x 100 m.
    EXPECT_NEAR(p.fast, expected, 1e-10) << z;
    EXPECT_NEAR(p.reference, expected, 1e-10) << z;
    EXPECT_NEAR(p.J1, -kStiffness / kMass, 1e-9) << "the preload is constant: the spring's slope alone";
  }
  // The parameter reaches it: P = 0 leaves the plain spring.
  const Instance none(load_model_text(strut_model("", kRest), "preload.json"), {{"P", 0.0}});
  EXPECT_NEAR(probe_slide(none, 0.31, 0.0).fast, -kGravity - kStiffness * 0.01 / kMass, 1e-10);
}

TEST(Preload, AnUndampedDropKeepsTheEnergyItsPotentialStartsAt) {
  const double z0 = kRest - 0.03;
  const Model model = load_model_text(strut_model("", z0), "preload.json");
  const EnsembleResult r = run_model(model, dopri5(1e-11, 1e-13), output_grid(0.0, 2.0, 1e-3));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  const double e0 = kMass * kGravity * z0 + 0.5 * kStiffness * 0.03 * 0.03 + kPreload * 0.03;
  EXPECT_NEAR(r.value(0, 0, 2), e0, 1e-12 * std::abs(e0));
  Eigen::VectorXd q(1);
  q << z0;
  EXPECT_NEAR(reference::potential_energy(model, 0.0, q), e0, 1e-12 * std::abs(e0));
  double worst = 0.0;
  for (int k = 0; k < r.n_times; ++k) worst = std::max(worst, std::abs(r.value(0, k, 2) - e0) / std::abs(e0));
  EXPECT_LT(worst, 1e-8);
}

// One-sided in compression: below the free length the preload pushes; above it nothing acts.
TEST(Preload, AOneSidedStrutCarriesItsPreloadOnlyWhileCompressed) {
  const Instance inst(load_model_text(strut_model(R"(, "acts": "compression")", kRest), "preload.json"));
  const SlideProbe compressed = probe_slide(inst, kRest - 0.01, 0.0), free = probe_slide(inst, kRest + 0.01, 0.0);
  EXPECT_NEAR(compressed.fast, -kGravity + (kStiffness * 0.01 + kPreload) / kMass, 1e-10);
  EXPECT_NEAR(compressed.reference, compressed.fast, 1e-10);
  EXPECT_NEAR(free.fast, -kGravity, 1e-14);
  EXPECT_NEAR(free.reference, -kGravity, 1e-14);
}

TEST(Preload, AnUnknownParameterIsRefusedAtThePreload) {
  std::string text = strut_model("", kRest);
  text.replace(text.find("\"$P\""), 4, "\"$Q\"");
  try {
    load_model_text(text, "preload.json");
    ADD_FAILURE() << "an unknown parameter was accepted";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.pointer(), "/forces/0/preload") << e.what();
  }
}

}  // namespace preload_test
}  // namespace myriad
