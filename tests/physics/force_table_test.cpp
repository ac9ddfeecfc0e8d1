// Piecewise-linear spring and damper tables of a tsda (issue 17, item 2): a 40 kg body on a vertical slide held by
// one tsda from a ground point 100 m below (free length 100.3 m, so the spring's deflection is z - 0.3). A
// progressive spring (2e4 N/m within +-20 mm, 1.7e5 N/m beyond 20 mm of compression) and a damper with its own bump
// (800 N s/m) and rebound (2400 N s/m) branches give the tabulated force, continued linearly past the ends, on the
// fast path and the reference path; the exact Jacobians are the local slopes; the stored energy is the table's
// integral, so an undamped drop keeps its total energy.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dynamics/articulated_body.hpp"
#include "reference/reference_dynamics.hpp"
#include "support/model_fixture.hpp"
#include "support/run_model.hpp"
#include "support/slide_probe.hpp"

namespace myriad {
namespace force_table_test {

using namespace testing;

constexpr double kMass = 40.0, kGravity = 9.81, kRest = 0.3;  // rest height: where the deflection is zero

const char* kSpring = R"("spring_table": [[-0.05, -5500], [-0.02, -400], [0, 0], [0.02, 400]])";
const char* kDamper = R"("damper_table": [[-1, -800], [0, 0], [1, 2400]])";

std::string slide_model(const std::string& force_fields, double z0) {
  return R"({"format": "myriad-model", "version": 1, "name": "table_slide", "gravity": [0, 0, -9.81],
    "bodies": [{"name": "body", "mass": 40, "center_of_mass": [0, 0, 0], "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "slide", "type": "prismatic", "parent": "ground", "child": "body", "axis": [0, 0, 1],
                "position": [)" +
         std::to_string(z0) + R"(], "velocity": [0]}],
    "forces": [{"name": "strut", "type": "tsda", "body1": "ground", "point1": [0, 0, -100], "body2": "body",
                "point2": [0, 0, 0], "free_length": 100.3, )" +
         force_fields + R"(}],
    "outputs": [{"name": "z", "type": "joint_coordinate", "joint": "slide"},
                {"name": "force", "type": "spring_force", "force": "strut"},
                {"name": "energy", "type": "total_energy"}]})";
}

// The tables by hand: force and slope.
void spring_by_hand(double x, double& f, double& slope) {
  if (x < -0.02) {
    slope = (-400.0 + 5500.0) / 0.03;  // 1.7e5, continued below -0.05
    f = -400.0 + slope * (x + 0.02);
  } else {
    slope = 2e4;  // continued above 0.02
    f = slope * x;
  }
}
void damper_by_hand(double v, double& f, double& slope) {
  slope = v < 0.0 ? 800.0 : 2400.0;
  f = slope * v;
}

struct Probe {
  double z, v;
};

TEST(ForceTable, ProgressiveSpringAndTwoBranchDamperGiveTheTabulatedForceAndSlopes) {
  const Instance inst(load_model_text(slide_model(std::string(kSpring) + ", " + kDamper, 0.3), "table_slide.json"));
  // Within the soft band, on the progressive branch, past both ends; bump and rebound.
  for (const Probe p : {Probe{0.31, 0.5}, Probe{0.29, -0.5}, Probe{0.265, -2.0}, Probe{0.22, 0.3},
                        Probe{0.35, 1.5}, Probe{0.1, -3.0}}) {
    double fs, ks, fd, cd;
    spring_by_hand(p.z - kRest, fs, ks);
    damper_by_hand(p.v, fd, cd);
    const double expected = -kGravity - (fs + fd) / kMass;
    const SlideProbe r = probe_slide(inst, p.z, p.v);
    ASSERT_TRUE(r.ok);
    EXPECT_NEAR(r.fast, expected, 1e-11 * std::abs(expected)) << "z " << p.z << " v " << p.v;
    EXPECT_NEAR(r.reference, expected, 1e-11 * std::abs(expected));
    EXPECT_NEAR(r.J1, -ks / kMass, 1e-9 * ks / kMass) << "z " << p.z;
    EXPECT_NEAR(r.J2, -cd / kMass, 1e-12 * cd / kMass) << "v " << p.v;
  }
}

TEST(ForceTable, TwoPointTablesAreTheLinearSpringAndDamper) {
  const Instance table(load_model_text(
      slide_model(R"("spring_table": [[-1, -20000], [1, 20000]], "damper_table": [[-1, -900], [1, 900]])", 0.3),
      "table_slide.json"));
  const Instance linear(load_model_text(slide_model(R"("stiffness": 20000, "damping": 900)", 0.3), "linear.json"));
  Instance scratch(table.model);
  for (const Probe p : {Probe{0.31, 0.5}, Probe{0.1, -3.0}, Probe{2.0, 7.0}}) {
    double q[4] = {p.z}, v[4] = {p.v}, a[4] = {0.0}, b[4] = {0.0};
    ASSERT_TRUE(forward_dynamics(*table.compiled, table.k(), 0.0, q, v, scratch.w, a));
    ASSERT_TRUE(forward_dynamics(*linear.compiled, linear.k(), 0.0, q, v, scratch.w, b));
    EXPECT_NEAR(a[0], b[0], 1e-12 * std::abs(b[0]));
  }
}

TEST(ForceTable, AnUndampedDropKeepsItsEnergyWhichStartsAtTheTablesIntegral) {
  // From 30 mm of compression at rest: the spring stores 16.5 J (the integral of the table from 0 to -0.03:
  // 4 J over the soft band, 12.5 J on the progressive branch).
  const Model model = load_model_text(slide_model(kSpring, kRest - 0.03), "table_slide.json");
  const EnsembleResult r = run_model(model, dopri5(1e-11, 1e-13), output_grid(0.0, 2.0, 1e-3));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  const double e0 = kMass * kGravity * (kRest - 0.03) + 16.5;
  EXPECT_NEAR(r.value(0, 0, 2), e0, 1e-12 * e0);
  // The reference path's own integral, there and on the extended soft branch (50 mm of extension: 25 J).
  Eigen::VectorXd q(1);
  q << kRest - 0.03;
  EXPECT_NEAR(reference::potential_energy(model, 0.0, q), e0, 1e-12 * e0);
  q << kRest + 0.05;
  EXPECT_NEAR(reference::potential_energy(model, 0.0, q), kMass * kGravity * (kRest + 0.05) + 25.0, 1e-9);
  double worst = 0.0, lowest = INFINITY, highest = -INFINITY;
  for (int k = 0; k < r.n_times; ++k) {
    worst = std::max(worst, std::abs(r.value(0, k, 2) - e0) / e0);
    lowest = std::min(lowest, r.value(0, k, 0));
    highest = std::max(highest, r.value(0, k, 0));
  }
  EXPECT_LT(worst, 1e-8);
  EXPECT_GT(highest - lowest, 0.02);  // it swings through both branches of the spring
  EXPECT_LT(lowest, kRest - 0.02);
  EXPECT_GT(highest, kRest);
}

void expect_refused(const std::string& fields, const std::string& pointer, const std::string& reason) {
  try {
    load_model_text(slide_model(fields, 0.3), "table_slide.json");
    ADD_FAILURE() << "accepted: " << fields;
  } catch (const std::exception& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("table_slide.json"), std::string::npos) << message;
    EXPECT_NE(message.find(pointer), std::string::npos) << message;
    EXPECT_NE(message.find(reason), std::string::npos) << message;
  }
}

TEST(ForceTable, BadTablesAreRefusedByName) {
  expect_refused(R"("spring_table": [[0, 0]])", "/forces/0/spring_table", "at least 2 points");
  expect_refused(R"("spring_table": [[0, 0], [-0.1, 5]])", "/forces/0/spring_table/1/0", "strictly increasing");
  expect_refused(R"("stiffness": 1000, "spring_table": [[0, 0], [1, 5]])", "/forces/0/spring_table",
                 "not both");
  expect_refused(R"("damper_table": [[0, 0], [1, "soft"]])", "/forces/0/damper_table/1/1", "");
  expect_refused(R"("damper_table": [[0, 0], [1]])", "/forces/0/damper_table/1", "");
}

}  // namespace force_table_test
}  // namespace myriad
