// api::modes (static equilibrium, linearization with the exact Jacobians, eigenvalues) against independent
// computations: the textbook 2-DOF quarter car (M, C, K written here from the source numbers, its eigenproblems
// solved by Eigen), the closed-form estimates of the suspension notes (issue 17's acceptance: within 1%), the
// closed-form static deflections, and the reference path's forward dynamics differentiated by central differences.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "api/model_impl.hpp"
#include "api/myriad/myriad.hpp"
#include "model/model.hpp"
#include "reference/reference_dynamics.hpp"

namespace myriad {
namespace modes_test {

constexpr double kTwoPi = 6.283185307179586;

std::string model_path(const std::string& name) { return std::string(MYRIAD_SOURCE_DIR) + "/models/" + name; }

struct QuarterCar {
  double m_b, m_w, c_s, k_s, k_t;
};

// det(K - omega^2 M) = 0 for the two-mass quarter car (body over wheel over the road), in Hz, ascending.
std::vector<double> undamped_hz(const QuarterCar& p) {
  Eigen::Matrix2d K, M;
  K << p.k_s, -p.k_s, -p.k_s, p.k_s + p.k_t;
  M << p.m_b, 0, 0, p.m_w;
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::Matrix2d> solver(K, M);
  return {std::sqrt(solver.eigenvalues()(0)) / kTwoPi, std::sqrt(solver.eigenvalues()(1)) / kTwoPi};
}

// The eigenvalues with Im > 0 of [0 I; -M^-1 K, -M^-1 C], by ascending magnitude.
std::vector<std::complex<double>> damped_eigenvalues(const QuarterCar& p) {
  Eigen::Matrix2d K, M, C;
  K << p.k_s, -p.k_s, -p.k_s, p.k_s + p.k_t;
  C << p.c_s, -p.c_s, -p.c_s, p.c_s;
  M << p.m_b, 0, 0, p.m_w;
  Eigen::Matrix4d A = Eigen::Matrix4d::Zero();
  A.topRightCorner<2, 2>().setIdentity();
  A.bottomLeftCorner<2, 2>() = -M.inverse() * K;
  A.bottomRightCorner<2, 2>() = -M.inverse() * C;
  const Eigen::Vector4cd lambda = Eigen::EigenSolver<Eigen::Matrix4d>(A).eigenvalues();
  std::vector<std::complex<double>> out;
  for (int i = 0; i < 4; ++i)
    if (lambda(i).imag() > 0) out.push_back(lambda(i));
  std::sort(out.begin(), out.end(), [](auto a, auto b) { return std::abs(a) < std::abs(b); });
  return out;
}

// The notes' uncoupled estimates: body sqrt(K_ride / m_b), K_ride = k_s k_t / (k_s + k_t); hop sqrt((k_s + k_t) / m_w).
std::vector<double> estimate_hz(const QuarterCar& p) {
  const double ride = p.k_s * p.k_t / (p.k_s + p.k_t);
  return {std::sqrt(ride / p.m_b) / kTwoPi, std::sqrt((p.k_s + p.k_t) / p.m_w) / kTwoPi};
}

void expect_quarter_car_modes(const std::string& file, const QuarterCar& p, double body_hz, double hop_hz) {
  const api::ModesResult r = api::modes(api::load_model(model_path(file)));
  ASSERT_EQ(r.coordinates, (std::vector<std::string>{"body_heave", "wheel_travel"}));
  ASSERT_EQ(r.undamped.size(), 2u);
  ASSERT_EQ(r.modes.size(), 2u);
  // Exact undamped eigenproblem: to round-off.
  const std::vector<double> exact = undamped_hz(p);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(r.undamped[i].frequency_hz, exact[i], 1e-9 * exact[i]) << i;
  EXPECT_EQ(r.undamped[0].dominant, "body_heave");
  EXPECT_EQ(r.undamped[1].dominant, "wheel_travel");
  // Issue 17's acceptance: within 1% of the closed forms (the notes' uncoupled estimates, and the issue's numbers).
  const std::vector<double> estimate = estimate_hz(p);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(r.undamped[i].frequency_hz, estimate[i], 0.01 * estimate[i]) << i;
  EXPECT_NEAR(r.undamped[0].frequency_hz, body_hz, 0.01 * body_hz);
  EXPECT_NEAR(r.undamped[1].frequency_hz, hop_hz, 0.01 * hop_hz);
  // Damped modes: the eigenvalues of the textbook first-order system.
  const std::vector<std::complex<double>> lambda = damped_eigenvalues(p);
  ASSERT_EQ(lambda.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const api::Mode& m = r.modes[static_cast<std::size_t>(i)];
    EXPECT_TRUE(m.oscillating);
    EXPECT_NEAR(m.real, lambda[i].real(), 1e-8 * std::abs(lambda[i])) << i;
    EXPECT_NEAR(m.imag, lambda[i].imag(), 1e-8 * std::abs(lambda[i])) << i;
    EXPECT_NEAR(m.natural_hz, std::abs(lambda[i]) / kTwoPi, 1e-8 * std::abs(lambda[i])) << i;
    EXPECT_NEAR(m.damping_ratio, -lambda[i].real() / std::abs(lambda[i]), 1e-8) << i;
  }
}

TEST(Modes, QuarterCarBenchmarkBodyAndWheelHopMatchTheClosedForms) {
  // MathWorks' active-suspension benchmark: 1.12 Hz and 9.33 Hz (suspension notes).
  expect_quarter_car_modes("quarter_car_benchmark.json", {300, 60, 1000, 16000, 190000}, 1.12, 9.33);
}

TEST(Modes, GoldenCarBodyAndWheelHopMatchTheClosedForms) {
  // The IRI golden car per unit sprung mass: 1.21 Hz and 11.0 Hz (suspension notes).
  expect_quarter_car_modes("golden_car.json", {1.0, 0.15, 6.0, 63.3, 653.0}, 1.21, 11.0);
}

TEST(Modes, NewtonFindsTheStaticDeflectionsFromADisplacedStart) {
  // A free length 5 cm longer than the file's static one: the file's initial state is 5 cm off equilibrium, and the
  // equilibrium has the suspension at 0.35 m (the tire, unchanged, at 0.3 m) whatever the start.
  api::ModesOptions o;
  o.overrides = {{"l0_s", 0.4839375 + 0.05}};
  const api::ModesResult r = api::modes(api::load_model(model_path("quarter_car_benchmark.json")), o);
  EXPECT_GE(r.iterations, 1);
  EXPECT_LT(r.residual, 1e-10 * 9.81);
  ASSERT_EQ(r.q.size(), 2u);
  EXPECT_NEAR(r.q[0], 0.65, 1e-9);   // body height = tire length + suspension length
  EXPECT_NEAR(r.q[1], -0.35, 1e-9);  // wheel below the body by the suspension length
  EXPECT_EQ(r.v, (std::vector<double>{0.0, 0.0}));
  // Linear springs: the frequencies do not depend on where the equilibrium is.
  const std::vector<double> exact = undamped_hz({300, 60, 1000, 16000, 190000});
  EXPECT_NEAR(r.undamped[0].frequency_hz, exact[0], 1e-9 * exact[0]);
}

TEST(Modes, StiffDoublePendulumEigenvaluesEqualTheReferencePathDifferentiatedNumerically) {
  // Seed 000's stiff pendulum (RSDA springs and dampers under gravity): J1, J2 of the reference path's forward
  // dynamics by central differences at the equilibrium api::modes found, then the same eigenproblem.
  const api::LoadedModel loaded = api::load_model(model_path("stiff_double_pendulum.json"));
  const api::ModesResult r = api::modes(loaded);
  EXPECT_LT(r.residual, 1e-10 * 9.81);
  const Model model = apply_parameters(loaded.impl->model, default_parameter_values(loaded.impl->model));
  const int n = 2;
  const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(r.q.data(), n), v = Eigen::VectorXd::Zero(n);
  EXPECT_LT(reference::forward_dynamics(model, 0.0, q, v).cwiseAbs().maxCoeff(), 1e-8);
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  A.topRightCorner(n, n).setIdentity();
  for (int j = 0; j < n; ++j) {
    const double hq = 1e-6, hv = 1e-6;
    Eigen::VectorXd dq = Eigen::VectorXd::Zero(n), dv = Eigen::VectorXd::Zero(n);
    dq(j) = hq;
    dv(j) = hv;
    A.block(n, j, n, 1) = (reference::forward_dynamics(model, 0.0, q + dq, v) -
                           reference::forward_dynamics(model, 0.0, q - dq, v)) / (2 * hq);
    A.block(n, n + j, n, 1) = (reference::forward_dynamics(model, 0.0, q, v + dv) -
                               reference::forward_dynamics(model, 0.0, q, v - dv)) / (2 * hv);
  }
  const Eigen::VectorXcd lambda = Eigen::EigenSolver<Eigen::MatrixXd>(A).eigenvalues();
  // Every eigenvalue api::modes reports (one per conjugate pair) is one of the reference's, to the differences'
  // accuracy (the eigenvalues span 1 to 1e5 1/s: the stiff joint's spring and damper).
  ASSERT_EQ(r.modes.size(), 3u);  // one oscillating pair, two real (the stiff joint is overdamped)
  for (const api::Mode& m : r.modes) {
    const std::complex<double> mine(m.real, m.imag);
    double nearest = 1e300;
    for (int i = 0; i < 2 * n; ++i) nearest = std::min(nearest, std::abs(lambda(i) - mine));
    EXPECT_LT(nearest, 1e-7 * std::abs(mine)) << mine;
  }
}

TEST(Modes, AFreeBodyUnderGravityHasNoEquilibriumAndSaysWhy) {
  const std::string text = R"({"format": "myriad-model", "version": 1, "name": "falling", "gravity": [0, 0, -9.81],
    "bodies": [{"name": "b", "mass": 1, "center_of_mass": [0, 0, 0], "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "slide", "type": "prismatic", "parent": "ground", "child": "b", "axis": [0, 0, 1],
                "position": [0], "velocity": [0]}]})";
  try {
    api::modes(api::load_model_string(text, "falling.json"));
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("falling.json"), std::string::npos) << what;
    EXPECT_NE(what.find("no static equilibrium"), std::string::npos) << what;
    EXPECT_NE(what.find("rank 0 of 1"), std::string::npos) << what;
  }
  // Linearized where it starts instead: a double zero eigenvalue, no frequency.
  api::ModesOptions o;
  o.at_initial_state = true;
  const api::ModesResult r = api::modes(api::load_model_string(text, "falling.json"), o);
  EXPECT_NEAR(r.residual, 9.81, 1e-12);
  ASSERT_EQ(r.undamped.size(), 1u);
  EXPECT_EQ(r.undamped[0].frequency_hz, 0.0);
}

TEST(Modes, AnUnknownParameterIsASettingError) {
  api::ModesOptions o;
  o.overrides = {{"k_z", 1.0}};
  EXPECT_THROW(api::modes(api::load_model(model_path("golden_car.json")), o), api::SettingError);
}

}  // namespace modes_test
}  // namespace myriad
