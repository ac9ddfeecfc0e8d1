// The tree's second-order (Nystrom) system: the right-Jacobian maps of the rotation-vector chart, and on
// every shipped model the exact Jacobians J1, J2, f_t against central differences and against forward-mode
// differentiation of the articulated-body algorithm, Mhat = T^T M T,
// consistency with the first-order TreeOde flow, and rebase() keeping the motion.
#include "dynamics/tree_second_order.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "dynamics/energy.hpp"
#include "dynamics/tree_ode.hpp"
#include "random_state.hpp"
#include "support/model_fixture.hpp"

namespace myriad {
namespace tree_second_order_test {

using testing::Instance;
using Vec = std::vector<double>;

size_t idx(int i) { return static_cast<size_t>(i); }

// hmmwv.json is left out: at these random states one of its corners' piecewise-linear spring tables has a
// breakpoint within the differences' 1e-4 step, where no difference quotient is the slope (with 1e-6 its columns
// agree); full_car.json runs the same corner and element code here.
std::vector<std::string> shipped_models() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(MYRIAD_SOURCE_DIR) + "/models"))
    if (entry.path().extension() == ".json" && !testing::stiff_vehicle(entry.path().string()))
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Five-point central difference of a vector function g(s) (n values) at s = 0 with step h: O(h^4).
template <class G>
Vec central_difference(int n, double h, G g) {
  Vec m2(idx(n)), m1(idx(n)), p1(idx(n)), p2(idx(n)), d(idx(n));
  g(-2 * h, m2.data());
  g(-h, m1.data());
  g(h, p1.data());
  g(2 * h, p2.data());
  for (int i = 0; i < n; ++i)
    d[idx(i)] = (m2[idx(i)] - 8 * m1[idx(i)] + 8 * p1[idx(i)] - p2[idx(i)]) / (12 * h);
  return d;
}

// ---- the rotation-vector maps ----

Vec3<double> random_unit(std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  const Vec3<double> v{normal(rng), normal(rng), normal(rng)};
  return (1.0 / norm(v)) * v;
}

const double kAngles[] = {0.0, 1e-7, 1e-3, 0.05, 0.0999, 0.1001, 0.3, 1.0, 2.0, 3.0};

TEST(TreeSecondOrderRotation, RightJacobianInvertsItsInverse) {
  std::mt19937_64 rng(1);
  for (double angle : kAngles) {
    const Vec3<double> phi = angle * random_unit(rng), omega = random_unit(rng);
    const Vec3<double> back = right_jacobian_times(phi, right_jacobian_inverse_times(phi, omega));
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(back[a], omega[a], 1e-14) << "angle " << angle;
  }
}

TEST(TreeSecondOrderRotation, RightJacobianGivesBodyAngularVelocityOfExp) {
  // R(s) = exp(phi + s d): R^T dR/ds = [Jr(phi) d]x.
  std::mt19937_64 rng(2);
  for (double angle : kAngles) {
    const Vec3<double> phi = angle * random_unit(rng), d = random_unit(rng);
    const double h = 1e-3;
    Mat3<double> dR = Mat3<double>::zero();
    const double weights[4] = {1.0, -8.0, 8.0, -1.0}, steps[4] = {-2 * h, -h, h, 2 * h};
    for (int s = 0; s < 4; ++s)
      dR = dR + (weights[s] / (12 * h)) * rotation_matrix(quat_exp(phi + steps[s] * d));
    const Mat3<double> W = transpose(rotation_matrix(quat_exp(phi))) * dR;
    const Vec3<double> omega{W.m[2][1], W.m[0][2], W.m[1][0]};
    const Vec3<double> expected = right_jacobian_times(phi, d);
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(omega[a], expected[a], 1e-11) << "angle " << angle;
  }
}

TEST(TreeSecondOrderRotation, InverseJacobianDerivativeMatchesFiniteDifferenceAndDual) {
  std::mt19937_64 rng(3);
  double worst_fd = 0.0, worst_dual = 0.0;
  for (double angle : kAngles) {
    for (int trial = 0; trial < 4; ++trial) {
      const Vec3<double> phi = angle * random_unit(rng), omega = 1.7 * random_unit(rng), d = random_unit(rng);
      const Vec3<double> D = right_jacobian_inverse_derivative_times(phi, omega, d);
      // Central difference (five points) of phi -> Jr^-1(phi) omega along d; steps stay on one side of the
      // series switch (0.1 rad) except for phi = 0 where both sides use the series.
      const double h = angle > 0.0 && std::abs(angle - 0.1) < 0.01 ? 1e-5 : 1e-3;
      Vec3<double> fd = Vec3<double>::zero();
      const double weights[4] = {1.0, -8.0, 8.0, -1.0}, steps[4] = {-2 * h, -h, h, 2 * h};
      for (int s = 0; s < 4; ++s)
        fd += (weights[s] / (12 * h)) * right_jacobian_inverse_times(phi + steps[s] * d, omega);
      // The same directional derivative by a Dual through right_jacobian_inverse_times.
      using D1 = Dual<double, 1>;
      Vec3<D1> phi_d, omega_d;
      for (int a = 0; a < 3; ++a) {
        phi_d[a] = D1(phi[a]);
        phi_d[a].d[0] = d[a];
        omega_d[a] = D1(omega[a]);
      }
      const Vec3<D1> dual = right_jacobian_inverse_times(phi_d, omega_d);
      for (int a = 0; a < 3; ++a) {
        worst_fd = std::max(worst_fd, std::abs(D[a] - fd[a]));
        worst_dual = std::max(worst_dual, std::abs(D[a] - dual[a].d[0]));
        EXPECT_NEAR(D[a], fd[a], 1e-9) << "angle " << angle;
        EXPECT_NEAR(D[a], dual[a].d[0], 1e-12) << "angle " << angle;
      }
    }
  }
  std::printf("  [jr_inverse derivative] max |D - fd| = %.2e, max |D - dual| = %.2e\n", worst_fd, worst_dual);
}

// ---- the tree system on every shipped model ----

struct ModelSystem {
  Instance inst;
  std::vector<unsigned char> buffer;
  Vec base_q;
  TreeSecondOrder<const double*> sys;
  int n;

  explicit ModelSystem(const std::string& file)
      : inst(load_model_file(file)),
        buffer(tree_second_order_bytes(*inst.compiled)),
        base_q(idx(inst.compiled->nq)),
        sys(make_tree_second_order(*inst.compiled, inst.k(), base_q.data(), buffer.data())),
        n(inst.compiled->nv) {}

  bool has_time_functions() const { return inst.compiled->n_time_functions > 0; }

  // A random state: chart base from a random configuration, x off the chart centre (rotation vectors of
  // `rotation_angle` rad in random directions), w random in [-2, 2].
  void random_state(std::mt19937_64& rng, double rotation_angle, Vec& x, Vec& w) {
    const CompiledModel& cm = *inst.compiled;
    Vec q, v;
    cli::random_state(inst.model, inst.q, rng, q, v);
    x.assign(idx(n), 0.0);
    chart_from_q(cm, q.data(), base_q.data(), x.data());
    for (int b = 0; b < cm.n_bodies; ++b) {
      const int rot = joint_rotation_offset(cm.joints[b].type);
      if (rot < 0) continue;
      const Vec3<double> phi = rotation_angle * random_unit(rng);
      for (int a = 0; a < 3; ++a) x[idx(cm.joints[b].v_index + rot + a)] = phi[a];
    }
    std::uniform_real_distribution<double> uniform(-2.0, 2.0);
    w.resize(idx(n));
    for (double& wi : w) wi = uniform(rng);
  }

  Vec accel(double t, const Vec& x, const Vec& w) {
    Vec f(idx(n));
    EXPECT_TRUE(sys.acceleration(t, x.data(), w.data(), f.data()));
    return f;
  }
};

// States per model: the chart centre (phi = 0, the series branches) and two off-centre states.
struct StateSpec {
  double rotation_angle, t;
};
const StateSpec kStates[] = {{0.0, 0.55}, {0.3, 0.53}, {0.3, 0.575}, {1.2, 0.56}};

double max_abs(const Vec& a) {
  double m = 0.0;
  for (double v : a) m = std::max(m, std::abs(v));
  return m;
}

TEST(TreeSecondOrder, JacobiansMatchCentralDifferencesOnEveryModel) {
  for (const std::string& file : shipped_models()) {
    SCOPED_TRACE(file);
    ModelSystem s(file);
    const int n = s.n;
    std::mt19937_64 rng(7);
    double worst1 = 0.0, worst2 = 0.0, worst_t = 0.0;
    for (const StateSpec& spec : kStates) {
      Vec x, w;
      s.random_state(rng, spec.rotation_angle, x, w);
      const double t = spec.t;
      Vec f(idx(n)), J1(idx(n * n)), J2(idx(n * n)), f_t(idx(n), -1.0);
      ASSERT_TRUE(s.sys.jacobians(t, x.data(), w.data(), f.data(), J1.data(), J2.data(), f_t.data()));
      const Vec f_plain = s.accel(t, x, w);
      // The Dual and the plain evaluation round differently; a template's light kingpin (0.1 kg) between a 20 kg
      // upright and its arm at a random state makes that 1.2e-12 of max|f| (half_car.json), the rest stay below 1e-13.
      for (int i = 0; i < n; ++i)
        EXPECT_NEAR(f[idx(i)], f_plain[idx(i)], 1e-11 * std::max(1.0, max_abs(f_plain)));
      // Errors relative to the largest entry; a difference's round-off (about eps max|f| / h) is allowed on
      // top.
      const double scale1 = std::max(1.0, max_abs(J1)), scale2 = std::max(1.0, max_abs(J2));
      const double h = 1e-4, round_off = 1e-14 * max_abs(f) / h;
      for (int j = 0; j < n; ++j) {
        const Vec d1 = central_difference(n, h, [&](double e, double* out) {
          Vec xe = x;
          xe[idx(j)] += e;
          ASSERT_TRUE(s.sys.acceleration(t, xe.data(), w.data(), out));
        });
        const Vec d2 = central_difference(n, h, [&](double e, double* out) {
          Vec we = w;
          we[idx(j)] += e;
          ASSERT_TRUE(s.sys.acceleration(t, x.data(), we.data(), out));
        });
        for (int i = 0; i < n; ++i) {
          const double e1 = std::abs(J1[idx(i * n + j)] - d1[idx(i)]) / scale1;
          const double e2 = std::abs(J2[idx(i * n + j)] - d2[idx(i)]) / scale2;
          worst1 = std::max(worst1, e1);
          worst2 = std::max(worst2, e2);
          EXPECT_LT(e1, 1e-7 + round_off / scale1)
              << "J1(" << i << "," << j << ") = " << J1[idx(i * n + j)] << " fd " << d1[idx(i)];
          EXPECT_LT(e2, 1e-7 + round_off / scale2)
              << "J2(" << i << "," << j << ") = " << J2[idx(i * n + j)] << " fd " << d2[idx(i)];
        }
      }
      // f_t at fixed (x, w); times stay inside quarter_car's bump [0.5, 0.6]. The step is small enough for the
      // road's top harmonic (2.83 cycles/m at 22 m/s, Omega = 395 rad/s): the difference's truncation error is
      // about (Omega h)^4 / 30 = 5e-9 relative.
      const double h_t = 5e-5, round_off_t = 1e-14 * max_abs(f) / h_t;
      const Vec dt = central_difference(n, h_t, [&](double e, double* out) {
        ASSERT_TRUE(s.sys.acceleration(t + e, x.data(), w.data(), out));
      });
      const double scale_t = std::max(1.0, max_abs(f_t));
      for (int i = 0; i < n; ++i) {
        const double e = std::abs(f_t[idx(i)] - dt[idx(i)]) / scale_t;
        worst_t = std::max(worst_t, e);
        EXPECT_LT(e, 1e-7 + round_off_t / scale_t)
            << "f_t(" << i << ") = " << f_t[idx(i)] << " fd " << dt[idx(i)];
      }
      // f_t is exactly zero without time functions. With them, where the difference is at round-off (an input
      // held over a step, a flat road, a bump's crest where the road's rate is cos(pi/2) ~ 6e-17) f_t need only
      // agree with it (checked above); where the difference is clearly not zero, neither is f_t.
      if (!s.has_time_functions())
        for (int i = 0; i < n; ++i) EXPECT_EQ(f_t[idx(i)], 0.0);
      else if (max_abs(dt) > 1e-7 * std::max(1.0, max_abs(f)) + round_off_t)
        EXPECT_GT(max_abs(f_t), 0.0);
    }
    std::printf("  [%s] n = %d, passes = %d: max rel |J1 - fd| = %.1e, |J2 - fd| = %.1e, |f_t - fd| = %.1e\n",
                std::filesystem::path(file).filename().c_str(), n,
                (2 * n + (s.has_time_functions() ? 1 : 0) + kJacobianChunk - 1) / kJacobianChunk, worst1,
                worst2, worst_t);
  }
}

// The Newton-Euler residual route of jacobians() against forward-mode differentiation of the articulated-body
// algorithm itself (one Dual direction per pass over tree_second_order_acceleration): two exact derivatives of
// one function computed by different recursions, so they agree to rounding, far tighter than the differences
// above can tell (1e-16 to 1e-11 relative; see the bound below for the one ill-conditioned model).
TEST(TreeSecondOrder, JacobiansEqualForwardModeThroughTheArticulatedBodyAlgorithmOnEveryModel) {
  using D1 = Dual<double, 1>;
  for (const std::string& file : shipped_models()) {
    SCOPED_TRACE(file);
    ModelSystem s(file);
    const int n = s.n;
    const CompiledModel& cm = *s.inst.compiled;
    std::vector<unsigned char> dual_buffer(tree_second_order_scratch_bytes<D1>(cm));
    TreeSecondOrderScratch<D1> scratch = carve_tree_second_order_scratch<D1>(cm, dual_buffer.data(), nullptr);
    std::mt19937_64 rng(10);
    double worst = 0.0, worst_condition = 0.0, worst_ratio = 0.0;
    for (const StateSpec& spec : kStates) {
      Vec x, w;
      s.random_state(rng, spec.rotation_angle, x, w);
      const double t = spec.t;
      Vec f(idx(n)), J1(idx(n * n)), J2(idx(n * n)), f_t(idx(n));
      ASSERT_TRUE(s.sys.jacobians(t, x.data(), w.data(), f.data(), J1.data(), J2.data(), f_t.data()));
      // Both are rounded evaluations of one derivative, du'/dz = M^-1 (...): perturbation theory gives each an
      // error up to about cond(M) eps, and a light body between heavy ones makes cond(M) large (half_car.json's
      // 0.1 kg kingpin: 1.2e8, where the two differ by 4.5 cond(M) eps; every other model stays under 0.3).
      Vec q(idx(cm.nq)), zero(idx(n), 0.0), M(idx(n * n));
      chart_to_q(cm, s.base_q.data(), x.data(), q.data());
      mass_matrix(cm, s.inst.k(), q.data(), zero.data(), s.inst.w, M.data());
      const Eigen::VectorXd sv =
          Eigen::JacobiSVD<Eigen::MatrixXd>(Eigen::Map<const Eigen::MatrixXd>(M.data(), n, n)).singularValues();
      const double condition = sv(0) / sv(n - 1);
      worst_condition = std::max(worst_condition, condition);
      // The sedan as a tree (its loops cut) at these random states hangs its 0.1 kg carriers and kingpins under the
      // Magic Formula tires' kN forces: a column whose entries cancel to about 1e-9 keeps their rounding, up to 102
      // cond(M) eps (measured; the column-relative error is absolute there).
      const double allowance = file.find("sedan.json") != std::string::npos ? 256 : 8;
      const double bound = 1e-13 + allowance * condition * 2.2e-16;
      const int directions = 2 * n + 1;
      Vec column(idx(n));
      std::vector<D1> xd(idx(n)), wd(idx(n)), fd(idx(n));
      for (int j = 0; j < directions; ++j) {
        for (int i = 0; i < n; ++i) {
          xd[idx(i)] = D1::variable(x[idx(i)], j == i ? 0 : -1);
          wd[idx(i)] = D1::variable(w[idx(i)], j == n + i ? 0 : -1);
        }
        const D1 td = D1::variable(t, j == 2 * n ? 0 : -1);
        ASSERT_TRUE(tree_second_order_acceleration(cm, s.inst.k(), s.base_q.data(), td, xd.data(), wd.data(),
                                                   scratch, fd.data()));
        double scale = 1.0;
        for (int i = 0; i < n; ++i) {
          const double analytic = j < n ? J1[idx(i * n + j)] : j < 2 * n ? J2[idx(i * n + j - n)] : f_t[idx(i)];
          column[idx(i)] = analytic;
          scale = std::max(scale, std::abs(analytic));
        }
        // Relative to the column's largest entry: an entry at round-off of its column is round-off both ways.
        for (int i = 0; i < n; ++i) {
          const double error = std::abs(column[idx(i)] - fd[idx(i)].d[0]) / scale;
          worst = std::max(worst, error);
          worst_ratio = std::max(worst_ratio, error / (condition * 2.2e-16));
          EXPECT_LT(error, bound) << "direction " << j << " row " << i << ": " << column[idx(i)] << " vs "
                                  << fd[idx(i)].d[0];
        }
      }
    }
    std::printf("  [%s] max rel |J (Newton-Euler residual) - J (Dual ABA)| = %.1e, cond(M) up to %.1e, "
                "error / (cond(M) eps) up to %.2f\n",
                std::filesystem::path(file).filename().c_str(), worst, worst_condition, worst_ratio);
  }
}

TEST(TreeSecondOrder, MassMatrixIsSymmetricAndEqualsTtMTOnEveryModel) {
  for (const std::string& file : shipped_models()) {
    SCOPED_TRACE(file);
    ModelSystem s(file);
    const int n = s.n;
    const CompiledModel& cm = *s.inst.compiled;
    std::mt19937_64 rng(8);
    double worst = 0.0;
    for (const StateSpec& spec : kStates) {
      Vec x, w;
      s.random_state(rng, spec.rotation_angle, x, w);
      Vec Mhat(idx(n * n));
      ASSERT_TRUE(s.sys.mass_matrix(spec.t, x.data(), Mhat.data()));
      // T = du/dw column by column from the w -> u map; M by CRBA at q.
      Vec q(idx(cm.nq)), zero(idx(n), 0.0), M(idx(n * n));
      chart_to_q(cm, s.base_q.data(), x.data(), q.data());
      mass_matrix(cm, s.inst.k(), q.data(), zero.data(), s.inst.w, M.data());
      Eigen::MatrixXd T(n, n), Me(n, n), Mh(n, n);
      for (int j = 0; j < n; ++j) {
        Vec e(idx(n), 0.0), col(idx(n));
        e[idx(j)] = 1.0;
        velocity_from_chart_rate(cm, x.data(), q.data(), e.data(), col.data());
        for (int i = 0; i < n; ++i) T(i, j) = col[idx(i)];
      }
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          Me(i, j) = M[idx(i * n + j)];
          Mh(i, j) = Mhat[idx(i * n + j)];
        }
      const Eigen::MatrixXd expected = T.transpose() * Me * T;
      EXPECT_EQ((Mh - Mh.transpose()).cwiseAbs().maxCoeff(), 0.0);
      const double error =
          (Mh - expected).cwiseAbs().maxCoeff() / std::max(1.0, expected.cwiseAbs().maxCoeff());
      worst = std::max(worst, error);
      EXPECT_LT(error, 1e-14);
      EXPECT_EQ(Eigen::LLT<Eigen::MatrixXd>(Mh).info(), Eigen::Success);
      // Kinetic energy in chart rates: 1/2 w^T Mhat w with u = T w.
      Vec u(idx(n));
      velocity_from_chart_rate(cm, x.data(), q.data(), w.data(), u.data());
      tree_kinematics(cm, s.inst.k(), q.data(), u.data(), s.inst.w);
      const Eigen::VectorXd we = Eigen::Map<const Eigen::VectorXd>(w.data(), n);
      // The tree's bodies only: a rod's lumped inertia (seed 001) belongs to the loop equations, not to the tree's
      // mass matrix, and kinetic_energy counts it.
      double kinetic = 0.0;
      for (int b = 0; b < cm.n_bodies; ++b)
        kinetic += 0.5 * dot(s.inst.w.velocity[b], body_inertia<double>(cm, s.inst.k(), b) * s.inst.w.velocity[b]);
      EXPECT_NEAR(0.5 * we.dot(Mh * we), kinetic, 1e-12 * std::max(1.0, kinetic));
    }
    std::printf("  [%s] max rel |Mhat - T^T M T| = %.1e\n", std::filesystem::path(file).filename().c_str(),
                worst);
  }
}

TEST(TreeSecondOrder, AccelerationIsSecondDerivativeAlongFirstOrderFlowOnEveryModel) {
  for (const std::string& file : shipped_models()) {
    SCOPED_TRACE(file);
    ModelSystem s(file);
    const int n = s.n;
    const CompiledModel& cm = *s.inst.compiled;
    std::vector<unsigned char> ode_buffer(tree_workspace_bytes<double>(cm));
    Vec q(idx(cm.nq)), qdd(idx(n));
    TreeOde<const double*> ode{
        &cm,      s.inst.k(), s.base_q.data(),
        q.data(), qdd.data(), carve_tree_workspace<double>(cm, ode_buffer.data(), nullptr)};
    std::mt19937_64 rng(9);
    double worst = 0.0;
    for (const StateSpec& spec : kStates) {
      Vec x, w;
      s.random_state(rng, spec.rotation_angle, x, w);
      const double t = spec.t;
      Vec y(idx(2 * n)), dydt(idx(2 * n));
      s.sys.to_first_order(x.data(), w.data(), y.data());
      ASSERT_TRUE(ode.derivative(t, y.data(), dydt.data()));
      for (int i = 0; i < n; ++i) EXPECT_NEAR(dydt[idx(i)], w[idx(i)], 1e-14 * std::max(1.0, max_abs(w)));
      // Round trip (x, w) -> (x, u) -> (x, w).
      Vec x_back(idx(n)), w_back(idx(n));
      s.sys.from_first_order(y.data(), x_back.data(), w_back.data());
      for (int i = 0; i < n; ++i) {
        EXPECT_EQ(x_back[idx(i)], x[idx(i)]);
        EXPECT_NEAR(w_back[idx(i)], w[idx(i)], 1e-14 * std::max(1.0, max_abs(w)));
      }
      // d/dt of the chart rate g(x, u) along the flow (x', u') = (w, u'), time held (g does not depend on t).
      const Vec d = central_difference(n, 1e-4, [&](double e, double* out) {
        Vec ye(idx(2 * n)), qe(idx(cm.nq));
        for (int i = 0; i < 2 * n; ++i) ye[idx(i)] = y[idx(i)] + e * dydt[idx(i)];
        chart_to_q(cm, s.base_q.data(), ye.data(), qe.data());
        chart_rate(cm, ye.data(), qe.data(), ye.data() + n, out);
      });
      const Vec f = s.accel(t, x, w);
      const double scale = std::max(1.0, max_abs(f));
      for (int i = 0; i < n; ++i) {
        const double e = std::abs(f[idx(i)] - d[idx(i)]) / scale;
        worst = std::max(worst, e);
        EXPECT_LT(e, 1e-9) << "f(" << i << ") = " << f[idx(i)] << " d/dt chart rate " << d[idx(i)];
      }
    }
    std::printf("  [%s] max rel |f - d/dt chart_rate| = %.1e\n",
                std::filesystem::path(file).filename().c_str(), worst);
  }
}

TEST(TreeSecondOrder, RebaseKeepsConfigurationAndMotionOnEveryModel) {
  for (const std::string& file : shipped_models()) {
    SCOPED_TRACE(file);
    ModelSystem s(file);
    const int n = s.n;
    const CompiledModel& cm = *s.inst.compiled;
    std::vector<unsigned char> ode_buffer(tree_workspace_bytes<double>(cm));
    Vec q_scratch(idx(cm.nq)), qdd(idx(n));
    TreeOde<const double*> ode{&cm,
                               s.inst.k(),
                               s.base_q.data(),
                               q_scratch.data(),
                               qdd.data(),
                               carve_tree_workspace<double>(cm, ode_buffer.data(), nullptr)};
    std::mt19937_64 rng(10);
    double worst_q = 0.0, worst_u = 0.0, worst_u_dot = 0.0;
    for (const StateSpec& spec : kStates) {
      Vec x, w;
      s.random_state(rng, spec.rotation_angle, x, w);
      Vec q_before(idx(cm.nq)), y_before(idx(2 * n)), ydot_before(idx(2 * n));
      chart_to_q(cm, s.base_q.data(), x.data(), q_before.data());
      s.sys.to_first_order(x.data(), w.data(), y_before.data());
      ASSERT_TRUE(ode.derivative(spec.t, y_before.data(), ydot_before.data()));

      const bool changed = s.sys.rebase(spec.t, x.data(), w.data());
      EXPECT_EQ(changed, cm.has_quaternions != 0 && spec.rotation_angle > 0.0);

      Vec q_after(idx(cm.nq)), y_after(idx(2 * n)), ydot_after(idx(2 * n));
      chart_to_q(cm, s.base_q.data(), x.data(), q_after.data());
      s.sys.to_first_order(x.data(), w.data(), y_after.data());
      ASSERT_TRUE(ode.derivative(spec.t, y_after.data(), ydot_after.data()));
      for (int i = 0; i < cm.nq; ++i) {
        worst_q = std::max(worst_q, std::abs(q_after[idx(i)] - q_before[idx(i)]));
        EXPECT_NEAR(q_after[idx(i)], q_before[idx(i)], 1e-14);
      }
      const double u_scale = std::max(1.0, max_abs(y_before));
      for (int i = 0; i < n; ++i) {
        worst_u = std::max(worst_u, std::abs(y_after[idx(n + i)] - y_before[idx(n + i)]) / u_scale);
        EXPECT_NEAR(y_after[idx(n + i)], y_before[idx(n + i)], 1e-14 * u_scale);
      }
      // The same motion: generalized accelerations unchanged, and the new chart rate is the new w.
      const double a_scale = std::max(1.0, max_abs(ydot_before));
      for (int i = 0; i < n; ++i) {
        worst_u_dot =
            std::max(worst_u_dot, std::abs(ydot_after[idx(n + i)] - ydot_before[idx(n + i)]) / a_scale);
        EXPECT_NEAR(ydot_after[idx(n + i)], ydot_before[idx(n + i)], 1e-12 * a_scale);
        EXPECT_NEAR(ydot_after[idx(i)], w[idx(i)], 1e-14 * std::max(1.0, max_abs(w)));
      }
      for (int b = 0; b < cm.n_bodies; ++b) {
        const int rot = joint_rotation_offset(cm.joints[b].type);
        if (rot < 0) continue;
        for (int a = 0; a < 3; ++a) EXPECT_EQ(x[idx(cm.joints[b].v_index + rot + a)], 0.0);
      }
      EXPECT_FALSE(s.sys.rebase(spec.t, x.data(), w.data()));  // nothing left to fold
    }
    std::printf("  [%s] rebase: max |dq| = %.1e, max rel |du| = %.1e, max rel |du'| = %.1e\n",
                std::filesystem::path(file).filename().c_str(), worst_q, worst_u, worst_u_dot);
  }
}

}  // namespace tree_second_order_test
}  // namespace myriad
