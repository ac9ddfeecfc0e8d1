// Seed 002's constraint layer in absolute coordinates (src/absolute/): the four GCONs DP1, DP2, D, CD (eqs.
// 1-4) in the rA, rp and re representations, checked against central differences in the coordinates (Jacobian
// rows) and in time along smooth motions (nu, gamma), against dual numbers, against the seed's Table 2 / eq.
// 18d for rA, and the joint recipes of Table 1 on consistently placed bodies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "absolute/absolute_forces.hpp"
#include "absolute/constraint_primitives.hpp"
#include "absolute/joint_recipes.hpp"
#include "absolute/rotation_representation.hpp"
#include "core/dual.hpp"

namespace myriad {
namespace {

std::mt19937_64 absolute_primitives_rng(2002);

double absolute_uniform(double a, double b) {
  return std::uniform_real_distribution<double>(a, b)(absolute_primitives_rng);
}
Vec3<double> absolute_random_vec3(double scale) {
  return {absolute_uniform(-scale, scale), absolute_uniform(-scale, scale), absolute_uniform(-scale, scale)};
}
Vec3<double> absolute_random_unit() {
  const Vec3<double> v = absolute_random_vec3(1.0);
  return (1.0 / norm(v)) * v;
}
Mat3<double> absolute_random_rotation() { return rotation_exp(absolute_random_vec3(2.0)); }
Quat<double> absolute_random_quat4(double scale) {
  return {absolute_uniform(-scale, scale), absolute_uniform(-scale, scale), absolute_uniform(-scale, scale),
          absolute_uniform(-scale, scale)};
}
double absolute_max_abs_difference(const Mat3<double>& a, const Mat3<double>& b) {
  double m = 0.0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m = std::max(m, std::abs(a.m[i][j] - b.m[i][j]));
  return m;
}
double absolute_max_abs_difference(const Vec3<double>& a, const Vec3<double>& b) {
  return std::max({std::abs(a.x - b.x), std::abs(a.y - b.y), std::abs(a.z - b.z)});
}
// The axial vector of the skew part of m.
Vec3<double> absolute_vee(const Mat3<double>& m) {
  return {0.5 * (m.m[2][1] - m.m[1][2]), 0.5 * (m.m[0][2] - m.m[2][0]), 0.5 * (m.m[1][0] - m.m[0][1])};
}

const char* absolute_kind_name(GconKind kind) {
  switch (kind) {
    case GconKind::dp1:
      return "DP1";
    case GconKind::dp2:
      return "DP2";
    case GconKind::d:
      return "D";
    case GconKind::cd:
      return "CD";
    case GconKind::angle:
      return "angle";
  }
  return "?";
}
constexpr GconKind absolute_all_kinds[5] = {GconKind::dp1, GconKind::dp2, GconKind::d, GconKind::cd,
                                            GconKind::angle};

// A GCON between bodies 1 and 2 with random body-fixed vectors and a random global axis for CD.
Gcon<double> absolute_random_gcon(GconKind kind) {
  Gcon<double> g = make_gcon<double>(kind, 1, 2);
  g.a_bar_i = absolute_random_vec3(1.0);
  g.a_bar_j = absolute_random_vec3(1.0);
  g.s_bar_i_P = absolute_random_vec3(2.0);
  g.s_bar_j_Q = absolute_random_vec3(2.0);
  g.c[static_cast<int>(absolute_primitives_rng() % 3)] = 1.0;
  if (kind == GconKind::angle) {  // f-bar_i, g-bar_i orthonormal (a hinge axis h-bar_i normal to both)
    const Vec3<double> h = absolute_random_unit(), f = cross(h, absolute_random_unit());
    g.a_bar_i = (1.0 / norm(f)) * f;
    g.s_bar_i_P = cross(h, g.a_bar_i);
    g.a_bar_j = absolute_random_unit();
  }
  return g;
}

// An angle GCON is well posed where f_j keeps a good part of its length in f_i's and g_i's plane (r^2 = s^2 + c^2
// of constraint_primitives.hpp); near r = 0 its derivatives grow like 1/r^k and central differences lose their
// digits, so the difference tests draw again there (r^2 >= 1/2). Any other kind: always.
template <class O>
bool absolute_well_posed(const Gcon<double>& g, const AbsolutePose<double, O>& body_i,
                         const AbsolutePose<double, O>& body_j) {
  if (g.kind != GconKind::angle) return true;
  const Mat3<double> A_i = orientation_matrix(body_i.orientation), A_j = orientation_matrix(body_j.orientation);
  const Vec3<double> f_j = A_j * g.a_bar_j;
  const double c = dot(A_i * g.a_bar_i, f_j), s = dot(A_i * g.s_bar_i_P, f_j);
  return s * s + c * c >= 0.5 * dot(f_j, f_j) * dot(A_i * g.a_bar_i, A_i * g.a_bar_i);
}

// A smooth rheonomic driving function, f(t) = 0.7 + 0.3 sin(1.7 t + 0.4).
DrivingValue<double> absolute_driving(double t) {
  const double x = 1.7 * t + 0.4;
  return {0.7 + 0.3 * std::sin(x), 0.3 * 1.7 * std::cos(x), -0.3 * 1.7 * 1.7 * std::sin(x)};
}

// ---- the three representations, as test cases: random orientations, coordinate perturbations, motions ----

struct AbsoluteCaseRotationMatrix {  // rA
  using Orientation = Mat3<double>;
  static constexpr int K = 3;
  static const char* name() { return "rA"; }
  static Orientation random_orientation() { return absolute_random_rotation(); }
  // The coordinate move of the Jacobian: A exp(h dq~), the body-frame virtual rotation of eq. 12.
  static Orientation perturb(const Orientation& A, const double* dq, double h) {
    return rotation_update(A, Vec3<double>{h * dq[0], h * dq[1], h * dq[2]});
  }
  // A(t) = exp(t u~) A0 exp(t w~): omega-bar = A^T u + w and omega-bar' = (A^T u) x w, a varying angular
  // velocity.
  struct Motion {
    Mat3<double> A0;
    Vec3<double> u, w;
  };
  static Motion random_motion() {
    return {absolute_random_rotation(), absolute_random_vec3(1.0), absolute_random_vec3(1.0)};
  }
  static void at(const Motion& m, double t, Orientation& o, Vec3<double>& rate, double* q_dot,
                 double* q_ddot) {
    o = rotation_exp(t * m.u) * m.A0 * rotation_exp(t * m.w);
    const Vec3<double> Atu = transpose_times(o, m.u);
    rate = Atu + m.w;
    const Vec3<double> acc = cross(Atu, m.w);
    for (int k = 0; k < 3; ++k) {
      q_dot[k] = rate[k];
      q_ddot[k] = acc[k];
    }
  }
  // The orientation with dual virtual rotations theta-bar (value 0) in directions first .. first + 2.
  template <class D>
  static Mat3<D> dual(const Orientation& A, int first) {
    return rotation_update(mat3_cast<D>(A), Vec3<D>{D::variable(0.0, first), D::variable(0.0, first + 1),
                                                    D::variable(0.0, first + 2)});
  }
};

struct AbsoluteCaseEulerParameters {  // rp
  using Orientation = Quat<double>;
  static constexpr int K = 4;
  static const char* name() { return "rp"; }
  static Orientation random_orientation() { return normalized(absolute_random_quat4(1.0)); }
  static Orientation perturb(const Orientation& p, const double* dq, double h) {
    return {p.w + h * dq[0], p.x + h * dq[1], p.y + h * dq[2], p.z + h * dq[3]};
  }
  // p(t) = p0 + t p1 + t^2 p2: any path in R^4 (A(p) is the homogeneous form, exact off the unit sphere too).
  struct Motion {
    Quat<double> p0, p1, p2;
  };
  static Motion random_motion() {
    return {random_orientation(), absolute_random_quat4(0.7), absolute_random_quat4(0.5)};
  }
  static void at(const Motion& m, double t, Orientation& o, Quat<double>& rate, double* q_dot,
                 double* q_ddot) {
    o = {m.p0.w + t * m.p1.w + t * t * m.p2.w, m.p0.x + t * m.p1.x + t * t * m.p2.x,
         m.p0.y + t * m.p1.y + t * t * m.p2.y, m.p0.z + t * m.p1.z + t * t * m.p2.z};
    rate = {m.p1.w + 2 * t * m.p2.w, m.p1.x + 2 * t * m.p2.x, m.p1.y + 2 * t * m.p2.y,
            m.p1.z + 2 * t * m.p2.z};
    const double r[4] = {rate.w, rate.x, rate.y, rate.z};
    const double a[4] = {2 * m.p2.w, 2 * m.p2.x, 2 * m.p2.y, 2 * m.p2.z};
    for (int k = 0; k < 4; ++k) {
      q_dot[k] = r[k];
      q_ddot[k] = a[k];
    }
  }
  template <class D>
  static Quat<D> dual(const Orientation& p, int first) {
    return {D::variable(p.w, first), D::variable(p.x, first + 1), D::variable(p.y, first + 2),
            D::variable(p.z, first + 3)};
  }
};

struct AbsoluteCaseEulerAngles {  // re
  using Orientation = EulerAngles<double>;
  static constexpr int K = 3;
  static const char* name() { return "re"; }
  static Orientation random_orientation() {
    return {absolute_uniform(-3.0, 3.0), absolute_uniform(0.3, 2.8), absolute_uniform(-3.0, 3.0)};
  }
  static Orientation perturb(const Orientation& e, const double* dq, double h) {
    return {e.phi + h * dq[0], e.theta + h * dq[1], e.psi + h * dq[2]};
  }
  struct Motion {
    Vec3<double> e0, e1, e2;
  };
  static Motion random_motion() {
    const Orientation e = random_orientation();
    return {{e.phi, e.theta, e.psi}, absolute_random_vec3(1.0), absolute_random_vec3(0.5)};
  }
  static void at(const Motion& m, double t, Orientation& o, EulerAngles<double>& rate, double* q_dot,
                 double* q_ddot) {
    const Vec3<double> e = m.e0 + t * m.e1 + (t * t) * m.e2;
    const Vec3<double> ed = m.e1 + (2 * t) * m.e2;
    o = {e.x, e.y, e.z};
    rate = {ed.x, ed.y, ed.z};
    for (int k = 0; k < 3; ++k) {
      q_dot[k] = ed[k];
      q_ddot[k] = 2 * m.e2[k];
    }
  }
  template <class D>
  static EulerAngles<D> dual(const Orientation& e, int first) {
    return {D::variable(e.phi, first), D::variable(e.theta, first + 1), D::variable(e.psi, first + 2)};
  }
};

// Row . (dr_i, dq_i, dr_j, dq_j).
template <int K>
double absolute_row_times(const GconRow<double, K>& row, const Vec3<double>& dr_i, const double* dq_i,
                          const Vec3<double>& dr_j, const double* dq_j) {
  double s = dot(row.phi_r_i, dr_i) + dot(row.phi_r_j, dr_j);
  for (int k = 0; k < K; ++k) s += row.phi_orientation_i[k] * dq_i[k] + row.phi_orientation_j[k] * dq_j[k];
  return s;
}

// (a) The largest relative difference between row . delta and the central difference of Phi along random
// coordinate directions delta, over `trials` random configurations of one GCON kind.
template <class Case>
double absolute_jacobian_error(GconKind kind, int trials) {
  using O = typename Case::Orientation;
  constexpr int K = Case::K;
  double worst = 0.0;
  for (int trial = 0; trial < trials; ++trial) {
    const Gcon<double> g = absolute_random_gcon(kind);
    const AbsolutePose<double, O> body_i{absolute_random_vec3(3.0), Case::random_orientation()};
    const AbsolutePose<double, O> body_j{absolute_random_vec3(3.0), Case::random_orientation()};
    if (!absolute_well_posed(g, body_i, body_j)) {
      --trial;
      continue;
    }
    const DrivingValue<double> f = absolute_driving(absolute_uniform(0.0, 2.0));
    const Vec3<double> dr_i = absolute_random_vec3(1.0), dr_j = absolute_random_vec3(1.0);
    double dq_i[K], dq_j[K];
    for (int k = 0; k < K; ++k) {
      dq_i[k] = absolute_uniform(-1.0, 1.0);
      dq_j[k] = absolute_uniform(-1.0, 1.0);
    }
    const double h = 1e-5;
    const auto phi_at = [&](double step) {
      const AbsolutePose<double, O> pi{body_i.r + step * dr_i, Case::perturb(body_i.orientation, dq_i, step)};
      const AbsolutePose<double, O> pj{body_j.r + step * dr_j, Case::perturb(body_j.orientation, dq_j, step)};
      return gcon_row(g, pi, pj, f).phi;
    };
    const double central = (phi_at(h) - phi_at(-h)) / (2 * h);
    const double analytic = absolute_row_times<K>(gcon_row(g, body_i, body_j, f), dr_i, dq_i, dr_j, dq_j);
    worst = std::max(worst, std::abs(central - analytic) / std::max(1.0, std::abs(analytic)));
  }
  return worst;
}

// (b) Along a smooth motion q(t) (cubic r(t), the case's orientation motion) and the rheonomic f(t): d/dt
// Phi(q(t), t) = Phi_q q' - nu and d^2/dt^2 Phi = Phi_q q'' - gamma. Returns the largest relative differences
// between five-point central differences in t and the right-hand sides.
struct AbsoluteRateErrors {
  double nu;
  double gamma;
};

template <class Case>
AbsoluteRateErrors absolute_rate_errors(GconKind kind, int trials) {
  using O = typename Case::Orientation;
  constexpr int K = Case::K;
  AbsoluteRateErrors worst{0.0, 0.0};
  for (int trial = 0; trial < trials; ++trial) {
    const Gcon<double> g = absolute_random_gcon(kind);
    const typename Case::Motion m_i = Case::random_motion(), m_j = Case::random_motion();
    Vec3<double> r0[2], r1[2], r2[2], r3[2];
    for (int b = 0; b < 2; ++b) {
      r0[b] = absolute_random_vec3(3.0);
      r1[b] = absolute_random_vec3(1.0);
      r2[b] = absolute_random_vec3(1.0);
      r3[b] = absolute_random_vec3(0.5);
    }
    struct State {
      AbsolutePose<double, O> pose[2];
      AbsoluteVelocity<double, O> velocity[2];
      Vec3<double> r_ddot[2];
      double q_dot[2][K], q_ddot[2][K];
    };
    const auto state_at = [&](double t) {
      State s;
      for (int b = 0; b < 2; ++b) {
        s.pose[b].r = r0[b] + t * r1[b] + (t * t) * r2[b] + (t * t * t) * r3[b];
        s.velocity[b].r_dot = r1[b] + (2 * t) * r2[b] + (3 * t * t) * r3[b];
        s.r_ddot[b] = 2.0 * r2[b] + (6 * t) * r3[b];
        Case::at(b == 0 ? m_i : m_j, t, s.pose[b].orientation, s.velocity[b].orientation_rate, s.q_dot[b],
                 s.q_ddot[b]);
      }
      return s;
    };
    const double t0 = absolute_uniform(0.0, 1.0);
    // Phi relative to its value at t0, shifted by whole turns: an angle GCON's wrap() may fall inside the stencil.
    const auto raw_phi_at = [&](double t) {
      const State s = state_at(t);
      return gcon_row(g, s.pose[0], s.pose[1], absolute_driving(t)).phi;
    };
    const double phi0 = raw_phi_at(t0);
    const auto phi_at = [&](double t) { return phi0 + wrap_to_pi(raw_phi_at(t) - phi0); };
    const State s = state_at(t0);
    bool posed = true;  // over the whole stencil (t0 +- 2 h2 below)
    for (double dt : {-0.01, 0.0, 0.01}) posed = posed && absolute_well_posed(g, state_at(t0 + dt).pose[0], state_at(t0 + dt).pose[1]);
    if (!posed) {
      --trial;
      continue;
    }
    const DrivingValue<double> f = absolute_driving(t0);
    const GconRow<double, K> row = gcon_row(g, s.pose[0], s.pose[1], f);
    const double nu = gcon_nu(f);
    const double gamma = gcon_gamma(g, s.pose[0], s.velocity[0], s.pose[1], s.velocity[1], f);
    const double row_q_dot =
        absolute_row_times<K>(row, s.velocity[0].r_dot, s.q_dot[0], s.velocity[1].r_dot, s.q_dot[1]);
    const double row_q_ddot = absolute_row_times<K>(row, s.r_ddot[0], s.q_ddot[0], s.r_ddot[1], s.q_ddot[1]);

    const double h1 = 1e-3, h2 = 2.5e-3;
    const double phi_dot =
        (phi_at(t0 - 2 * h1) - 8 * phi_at(t0 - h1) + 8 * phi_at(t0 + h1) - phi_at(t0 + 2 * h1)) / (12 * h1);
    const double phi_ddot = (-phi_at(t0 - 2 * h2) + 16 * phi_at(t0 - h2) - 30 * phi_at(t0) +
                             16 * phi_at(t0 + h2) - phi_at(t0 + 2 * h2)) /
                            (12 * h2 * h2);
    const double nu_scale = std::max({1.0, std::abs(row_q_dot), std::abs(nu)});
    const double gamma_scale = std::max({1.0, std::abs(row_q_ddot), std::abs(gamma)});
    worst.nu = std::max(worst.nu, std::abs(phi_dot - (row_q_dot - nu)) / nu_scale);
    worst.gamma = std::max(worst.gamma, std::abs(phi_ddot - (row_q_ddot - gamma)) / gamma_scale);
  }
  return worst;
}

// Dual numbers seeded on all 6 + 2K coordinates give Phi's exact gradient; returns its largest difference
// from the analytic row (rA: the duals are the virtual rotations theta-bar, A exp(theta-bar~) at theta-bar =
// 0).
template <class Case>
double absolute_dual_row_error(GconKind kind, int trials) {
  using O = typename Case::Orientation;
  constexpr int K = Case::K;
  constexpr int N = 6 + 2 * K;
  using D = Dual<double, N>;
  using OD = decltype(Case::template dual<D>(std::declval<O>(), 0));
  double worst = 0.0;
  for (int trial = 0; trial < trials; ++trial) {
    const Gcon<double> g = absolute_random_gcon(kind);
    const AbsolutePose<double, O> body_i{absolute_random_vec3(3.0), Case::random_orientation()};
    const AbsolutePose<double, O> body_j{absolute_random_vec3(3.0), Case::random_orientation()};
    const DrivingValue<double> f = absolute_driving(0.5);
    const GconRow<double, K> row = gcon_row(g, body_i, body_j, f);

    const AbsolutePose<D, OD> dual_i{
        {D::variable(body_i.r.x, 0), D::variable(body_i.r.y, 1), D::variable(body_i.r.z, 2)},
        Case::template dual<D>(body_i.orientation, 3)};
    const AbsolutePose<D, OD> dual_j{
        {D::variable(body_j.r.x, 3 + K), D::variable(body_j.r.y, 4 + K), D::variable(body_j.r.z, 5 + K)},
        Case::template dual<D>(body_j.orientation, 6 + K)};
    const DrivingValue<D> fd{D(f.f), D(f.f_dot), D(f.f_ddot)};
    const D phi = gcon_row(gcon_cast<D>(g), dual_i, dual_j, fd).phi;
    worst = std::max(worst, std::abs(phi.value - row.phi));
    for (int k = 0; k < 3; ++k) {
      worst = std::max(worst, std::abs(phi.d[k] - row.phi_r_i[k]));
      worst = std::max(worst, std::abs(phi.d[3 + K + k] - row.phi_r_j[k]));
    }
    for (int k = 0; k < K; ++k) {
      worst = std::max(worst, std::abs(phi.d[3 + k] - row.phi_orientation_i[k]));
      worst = std::max(worst, std::abs(phi.d[6 + K + k] - row.phi_orientation_j[k]));
    }
  }
  return worst;
}

template <class Case>
void absolute_check_jacobians() {
  for (GconKind kind : absolute_all_kinds) {
    const double err = absolute_jacobian_error<Case>(kind, 200);
    std::printf("[absolute] %s %-3s Jacobian vs central differences: max rel err %.2e\n", Case::name(),
                absolute_kind_name(kind), err);
    EXPECT_LT(err, 1e-8) << Case::name() << " " << absolute_kind_name(kind);
  }
}

template <class Case>
void absolute_check_rates() {
  for (GconKind kind : absolute_all_kinds) {
    const AbsoluteRateErrors err = absolute_rate_errors<Case>(kind, 100);
    std::printf("[absolute] %s %-3s nu: max rel err %.2e, gamma: max rel err %.2e\n", Case::name(),
                absolute_kind_name(kind), err.nu, err.gamma);
    EXPECT_LT(err.nu, 1e-8) << Case::name() << " " << absolute_kind_name(kind);
    EXPECT_LT(err.gamma, 1e-6) << Case::name() << " " << absolute_kind_name(kind);
  }
}

template <class Case>
void absolute_check_duals() {
  for (GconKind kind : absolute_all_kinds) {
    const double err = absolute_dual_row_error<Case>(kind, 50);
    EXPECT_LT(err, 1e-12) << Case::name() << " " << absolute_kind_name(kind);
  }
}

// ================================ representations ================================

TEST(AbsoluteRotationRepresentation, RotationExpIsRodriguesFormulaAndStaysOrthonormal) {
  for (int trial = 0; trial < 50; ++trial) {
    const Vec3<double> u = absolute_random_unit();
    const double chi = absolute_uniform(-3.0, 3.0);
    const Mat3<double> A = rotation_exp(chi * u);
    EXPECT_LT(absolute_max_abs_difference(A, rotation_about_axis(u, chi)), 1e-14);  // eq. 5
    EXPECT_LT(absolute_max_abs_difference(transpose(A) * A, Mat3<double>::identity()), 1e-14);
  }
  EXPECT_LT(absolute_max_abs_difference(rotation_exp(Vec3<double>::zero()), Mat3<double>::identity()), 1e-16);
}

TEST(AbsoluteRotationRepresentation, EulerParameterMatrixIsSeedEq22OnTheUnitSphereAndHomogeneousOffIt) {
  for (int trial = 0; trial < 50; ++trial) {
    const Quat<double> p = normalized(absolute_random_quat4(1.0));
    const double e0 = p.w, e1 = p.x, e2 = p.y, e3 = p.z;
    const Mat3<double> eq22 =
        2.0 * Mat3<double>{{{e0 * e0 + e1 * e1 - 0.5, e1 * e2 - e0 * e3, e1 * e3 + e0 * e2},
                            {e1 * e2 + e0 * e3, e0 * e0 + e2 * e2 - 0.5, e2 * e3 - e0 * e1},
                            {e1 * e3 - e0 * e2, e2 * e3 + e0 * e1, e0 * e0 + e3 * e3 - 0.5}}};
    EXPECT_LT(absolute_max_abs_difference(orientation_matrix(p), eq22), 1e-15);
    EXPECT_LT(absolute_max_abs_difference(orientation_matrix(p), rotation_matrix(p)), 1e-15);
    const Quat<double> q{1.3 * p.w, 1.3 * p.x, 1.3 * p.y, 1.3 * p.z};
    EXPECT_LT(absolute_max_abs_difference(orientation_matrix(q), 1.69 * orientation_matrix(p)), 1e-14);
  }
}

TEST(AbsoluteRotationRepresentation, EulerParameterBMatrixIsThePartialOfAsBar) {
  double worst = 0.0;
  for (int trial = 0; trial < 50; ++trial) {
    const Quat<double> p = absolute_random_quat4(1.0);
    const Vec3<double> s_bar = absolute_random_vec3(2.0);
    const Mat34<double> B = euler_parameter_b(p, s_bar);
    for (int k = 0; k < 4; ++k) {
      double dq[4] = {0, 0, 0, 0};
      dq[k] = 1.0;
      const double h = 1e-6;
      const Vec3<double> fd =
          (1.0 / (2 * h)) * (orientation_matrix(AbsoluteCaseEulerParameters::perturb(p, dq, h)) * s_bar -
                             orientation_matrix(AbsoluteCaseEulerParameters::perturb(p, dq, -h)) * s_bar);
      worst = std::max(worst, absolute_max_abs_difference(fd, Vec3<double>{B.m[0][k], B.m[1][k], B.m[2][k]}));
    }
  }
  EXPECT_LT(worst, 1e-8);  // eq. 23a
}

TEST(AbsoluteRotationRepresentation, EulerParameterRatesGiveTheBodyAngularVelocityOfEq39c) {
  for (int trial = 0; trial < 50; ++trial) {
    const Quat<double> p = normalized(absolute_random_quat4(1.0));
    const Vec3<double> omega_bar = absolute_random_vec3(2.0);
    const Quat<double> p_dot = euler_parameter_rate(p, omega_bar);
    EXPECT_NEAR(p.w * p_dot.w + p.x * p_dot.x + p.y * p_dot.y + p.z * p_dot.z, 0.0, 1e-15);
    const double h = 1e-6;
    const double dir[4] = {p_dot.w, p_dot.x, p_dot.y, p_dot.z};
    const Mat3<double> A = orientation_matrix(p);
    const Mat3<double> A_dot =
        (1.0 / (2 * h)) * (orientation_matrix(AbsoluteCaseEulerParameters::perturb(p, dir, h)) -
                           orientation_matrix(AbsoluteCaseEulerParameters::perturb(p, dir, -h)));
    EXPECT_LT(absolute_max_abs_difference(absolute_vee(transpose(A) * A_dot), omega_bar), 1e-8);  // eq. 30a
    EXPECT_LT(absolute_max_abs_difference(body_angular_velocity(p, p_dot), omega_bar), 1e-14);
    EXPECT_LT(absolute_max_abs_difference(global_angular_velocity(p, p_dot), A * omega_bar), 1e-14);
  }
}

TEST(AbsoluteRotationRepresentation, EulerAnglesAreZxzAndTheirRatesGiveTheBodyAngularVelocityOfEq43b) {
  const Vec3<double> x{1, 0, 0}, z{0, 0, 1};
  for (int trial = 0; trial < 50; ++trial) {
    const EulerAngles<double> e = AbsoluteCaseEulerAngles::random_orientation();
    const Mat3<double> A = orientation_matrix(e);
    const Mat3<double> zxz =
        rotation_about_axis(z, e.phi) * rotation_about_axis(x, e.theta) * rotation_about_axis(z, e.psi);
    EXPECT_LT(absolute_max_abs_difference(A, zxz), 1e-14);
    const EulerAngles<double> e_dot{absolute_uniform(-2, 2), absolute_uniform(-2, 2),
                                    absolute_uniform(-2, 2)};
    const double h = 1e-6;
    const double dir[3] = {e_dot.phi, e_dot.theta, e_dot.psi};
    const Mat3<double> A_dot =
        (1.0 / (2 * h)) * (orientation_matrix(AbsoluteCaseEulerAngles::perturb(e, dir, h)) -
                           orientation_matrix(AbsoluteCaseEulerAngles::perturb(e, dir, -h)));
    const Vec3<double> omega_bar = body_angular_velocity(e, e_dot);
    EXPECT_LT(absolute_max_abs_difference(absolute_vee(transpose(A) * A_dot), omega_bar), 1e-8);
    EXPECT_LT(absolute_max_abs_difference(global_angular_velocity(e, e_dot), A * omega_bar), 1e-14);
    const EulerAngles<double> back = euler_angle_rate(e, omega_bar);
    EXPECT_NEAR(back.phi, e_dot.phi, 1e-12);
    EXPECT_NEAR(back.theta, e_dot.theta, 1e-12);
    EXPECT_NEAR(back.psi, e_dot.psi, 1e-12);
  }
}

TEST(AbsoluteRotationRepresentation, EulerParameterNormalizationGammaMatchesItsSecondTimeDerivative) {
  for (int trial = 0; trial < 20; ++trial) {
    const AbsoluteCaseEulerParameters::Motion m = AbsoluteCaseEulerParameters::random_motion();
    const auto phi_at = [&](double t) {
      Quat<double> p, p_dot;
      double qd[4], qdd[4];
      AbsoluteCaseEulerParameters::at(m, t, p, p_dot, qd, qdd);
      return euler_parameter_normalization(p);
    };
    Quat<double> p, p_dot;
    double qd[4], qdd[4];
    AbsoluteCaseEulerParameters::at(m, 0.4, p, p_dot, qd, qdd);
    const Quat<double> jac = euler_parameter_normalization_jacobian(p);
    const double jac_q_ddot = jac.w * qdd[0] + jac.x * qdd[1] + jac.y * qdd[2] + jac.z * qdd[3];
    const double h = 1e-3;
    // Phi is a quartic in t; the five-point second difference is exact for it up to rounding.
    const double phi_ddot = (-phi_at(0.4 - 2 * h) + 16 * phi_at(0.4 - h) - 30 * phi_at(0.4) +
                             16 * phi_at(0.4 + h) - phi_at(0.4 + 2 * h)) /
                            (12 * h * h);
    EXPECT_NEAR(phi_ddot, jac_q_ddot - euler_parameter_normalization_gamma(p_dot), 1e-7);
  }
}

// ================================ primitives ================================

TEST(AbsoluteConstraintPrimitives, JacobianRowsMatchCentralDifferencesOfPhiInEveryRepresentation) {
  absolute_check_jacobians<AbsoluteCaseRotationMatrix>();
  absolute_check_jacobians<AbsoluteCaseEulerParameters>();
  absolute_check_jacobians<AbsoluteCaseEulerAngles>();
}

TEST(AbsoluteConstraintPrimitives, NuAndGammaMatchTimeDerivativesOfPhiAlongSmoothMotions) {
  absolute_check_rates<AbsoluteCaseRotationMatrix>();
  absolute_check_rates<AbsoluteCaseEulerParameters>();
  absolute_check_rates<AbsoluteCaseEulerAngles>();
}

TEST(AbsoluteConstraintPrimitives, DualNumberGradientsOfPhiEqualTheJacobianRows) {
  absolute_check_duals<AbsoluteCaseRotationMatrix>();
  absolute_check_duals<AbsoluteCaseEulerParameters>();
  absolute_check_duals<AbsoluteCaseEulerAngles>();
}

// Seed 002 Table 2 entry by entry (with the DP1 entries read as -a_j^T A_j^T A_i a_i~ and -a_i^T A_i^T A_j
// a_j~: the printed subscripts are transposed, see the header's notes).
TEST(AbsoluteConstraintPrimitives, RotationMatrixRowsEqualSeedTable2) {
  for (int trial = 0; trial < 20; ++trial) {
    const AbsolutePose<double, Mat3<double>> bi{absolute_random_vec3(3.0), absolute_random_rotation()};
    const AbsolutePose<double, Mat3<double>> bj{absolute_random_vec3(3.0), absolute_random_rotation()};
    const Mat3<double>&Ai = bi.orientation, &Aj = bj.orientation;
    const Vec3<double> ai_bar = absolute_random_vec3(1.0), aj_bar = absolute_random_vec3(1.0);
    const Vec3<double> si_bar = absolute_random_vec3(2.0), sj_bar = absolute_random_vec3(2.0);
    const Vec3<double> c{0, 1, 0};
    const DrivingValue<double> f{0.0, 0.0, 0.0};
    const Vec3<double> ai = Ai * ai_bar;
    const Vec3<double> d = bj.r + Aj * sj_bar - bi.r - Ai * si_bar;
    // row vector x^T M as M^T x
    const auto row = [](const Vec3<double>& x, const Mat3<double>& M) { return transpose_times(M, x); };

    const GconRow<double, 3> dp1 = dp1_row(ai_bar, bi, aj_bar, bj, f);
    const Vec3<double> dp1_ti = -1.0 * row(aj_bar, transpose(Aj) * Ai * skew(ai_bar));
    const Vec3<double> dp1_tj = -1.0 * row(ai_bar, transpose(Ai) * Aj * skew(aj_bar));
    EXPECT_LT(absolute_max_abs_difference(
                  {dp1.phi_orientation_i[0], dp1.phi_orientation_i[1], dp1.phi_orientation_i[2]}, dp1_ti),
              1e-13);
    EXPECT_LT(absolute_max_abs_difference(
                  {dp1.phi_orientation_j[0], dp1.phi_orientation_j[1], dp1.phi_orientation_j[2]}, dp1_tj),
              1e-13);

    const GconRow<double, 3> dp2 = dp2_row(ai_bar, si_bar, bi, sj_bar, bj, f);
    const Vec3<double> dp2_ti = row(ai_bar, skew(si_bar)) - row(d, Ai * skew(ai_bar));
    const Vec3<double> dp2_tj = -1.0 * row(ai, Aj * skew(sj_bar));
    EXPECT_LT(absolute_max_abs_difference(dp2.phi_r_i, -1.0 * ai), 1e-14);
    EXPECT_LT(absolute_max_abs_difference(
                  {dp2.phi_orientation_i[0], dp2.phi_orientation_i[1], dp2.phi_orientation_i[2]}, dp2_ti),
              1e-13);
    EXPECT_LT(absolute_max_abs_difference(
                  {dp2.phi_orientation_j[0], dp2.phi_orientation_j[1], dp2.phi_orientation_j[2]}, dp2_tj),
              1e-13);

    const GconRow<double, 3> dd = d_row(si_bar, bi, sj_bar, bj, f);
    EXPECT_LT(absolute_max_abs_difference(
                  {dd.phi_orientation_i[0], dd.phi_orientation_i[1], dd.phi_orientation_i[2]},
                  2.0 * row(d, Ai * skew(si_bar))),
              1e-12);
    EXPECT_LT(absolute_max_abs_difference(
                  {dd.phi_orientation_j[0], dd.phi_orientation_j[1], dd.phi_orientation_j[2]},
                  -2.0 * row(d, Aj * skew(sj_bar))),
              1e-12);

    const GconRow<double, 3> cd = cd_row(c, si_bar, bi, sj_bar, bj, f);
    EXPECT_LT(absolute_max_abs_difference(
                  {cd.phi_orientation_i[0], cd.phi_orientation_i[1], cd.phi_orientation_i[2]},
                  row(c, Ai * skew(si_bar))),
              1e-13);
    EXPECT_LT(absolute_max_abs_difference(
                  {cd.phi_orientation_j[0], cd.phi_orientation_j[1], cd.phi_orientation_j[2]},
                  -1.0 * row(c, Aj * skew(sj_bar))),
              1e-13);
  }
}

// Seed 002 eq. 18d read as gamma = c^T (A_i w_i~ w_i~ s_i^P - A_j w_j~ w_j~ s_j^Q) + f'' (the printed
// "w~ s~" has lost a w~ factor, and f-dot is f-double-dot).
TEST(AbsoluteConstraintPrimitives, RotationMatrixCdGammaEqualsSeedEq18d) {
  for (int trial = 0; trial < 20; ++trial) {
    const AbsolutePose<double, Mat3<double>> bi{absolute_random_vec3(3.0), absolute_random_rotation()};
    const AbsolutePose<double, Mat3<double>> bj{absolute_random_vec3(3.0), absolute_random_rotation()};
    const AbsoluteVelocity<double, Mat3<double>> vi{absolute_random_vec3(1.0), absolute_random_vec3(2.0)};
    const AbsoluteVelocity<double, Mat3<double>> vj{absolute_random_vec3(1.0), absolute_random_vec3(2.0)};
    const Vec3<double> si_bar = absolute_random_vec3(2.0), sj_bar = absolute_random_vec3(2.0);
    const Vec3<double> c{0, 0, 1};
    const DrivingValue<double> f = absolute_driving(0.2);
    const Mat3<double> wi = skew(vi.orientation_rate), wj = skew(vj.orientation_rate);
    const double eq18d =
        dot(c, bi.orientation * wi * wi * si_bar - bj.orientation * wj * wj * sj_bar) + f.f_ddot;
    EXPECT_NEAR(cd_gamma(c, si_bar, bi, vi, sj_bar, bj, vj, f), eq18d, 1e-12);
  }
}

// ================================ joint recipes ================================

// Two bodies placed consistently with a joint at world point P with world axis u and perpendiculars n1, n2.
struct AbsoluteJointScene {
  AbsolutePose<double, Mat3<double>> body_i, body_j;
  Vec3<double> P, u, n1, n2;
};

AbsoluteJointScene absolute_random_joint_scene() {
  AbsoluteJointScene s;
  s.body_i = {absolute_random_vec3(3.0), absolute_random_rotation()};
  s.body_j = {absolute_random_vec3(3.0), absolute_random_rotation()};
  s.P = absolute_random_vec3(2.0);
  const Mat3<double> frame = absolute_random_rotation();
  s.n1 = {frame.m[0][0], frame.m[1][0], frame.m[2][0]};
  s.n2 = {frame.m[0][1], frame.m[1][1], frame.m[2][1]};
  s.u = {frame.m[0][2], frame.m[1][2], frame.m[2][2]};
  return s;
}
// World vector / point as body-fixed.
Vec3<double> absolute_in_body(const AbsolutePose<double, Mat3<double>>& b, const Vec3<double>& v) {
  return transpose_times(b.orientation, v);
}
Vec3<double> absolute_point_in_body(const AbsolutePose<double, Mat3<double>>& b, const Vec3<double>& p) {
  return transpose_times(b.orientation, p - b.r);
}

double absolute_max_joint_violation(const JointGcons<double>& joint,
                                    const AbsolutePose<double, Mat3<double>>& bi,
                                    const AbsolutePose<double, Mat3<double>>& bj) {
  double worst = 0.0;
  for (int k = 0; k < joint.count; ++k) {
    const Gcon<double>& g = joint.gcons[k];
    worst = std::max(
        worst,
        std::abs(gcon_row(g, bi, bj, gcon_driving_value(g, static_cast<const DrivingValue<double>*>(nullptr)))
                     .phi));
  }
  return worst;
}

JointGcons<double> absolute_revolute_for(const AbsoluteJointScene& s) {
  return revolute_joint(1, absolute_point_in_body(s.body_i, s.P), absolute_in_body(s.body_i, s.n1),
                        absolute_in_body(s.body_i, s.n2), 2, absolute_point_in_body(s.body_j, s.P),
                        absolute_in_body(s.body_j, s.u));
}

TEST(AbsoluteJointRecipes, RevoluteJointBetweenConsistentBodiesIsSatisfiedAndHasFiveEquations) {
  for (int trial = 0; trial < 20; ++trial) {
    const AbsoluteJointScene s = absolute_random_joint_scene();
    const JointGcons<double> joint = absolute_revolute_for(s);
    EXPECT_EQ(joint.count, 5);
    EXPECT_TRUE(count_gcons(joint) == (GconCounts{2, 0, 0, 3}));
    EXPECT_LT(absolute_max_joint_violation(joint, s.body_i, s.body_j), 1e-13);
    // Turning body j about the joint axis through P keeps every equation satisfied (the one DOF left).
    const Mat3<double> R = rotation_about_axis(s.u, absolute_uniform(-3.0, 3.0));
    const AbsolutePose<double, Mat3<double>> turned{s.P + R * (s.body_j.r - s.P), R * s.body_j.orientation};
    EXPECT_LT(absolute_max_joint_violation(joint, s.body_i, turned), 1e-13);
    // ... and a tilt of the axis does not.
    const Mat3<double> T = rotation_about_axis(s.n1, 0.1);
    const AbsolutePose<double, Mat3<double>> tilted{s.P + T * (s.body_j.r - s.P), T * s.body_j.orientation};
    EXPECT_GT(absolute_max_joint_violation(joint, s.body_i, tilted), 1e-3);
  }
}

TEST(AbsoluteJointRecipes, RevoluteJointJacobianHasRankFiveAndAnnihilatesTheRotationAboutItsAxis) {
  const AbsoluteJointScene s = absolute_random_joint_scene();
  const JointGcons<double> joint = absolute_revolute_for(s);
  // rA rows over (r_i, theta-bar_i, r_j, theta-bar_j); the allowed velocity: body j spinning about the axis
  // through P.
  double rows[5][12];
  const Vec3<double> r_dot_j = cross(s.u, s.body_j.r - s.P);
  const Vec3<double> omega_bar_j = transpose_times(s.body_j.orientation, s.u);
  for (int k = 0; k < 5; ++k) {
    const GconRow<double, 3> r = gcon_row(joint.gcons[k], s.body_i, s.body_j, DrivingValue<double>{0, 0, 0});
    for (int c = 0; c < 3; ++c) {
      rows[k][c] = r.phi_r_i[c];
      rows[k][3 + c] = r.phi_orientation_i[c];
      rows[k][6 + c] = r.phi_r_j[c];
      rows[k][9 + c] = r.phi_orientation_j[c];
    }
    EXPECT_NEAR(dot(r.phi_r_j, r_dot_j) + r.phi_orientation_j[0] * omega_bar_j.x +
                    r.phi_orientation_j[1] * omega_bar_j.y + r.phi_orientation_j[2] * omega_bar_j.z,
                0.0, 1e-12);
  }
  // Gram-Schmidt: five independent rows.
  double smallest = 1e300;
  for (int k = 0; k < 5; ++k) {
    for (int l = 0; l < k; ++l) {
      double p = 0.0;
      for (int c = 0; c < 12; ++c) p += rows[k][c] * rows[l][c];
      for (int c = 0; c < 12; ++c) rows[k][c] -= p * rows[l][c];
    }
    double n = 0.0;
    for (int c = 0; c < 12; ++c) n += rows[k][c] * rows[k][c];
    n = std::sqrt(n);
    smallest = std::min(smallest, n);
    for (int c = 0; c < 12; ++c) rows[k][c] /= n;
  }
  EXPECT_GT(smallest, 1e-3);
}

TEST(AbsoluteJointRecipes, EveryJointRecipeIsSatisfiedByConsistentlyPlacedBodies) {
  for (int trial = 0; trial < 20; ++trial) {
    const AbsoluteJointScene s = absolute_random_joint_scene();
    const AbsolutePose<double, Mat3<double>>&bi = s.body_i, &bj = s.body_j;
    const Vec3<double> P_i = absolute_point_in_body(bi, s.P);
    const Vec3<double> Q_on_axis = absolute_point_in_body(bj, s.P + 0.7 * s.u);
    const Vec3<double> a_i = absolute_in_body(bi, s.n1), b_i = absolute_in_body(bi, s.n2);
    const Vec3<double> c_j = absolute_in_body(bj, s.u);

    const JointGcons<double> spherical = spherical_joint(1, P_i, 2, absolute_point_in_body(bj, s.P));
    const JointGcons<double> universal =
        universal_joint(1, P_i, a_i, 2, absolute_point_in_body(bj, s.P), absolute_in_body(bj, s.n2));
    const JointGcons<double> cylindrical = cylindrical_joint(1, P_i, a_i, b_i, 2, Q_on_axis, c_j);
    const JointGcons<double> translational =
        translational_joint(1, P_i, a_i, b_i, 2, Q_on_axis, c_j, absolute_in_body(bj, s.n2));
    const JointGcons<double> distance =
        distance_joint(1, P_i, 2, absolute_point_in_body(bj, s.P + 1.9 * s.n1), 1.9);
    const JointGcons<double> perp_1 = perpendicular_1(1, a_i, b_i, 2, c_j);
    const JointGcons<double> perp_2 = perpendicular_2(1, a_i, b_i, P_i, 2, Q_on_axis);
    for (const JointGcons<double>* joint :
         {&spherical, &universal, &cylindrical, &translational, &distance, &perp_1, &perp_2}) {
      EXPECT_LT(absolute_max_joint_violation(*joint, bi, bj), 1e-12) << static_cast<int>(joint->kind);
    }
    // A sliding along the axis keeps the cylindrical and translational joints, not the revolute one.
    const AbsolutePose<double, Mat3<double>> slid{bj.r + 0.3 * s.u, bj.orientation};
    EXPECT_LT(absolute_max_joint_violation(cylindrical, bi, slid), 1e-12);
    EXPECT_LT(absolute_max_joint_violation(translational, bi, slid), 1e-12);
    EXPECT_GT(absolute_max_joint_violation(absolute_revolute_for(s), bi, slid), 1e-2);
    // A spin about the axis keeps the cylindrical joint, not the translational one.
    const Mat3<double> R = rotation_about_axis(s.u, 0.4);
    const AbsolutePose<double, Mat3<double>> spun{s.P + R * (bj.r - s.P), R * bj.orientation};
    EXPECT_LT(absolute_max_joint_violation(cylindrical, bi, spun), 1e-12);
    EXPECT_GT(absolute_max_joint_violation(translational, bi, spun), 1e-2);
  }
}

TEST(AbsoluteJointRecipes, JointRecipesCountTheirPrimitivesAsInSeedTable1) {
  const Vec3<double> x{1, 0, 0}, y{0, 1, 0}, z{0, 0, 1}, o{0, 0, 0};
  const struct {
    JointGcons<double> joint;
    int equations;  // 6 - degrees of freedom of the joint
  } cases[] = {
      {spherical_joint(1, o, 2, o), 3},
      {universal_joint(1, o, x, 2, o, y), 4},
      {cylindrical_joint(1, o, x, y, 2, o, z), 4},
      {revolute_joint(1, o, x, y, 2, o, z), 5},
      {translational_joint(1, o, x, y, 2, o, z, y), 5},
      {distance_joint(1, o, 2, x, 1.0), 1},
      {perpendicular_1(1, x, y, 2, z), 2},
      {perpendicular_2(1, x, y, o, 2, o), 2},
  };
  for (const auto& c : cases) {
    EXPECT_TRUE(count_gcons(c.joint) == joint_gcon_counts(c.joint.kind)) << static_cast<int>(c.joint.kind);
    EXPECT_EQ(c.joint.count, c.equations);
    EXPECT_EQ(joint_gcon_counts(c.joint.kind).total(), c.equations);
  }
  static_assert(joint_gcon_counts(JointKind::revolute) == GconCounts{2, 0, 0, 3}, "Table 1: RJ = _|_1 + SJ");
  static_assert(joint_gcon_counts(JointKind::translational) == GconCounts{3, 2, 0, 0}, "Table 1: TJ");
}

// Seed 002 Table 7: the single pendulum is a revolute joint to ground plus a driving DP1: 3 CD, 3 DP1.
TEST(AbsoluteJointRecipes, SinglePendulumProducesTheGconCountsOfSeedTable7) {
  const Vec3<double> x{1, 0, 0}, y{0, 1, 0}, z{0, 0, 1}, o{0, 0, 0};
  Gcon<double> model[6];
  int n = 0;
  const JointGcons<double> revolute = revolute_joint(0, o, y, z, 1, Vec3<double>{-2, 0, 0}, x);
  for (int k = 0; k < revolute.count; ++k) model[n++] = revolute.gcons[k];
  model[n++] = driven(make_dp1(0, Vec3<double>{0, 0, -1}, 1, y, 0.0), 0);
  const GconCounts counts = count_gcons(model, n);
  EXPECT_EQ(counts.cd, 3);
  EXPECT_EQ(counts.dp1, 3);
  EXPECT_EQ(counts.dp2, 0);
  EXPECT_EQ(counts.d, 0);
  // The driver takes its f from the model's driving functions.
  const DrivingValue<double> drivers[1] = {{0.25, 0.5, -1.0}};
  EXPECT_EQ(gcon_driving_value(model[5], drivers).f_dot, 0.5);
  EXPECT_EQ(gcon_driving_value(model[0], drivers).f_dot, 0.0);
}

}  // namespace
}  // namespace myriad
