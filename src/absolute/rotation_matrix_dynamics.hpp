#pragma once
// The rA formulation's dynamics, seed 002 sec. 3.1 (eqs. 30-38): body b (1..NB; 0 is the ground) carries its
// centre of mass r_b, its orientation matrix A_b itself (on SO(3), never a set of coordinates), r'_b and the
// body-frame angular velocity omega-bar_b, with A' = A omega-bar~ (eq. 30a). The Newton-Euler equations with
// the GCONs of absolute/constraint_primitives.hpp (eq. 31),
//
//   m_b r''_b + [Phi_r^T lambda]_b = m_b g
//   J-bar_b omega-bar'_b + omega-bar_b~ J-bar_b omega-bar_b + [Phi_pi^T lambda]_b = 0     (gravity only)
//   Phi(r, A, t) = 0,
//
// where the Phi_pi columns are the theta-bar columns of gcon_row on Mat3 poses (Table 2: the coefficients of
// the first-order variation under A -> A exp(theta-bar~)), give
//   * the forward dynamics (index 1): [M 0 Phi_r^T; 0 J Phi_pi^T; Phi_r Phi_pi 0] (r'', omega-bar', lambda)
//     = (m g, -omega-bar~ J omega-bar, gamma), gamma from gcon_gamma (eqs. 16-18);
//   * backward Euler on SO(3) exactly as eqs. 32-38: the unknowns of a step are x = (r''_n+1, omega-bar'_n+1,
//     lambda_n+1); eq. 32 turns them into r'_n+1, omega-bar_n+1, r_n+1 and A_n+1 = A_n exp(h omega-bar_n+1~);
//     the residual g^A of eq. 34b is the equations of motion at t_n+1 and Phi(q_n+1, t_n+1) / h^2; Newton's
//     iteration matrix is eq. 38's G^A.
//
// The iteration matrix. A change delta_r of r'' moves r by h^2 delta_r; a change delta_omega of omega-bar'
// turns A_n+1 by the body-frame rotation h^2 Jr(chi) delta_omega, chi = h omega-bar_n+1, Jr the right
// Jacobian of exp on SO(3) (exp((chi + e)~) = exp(chi~) exp((Jr(chi) e)~) + O(e^2)). The seed's eq. 37 takes
// Jr = I (exp(a + b) ~ exp(a) exp(b)), an O(h |omega-bar|) relative error in those columns: a quasi-Newton
// matrix. RotationMatrixIterationMatrix picks either: `exact` (Jr kept: full Newton, equal to the Jacobian of
// the residual, which tests/absolute/rotation_matrix_dynamics_test.cpp checks against dual numbers) or
// `seed_eq37`. With F = [Phi_r^T lambda; Phi_pi^T lambda] the reaction terms of the residual (-f^c and -n^c
// of eq. 34c) and F_,r, F_,theta their first-order variations under r -> r + dr, A -> A exp(dtheta~), the
// blocks of eq. 38c for gravity alone (f_,r = f_,omega = n_,r = n_,omega = 0) are
//   G_rr = M + h^2 [F_r]_,r     G_rw = h^2 [F_r]_,theta Jr                                  G_rl = Phi_r^T
//   G_wr = h^2 [F_w]_,r         G_ww = J + h (omega~ J - (J omega)~) + h^2 [F_w]_,theta Jr   G_wl = Phi_pi^T
//   G_lr = Phi_r                G_lw = Phi_pi Jr                                            G_ll = 0
// (F_r, F_w: F's translational and rotational rows). The seed tabulates F's variations per GCON (Tables
// 3-6); here they are closed forms from the GCONs' product structure (absolute/gcon_reaction_sensitivity.hpp;
// equal to the GCON rows on dual numbers over the poses r + dr, A exp(dtheta~), which a test holds them to, and
// which took about 80% of an rA step before session 24). Seed erratum: eq. 38c's
// G_ww prints J - h (J omega~ - omega~ J + ...); the derivative of omega~ J omega in omega is omega~ J -
// (J omega)~, not omega~ J - J omega~ (the dual-number test would see the difference).
//
// Newton's convergence test is that of integrators/implicit_newton.hpp: after an update, every change of a
// position (h^2 delta_r), a velocity (h delta_r), an orientation (the rotation h^2 |delta_omega|, against
// A's entries of order 1) and an angular velocity (h delta_omega) within atol + rtol |value|, and every
// multiplier change within atol / h^2 + rtol max |lambda| (the multipliers judged as the positions they move,
// h^2 lambda: their rounding grows as 1/h^2); the rounding floor as there.
//
// Applied forces beyond gravity are the model's force elements (absolute/absolute_forces.hpp's laws, written once
// for every representation, on RotationMatrixCoordinates below): f and n-bar on the right of eq. 31, and in G^A
// their sensitivities -h^2 d(f, n-bar)/d(r, theta-bar) (through Jr like the reactions') and -h d(f, n-bar)/d(r',
// omega-bar), both by dual numbers on the element's two bodies (the seed's eq. 38c f_,r, f_,omega, n_,r, n_,omega).
//
// Host and device, no allocation, no exceptions; NB and NC are capacities like AbsoluteDae's (the model's own
// body_count and gcon_count at run time).
#include <cmath>

#include "absolute/absolute_dynamics.hpp"
#include "absolute/constraint_primitives.hpp"
#include "absolute/gcon_reaction_sensitivity.hpp"
#include "absolute/rotation_representation.hpp"
#include "core/dual.hpp"
#include "core/hd.hpp"
#include "core/status.hpp"
#include "integrators/implicit_newton.hpp"
#include "linalg/dense_lu.hpp"
#include "spatial/quaternion.hpp"

namespace myriad {

// The state of NB bodies in the rA representation. S = double for the integrators, Dual for the tests'
// Jacobians.
template <int NB, class S = double>
struct RotationMatrixState {
  Vec3<S> r[NB];      // centre of mass of body b + 1 in the G-RF (m); written by eq. 32c
  Mat3<S> A[NB];      // its orientation, L-RF -> G-RF, on SO(3); written by eq. 32d (A_n exp(h omega-bar~))
  Vec3<S> r_dot[NB];  // r' (m/s); eq. 32a
  Vec3<S> omega_bar[NB];  // angular velocity in the L-RF (rad/s), A' = A omega-bar~; eq. 32b
};

// Which iteration matrix backward_euler_step uses (see the top of this file).
enum class RotationMatrixIterationMatrix : int {
  exact = 0,      // eq. 38 with the right Jacobian of exp in the orientation columns: full Newton
  seed_eq37 = 1,  // eq. 38 as the seed derives it, with eq. 37's exp(a + b) ~ exp(a) exp(b): quasi-Newton
};

// The rA "representation" for the force laws of absolute/absolute_forces.hpp, which are written once for any
// orientation coordinates: a body's coordinates are (r, the nine entries of A row by row), its rates (r',
// omega-bar), and its K = 3 orientation directions are the body-frame rotations theta-bar (A -> A exp(dtheta~)),
// whose partials those laws take from the attached vectors and the angle GCON's row on Mat3 poses (Table 2). By
// virtual work along theta-bar they give the torque in the L-RF, n-bar (eq. 31's right-hand side), and the
// element's angle rate is its row times omega-bar (A' = A omega-bar~).
struct RotationMatrixCoordinates {
  static constexpr int kOrientation = 3;  // the variations theta-bar and the rates omega-bar, not A's nine entries
  static constexpr bool kNormalized = false;
  static constexpr const char* kName = "rA";
  template <class S>
  using Orientation = Mat3<S>;
  template <class S>
  MYRIAD_HD_INLINE static Mat3<S> orientation(const S* o) {
    Mat3<S> A;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) A.m[i][j] = o[3 * i + j];
    return A;
  }
  template <class S>
  MYRIAD_HD_INLINE static Mat3<S> identity() {
    return Mat3<S>::identity();
  }
};

template <int NB, int NC>
struct RotationMatrixDynamics {
  static constexpr int kPerBody = 6;        // (r, theta-bar) columns, (r'', omega-bar') unknowns per body
  static constexpr int NV = kPerBody * NB;  // velocity-level unknowns (capacity)
  static constexpr int NX = NV + NC;        // unknowns of a step: x = (r''_1, omega-bar'_1, ..., lambda) (capacity)
  using State = RotationMatrixState<NB>;

  const AbsoluteModel<NB, NC>* model = nullptr;

  // The model's sizes: NB, NC, NV and NX above are capacities (equal to these for a full model); every array of
  // this file is laid out with the model's own counts (Phi_q nc x nv, the matrices nx x nx, row-major).
  MYRIAD_HD int body_count() const { return model->body_count; }
  MYRIAD_HD int gcon_count() const { return model->gcon_count; }
  MYRIAD_HD int velocity_count() const { return kPerBody * model->body_count; }
  MYRIAD_HD int unknown_count() const { return velocity_count() + model->gcon_count; }

  // ---- the constraint layer on Mat3 poses ----

  template <class S>
  MYRIAD_HD static AbsolutePose<S, Mat3<S>> pose(const RotationMatrixState<NB, S>& s, int body) {
    if (body == 0) return {Vec3<S>{S(0.0), S(0.0), S(0.0)}, Mat3<S>::identity()};
    return {s.r[body - 1], s.A[body - 1]};
  }

  MYRIAD_HD static AbsoluteVelocity<double, Mat3<double>> velocity(const State& s, int body) {
    if (body == 0) return {Vec3<double>{0.0, 0.0, 0.0}, Vec3<double>{0.0, 0.0, 0.0}};
    return {s.r_dot[body - 1], s.omega_bar[body - 1]};
  }

  template <class S>
  MYRIAD_HD DrivingValue<S> driving_value(const Gcon<double>& g, double t) const {
    if (g.driver < 0) return {S(g.f_constant), S(0.0), S(0.0)};
    const DrivingValue<double> f = model->drivers[g.driver].at(t);
    return {S(f.f), S(f.f_dot), S(f.f_ddot)};
  }

  // Phi (nc) and Phi_q = [Phi_r Phi_pi] (nc x nv, row-major; columns r_b, theta-bar_b per body) at (t, r, A)
  // from gcon_row (Table 2). O(nc nv).
  MYRIAD_HD void constraint_rows(double t, const State& s, double* phi, double* jacobian) const {
    const int nc = gcon_count(), nv = velocity_count();
    for (int i = 0; i < nc * nv; ++i) jacobian[i] = 0.0;
    for (int c = 0; c < nc; ++c) {
      const Gcon<double>& g = model->gcons[c];
      const GconRow<double, 3> row =
          gcon_row(g, pose(s, g.body_i), pose(s, g.body_j), driving_value<double>(g, t));
      phi[c] = row.phi;
      place_row(row, g, jacobian + c * nv);
    }
  }

  // nu of GCON c: f'(t) (eq. 17).
  MYRIAD_HD double constraint_nu(double t, int c) const {
    return gcon_nu(driving_value<double>(model->gcons[c], t));
  }

  // gamma of GCON c at (t, r, A, r', omega-bar), so that Phi_r r'' + Phi_pi omega-bar' = gamma (eq. 18 as
  // corrected at the end of constraint_primitives.hpp).
  MYRIAD_HD double constraint_gamma(double t, const State& s, int c) const {
    const Gcon<double>& g = model->gcons[c];
    return gcon_gamma(g, pose(s, g.body_i), velocity(s, g.body_i), pose(s, g.body_j), velocity(s, g.body_j),
                      driving_value<double>(g, t));
  }

  // ---- applied forces (gravity aside): the model's force elements ----

  // Adds the force elements' generalized forces (f, n-bar per body, kPerBody values) at t and the state s (any
  // scalar) to Q: RSDAs and revolute actuators, TSDAs, bushings, tires, and the translational actuators' u(t)
  // Phi_q^T of their GCONs. The laws are absolute/absolute_forces.hpp's on RotationMatrixCoordinates. O(elements).
  template <class S>
  MYRIAD_HD void add_applied_forces(double t, const RotationMatrixState<NB, S>& s, S* Q) const {
    S x_i[12], u_i[6], x_j[12], u_j[6];
    for (int e = 0; e < element_count(); ++e) {
      int body_i, body_j;
      element_bodies(e, body_i, body_j);
      pack_body(s, body_i, x_i, u_i);
      pack_body(s, body_j, x_j, u_j);
      add_element_force(e, t, body_i ? x_i : nullptr, body_i ? u_i : nullptr, body_j ? x_j : nullptr,
                        body_j ? u_j : nullptr, body_i ? Q + kPerBody * (body_i - 1) : nullptr,
                        body_j ? Q + kPerBody * (body_j - 1) : nullptr);
    }
    for (int a = 0; a < model->actuator_count; ++a) {  // u dPhi/dq (the GCON's reaction with multiplier -u)
      const Gcon<double>& gd = model->actuators[a].gcon;
      const DrivingValue<S> none{S(0.0), S(0.0), S(0.0)};
      const GconRow<S, 3> row = gcon_row(gcon_cast<S>(gd), pose(s, gd.body_i), pose(s, gd.body_j), none);
      const S u(absolute_actuator_value(*model, model->actuators[a].force, t));
      add_reaction(row.phi_r_i, row.phi_orientation_i, u, gd.body_i, Q);
      add_reaction(row.phi_r_j, row.phi_orientation_j, u, gd.body_j, Q);
    }
  }

  // After a step to state s: the RSDAs' anchors move there (absolute/absolute_forces.hpp), changing no force
  // value. The model is the caller's (a non-const pointer to the one `model` points to).
  MYRIAD_HD static void move_anchors(AbsoluteModel<NB, NC>& movable, const State& s) {
    for (int e = 0; e < movable.rsda_count; ++e) {
      AbsoluteRsda& f = movable.rsdas[e];
      double o_i[9], o_j[9];
      const bool ground_i = f.body_i == 0, ground_j = f.body_j == 0;
      if (!ground_i) pack_orientation(s.A[f.body_i - 1], o_i);
      if (!ground_j) pack_orientation(s.A[f.body_j - 1], o_j);
      move_rsda_anchor<RotationMatrixCoordinates>(f, ground_i ? nullptr : o_i, ground_j ? nullptr : o_j);
    }
  }

  // ---- forward dynamics (index 1, eq. 31 with the acceleration-level constraints) ----

  // [M 0 Phi_r^T; 0 J Phi_pi^T; Phi_r Phi_pi 0] (r'', omega-bar', lambda) = (m g + f, -omega-bar~ J omega-bar +
  // n-bar, gamma) at a consistent (t, state). Writes r_ddot (nb), omega_bar_dot (nb) and lambda (nc). Cost:
  // O(nc nv) rows and an O(nx^3) LU. False if the matrix is singular or a value is not finite.
  MYRIAD_HD bool accelerations(double t, const State& s, Vec3<double>* r_ddot, Vec3<double>* omega_bar_dot,
                               double* lambda) const {
    double x[NX];
    if (!accelerations(t, s, x)) return false;
    const int nv = velocity_count();
    for (int b = 0; b < body_count(); ++b) {
      r_ddot[b] = {x[kPerBody * b], x[kPerBody * b + 1], x[kPerBody * b + 2]};
      omega_bar_dot[b] = {x[kPerBody * b + 3], x[kPerBody * b + 4], x[kPerBody * b + 5]};
    }
    for (int c = 0; c < gcon_count(); ++c) lambda[c] = x[nv + c];
    return true;
  }

  // The same, into the unknown layout of a step (x = (r''_b, omega-bar'_b per body, then lambda)).
  MYRIAD_HD bool accelerations(double t, const State& s, double* x) const {
    double scratch[NX * NX + NC + NC * NV];
    return accelerations(t, s, x, scratch);
  }

  // The scratch of the forward dynamics and of a backward Euler step at the model's own sizes, in doubles: the
  // capacity-sized arrays the overloads without scratch put on the stack (about 1.2 MB at the model-file run's 32
  // bodies and 192 GCONs, more than a device thread may hold, so integrate_rotation_matrix_instance passes
  // workspace memory).
  MYRIAD_HD int forward_scratch_size() const {
    const int nc = gcon_count(), nv = velocity_count(), nx = unknown_count();
    return nx * nx + nc + nc * nv;
  }
  MYRIAD_HD int step_scratch_size() const {
    const int nc = gcon_count(), nv = velocity_count(), nx = unknown_count();
    return nx + nx * nx + nc * nv;
  }
  MYRIAD_HD int integration_scratch_size() const { return step_scratch_size() + forward_scratch_size(); }

  // The same in the caller's scratch (forward_scratch_size() doubles).
  MYRIAD_HD bool accelerations(double t, const State& s, double* x, double* scratch) const {
    const int nb = body_count(), nc = gcon_count(), nv = velocity_count(), nx = unknown_count();
    double* matrix = scratch;
    double* phi = matrix + nx * nx;
    double* jacobian = phi + nc;
    int pivots[NX];
    for (int i = 0; i < nx * nx; ++i) matrix[i] = 0.0;
    for (int b = 0; b < nb; ++b) {
      const int o = kPerBody * b;
      const double m = model->mass[b];
      const Vec3<double> J = model->inertia[b];
      const Vec3<double> w = s.omega_bar[b];
      const Vec3<double> gyroscopic = cross(w, Vec3<double>{J.x * w.x, J.y * w.y, J.z * w.z});
      for (int k = 0; k < 3; ++k) {
        matrix[(o + k) * nx + o + k] = m;
        matrix[(o + 3 + k) * nx + o + 3 + k] = J[k];
        x[o + k] = m * model->gravity[k];
        x[o + 3 + k] = -gyroscopic[k];
      }
    }
    if (has_applied_forces()) {
      double Q[NV];
      for (int i = 0; i < nv; ++i) Q[i] = 0.0;
      add_applied_forces(t, s, Q);
      for (int i = 0; i < nv; ++i) x[i] += Q[i];
    }
    constraint_rows(t, s, phi, jacobian);
    for (int c = 0; c < nc; ++c) {
      for (int j = 0; j < nv; ++j)
        matrix[(nv + c) * nx + j] = jacobian[c * nv + j], matrix[j * nx + nv + c] = jacobian[c * nv + j];
      x[nv + c] = constraint_gamma(t, s, c);
    }
    if (!lu_factor(nx, matrix, pivots)) return false;
    lu_solve(nx, matrix, pivots, x);
    for (int i = 0; i < nx; ++i)
      if (!std::isfinite(x[i])) return false;
    return true;
  }

  // The start of an integration: x at a consistent (t0, state) from the index-1 system. Returns ok,
  // singular_matrix (the matrix above could not be factored) or non_finite.
  MYRIAD_HD InstanceStatus start(double t0, const State& s, double* x) const {
    double scratch[NX * NX + NC + NC * NV];
    return start(t0, s, x, scratch);
  }
  MYRIAD_HD InstanceStatus start(double t0, const State& s, double* x, double* scratch) const {
    if (accelerations(t0, s, x, scratch)) return InstanceStatus::ok;
    for (int i = 0; i < unknown_count(); ++i)
      if (!std::isfinite(x[i])) return InstanceStatus::non_finite;
    return InstanceStatus::singular_matrix;
  }

  // ---- backward Euler on SO(3), eqs. 32-38 ----

  // Eq. 32: the state at t_n+1 from the state at t_n and the unknowns x (any scalar). O(nb).
  template <class S>
  MYRIAD_HD void advance(double h, const State& current, const S* x, RotationMatrixState<NB, S>& next) const {
    for (int b = 0; b < body_count(); ++b) {
      const S* a = x + kPerBody * b;
      next.r_dot[b] = vec3_cast<S>(current.r_dot[b]) + S(h) * Vec3<S>{a[0], a[1], a[2]};          // 32a
      next.omega_bar[b] = vec3_cast<S>(current.omega_bar[b]) + S(h) * Vec3<S>{a[3], a[4], a[5]};  // 32b
      next.r[b] = vec3_cast<S>(current.r[b]) + S(h) * next.r_dot[b];                              // 32c
      next.A[b] = rotation_update(mat3_cast<S>(current.A[b]), S(h) * next.omega_bar[b]);          // 32d
    }
  }

  // g^A of eq. 34b at the unknowns x (any scalar): advances `next` by eq. 32, then writes g (nx): the
  // translational and rotational equations of motion per body (the applied forces at t_n+1 on the right) and
  // Phi(r_n+1, A_n+1, t_n+1) / h^2; and, when phi_q is not null, Phi_q at t_n+1 (nc x nv, as constraint_rows).
  // False if a value is not finite. O(nc nv).
  template <class S>
  MYRIAD_HD bool residual(double t, double h, const State& current, const S* x,
                          RotationMatrixState<NB, S>& next, S* g, S* phi_q = nullptr) const {
    const int nc = gcon_count(), nv = velocity_count(), nx = unknown_count();
    advance(h, current, x, next);
    for (int b = 0; b < body_count(); ++b) {
      const S* a = x + kPerBody * b;
      const double m = model->mass[b];
      const Vec3<double> J = model->inertia[b];
      const Vec3<S> w = next.omega_bar[b];
      const Vec3<S> J_w{S(J.x) * w.x, S(J.y) * w.y, S(J.z) * w.z};
      const Vec3<S> gyroscopic = cross(w, J_w);
      S* out = g + kPerBody * b;
      for (int k = 0; k < 3; ++k) {
        out[k] = S(m) * a[k] - S(m * model->gravity[k]);
        out[3 + k] = S(J[k]) * a[3 + k] + gyroscopic[k];
      }
    }
    if (has_applied_forces()) {
      S Q[NV];
      for (int i = 0; i < nv; ++i) Q[i] = S(0.0);
      add_applied_forces(t, next, Q);
      for (int i = 0; i < nv; ++i) g[i] -= Q[i];
    }
    if (phi_q != nullptr)
      for (int i = 0; i < nc * nv; ++i) phi_q[i] = S(0.0);
    const S inverse_h2(1.0 / (h * h));
    for (int c = 0; c < nc; ++c) {
      const Gcon<double>& gd = model->gcons[c];
      const GconRow<S, 3> row =
          gcon_row(gcon_cast<S>(gd), pose(next, gd.body_i), pose(next, gd.body_j), driving_value<S>(gd, t));
      g[nv + c] = inverse_h2 * row.phi;  // eq. 33c: scaled by 1/h^2
      const S lambda = x[nv + c];
      add_reaction(row.phi_r_i, row.phi_orientation_i, lambda, gd.body_i, g);
      add_reaction(row.phi_r_j, row.phi_orientation_j, lambda, gd.body_j, g);
      if (phi_q != nullptr) place_row(row, gd, phi_q + c * nv);
    }
    for (int i = 0; i < nx; ++i)
      if (!is_finite(value_of(g[i]))) return false;
    return true;
  }

  // G^A of eq. 38 (nx x nx, row-major) at the iterate x whose advanced state is `next` and whose constraint
  // Jacobian (residual's phi_q) is phi_q. Cost: nc closed-form 12 x 12 blocks, two evaluations per force
  // element on Dual<double, 12>, and O(nx^2).
  MYRIAD_HD void iteration_matrix(double t, double h, const State& next, const double* x, const double* phi_q,
                                  RotationMatrixIterationMatrix kind, double* G) const {
    const int nb = body_count(), nc = gcon_count(), nv = velocity_count(), nx = unknown_count();
    for (int i = 0; i < nx * nx; ++i) G[i] = 0.0;
    // The columns of the unknowns r'', omega-bar' first in the coordinates (dr, dtheta-bar) of the change of
    // configuration: h^2 (f^c, n^c sensitivities, less the applied forces') in the dynamic rows, Phi_q (= h^2
    // Phi_q / h^2) in the constraint rows.
    reaction_sensitivities(t, next, x + nv, h * h, G);
    if (has_applied_forces()) force_sensitivities(t, next, false, h * h, G);
    for (int c = 0; c < nc; ++c)
      for (int j = 0; j < nv; ++j) G[(nv + c) * nx + j] = phi_q[c * nv + j];
    // dtheta-bar = h^2 Jr(h omega-bar) delta_omega (eq. 36a with the exact derivative of exp; eq. 37: Jr =
    // I).
    if (kind == RotationMatrixIterationMatrix::exact)
      for (int b = 0; b < nb; ++b) {
        const Vec3<double> chi = h * next.omega_bar[b];
        Mat3<double> right_jacobian;  // column k = Jr(chi) e_k
        for (int k = 0; k < 3; ++k) {
          Vec3<double> unit{0.0, 0.0, 0.0};
          unit[k] = 1.0;
          const Vec3<double> column = right_jacobian_times(chi, unit);
          for (int i = 0; i < 3; ++i) right_jacobian.m[i][k] = column[i];
        }
        const int o = kPerBody * b + 3;
        for (int row = 0; row < nx; ++row) {
          double* entries = G + row * nx + o;
          const Vec3<double> old{entries[0], entries[1], entries[2]};
          for (int k = 0; k < 3; ++k)
            entries[k] = old.x * right_jacobian.m[0][k] + old.y * right_jacobian.m[1][k] +
                         old.z * right_jacobian.m[2][k];
        }
      }
    // The velocity columns (r', omega-bar move by h delta): the applied forces' damping, M, J-bar and the
    // gyroscopic term omega-bar~ J omega-bar.
    if (has_applied_forces()) force_sensitivities(t, next, true, h, G);
    for (int b = 0; b < nb; ++b) {
      const int o = kPerBody * b;
      const Vec3<double> J = model->inertia[b];
      const Vec3<double> w = next.omega_bar[b];
      const Mat3<double> w_J = skew(w) * Mat3<double>{{{J.x, 0.0, 0.0}, {0.0, J.y, 0.0}, {0.0, 0.0, J.z}}};
      const Mat3<double> J_w = skew(Vec3<double>{J.x * w.x, J.y * w.y, J.z * w.z});
      for (int i = 0; i < 3; ++i) {
        G[(o + i) * nx + o + i] += model->mass[b];
        G[(o + 3 + i) * nx + o + 3 + i] += J[i];
        for (int k = 0; k < 3; ++k) G[(o + 3 + i) * nx + o + 3 + k] += h * (w_J.m[i][k] - J_w.m[i][k]);
      }
    }
    // The reaction terms are linear in lambda: Phi_q^T.
    for (int c = 0; c < nc; ++c)
      for (int j = 0; j < nv; ++j) G[j * nx + nv + c] = phi_q[c * nv + j];
  }

  // One backward Euler step from (t - h, current) to t (eqs. 32-38): Newton on g^A(x) = 0 from the prediction
  // in x (nx), with the iteration matrix `kind`. Writes x, `next` (eq. 32 at the final x) and the iterations
  // taken (= iteration matrices factored). Returns ok, non_finite, singular_matrix or newton_failed (no
  // convergence within options.max_newton_iterations). Cost per iteration: one residual, one iteration matrix
  // and an O(nx^3) LU.
  MYRIAD_HD InstanceStatus
  backward_euler_step(double t, double h, const State& current, double* x, State& next, int& iterations,
                      const ImplicitOptions& options = ImplicitOptions(),
                      RotationMatrixIterationMatrix kind = RotationMatrixIterationMatrix::exact) const {
    double scratch[NX + NX * NX + NC * NV];
    return backward_euler_step(t, h, current, x, next, iterations, options, kind, scratch);
  }

  // The same in the caller's scratch (step_scratch_size() doubles).
  MYRIAD_HD InstanceStatus backward_euler_step(double t, double h, const State& current, double* x, State& next,
                                               int& iterations, const ImplicitOptions& options,
                                               RotationMatrixIterationMatrix kind, double* scratch) const {
    const int nb = body_count(), nc = gcon_count(), nv = velocity_count(), nx = unknown_count();
    double* g = scratch;
    double* G = g + nx;
    double* phi_q = G + nx * nx;
    int pivots[NX], columns[NX];
    double previous_norm = 0.0;
    for (iterations = 1; iterations <= options.max_newton_iterations; ++iterations) {
      if (!residual(t, h, current, x, next, g, phi_q)) return InstanceStatus::non_finite;
      iteration_matrix(t, h, next, x, phi_q, kind, G);
      // Eq. 38's matrix is mostly zeros (a GCON's rows touch two bodies): lu_factor's factors at a fraction of the
      // cost (linalg/dense_lu.hpp).
      if (!lu_factor_sparse(nx, G, pivots, columns)) return InstanceStatus::singular_matrix;
      lu_solve(nx, G, pivots, g);  // g = G^-1 g^A = -delta (eq. 38d)
      for (int i = 0; i < nx; ++i) x[i] -= g[i];
      advance(h, current, x, next);
      double norm = 0.0;  // weighted max norm of the correction's effect on the state
      for (int b = 0; b < nb; ++b)
        for (int k = 0; k < 3; ++k) {
          const double d_r = std::fabs(g[kPerBody * b + k]), d_w = std::fabs(g[kPerBody * b + 3 + k]);
          const double a = options.newton_atol, r = options.newton_rtol;
          norm = std::fmax(norm, h * h * d_r / (a + r * std::fabs(next.r[b][k])));
          norm = std::fmax(norm, h * d_r / (a + r * std::fabs(next.r_dot[b][k])));
          norm = std::fmax(norm, h * h * d_w / (a + r));
          norm = std::fmax(norm, h * d_w / (a + r * std::fabs(next.omega_bar[b][k])));
        }
      double lambda_scale = 0.0;
      for (int c = 0; c < nc; ++c) lambda_scale = std::fmax(lambda_scale, std::fabs(x[nv + c]));
      for (int c = 0; c < nc; ++c)
        norm = std::fmax(norm, std::fabs(g[nv + c]) /
                                   (options.newton_atol / (h * h) + options.newton_rtol * lambda_scale));
      if (!std::isfinite(norm)) return InstanceStatus::non_finite;
      const bool floor = iterations >= 3 && norm <= kNewtonRoundingFloor && norm > 0.25 * previous_norm;
      if (norm <= 1.0 || floor) return InstanceStatus::ok;
      previous_norm = norm;
    }
    iterations = options.max_newton_iterations;
    return InstanceStatus::newton_failed;
  }

  // Body `body`'s pose on 12-wide duals with directions first..first + 5 = (dr, dtheta-bar): r + dr and A
  // exp(dtheta~) to first order, A + A dtheta~ (eq. 12): d/dtheta_k = A e_k~, column j of which is A (e_k x
  // e_j). Built directly rather than by rotation_update on duals (a 12-wide 3 x 3 product). Public for the
  // tests' dual-number checks.
  MYRIAD_HD static AbsolutePose<Dual<double, 12>, Mat3<Dual<double, 12>>> perturbed_pose(const State& s, int body,
                                                                                         int first) {
    using D = Dual<double, 12>;
    AbsolutePose<D, Mat3<D>> p;
    const AbsolutePose<double, Mat3<double>> base = pose(s, body);
    for (int k = 0; k < 3; ++k) p.r[k] = D::variable(base.r[k], first + k);
    const Mat3<double>& A = base.orientation;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        p.orientation.m[i][j] = D(A.m[i][j]);
        for (int k = 0; k < 3; ++k) {
          // e_k x e_j is e_after if j = next, -e_next if j = after, 0 if j = k
          const int next = (k + 1) % 3, after = (k + 2) % 3;
          p.orientation.m[i][j].d[first + 3 + k] = j == next ? A.m[i][after] : (j == after ? -A.m[i][next] : 0.0);
        }
      }
    return p;
  }

  // 12 duals' derivatives as a 12 x 12 block (row k: value k's).
  MYRIAD_HD static void dual_block(const Dual<double, 12>* values, double* block) {
    for (int k = 0; k < 12; ++k)
      for (int l = 0; l < 12; ++l) block[k * 12 + l] = values[k].d[l];
  }

 private:
  // RSDAs first, then TSDAs, bushings and tires (the translational actuators act through their GCONs' rows instead).
  MYRIAD_HD int element_count() const {
    return model->rsda_count + model->tsda_count + model->bushing_count + model->tire_count;
  }
  MYRIAD_HD bool has_applied_forces() const { return element_count() + model->actuator_count > 0; }

  MYRIAD_HD void element_bodies(int e, int& body_i, int& body_j) const {
    if (e < model->rsda_count) {
      body_i = model->rsdas[e].body_i, body_j = model->rsdas[e].body_j;
    } else if (e < model->rsda_count + model->tsda_count) {
      body_i = model->tsdas[e - model->rsda_count].body_i, body_j = model->tsdas[e - model->rsda_count].body_j;
    } else if (e < model->rsda_count + model->tsda_count + model->bushing_count) {
      const AbsoluteBushing& b = model->bushings[e - model->rsda_count - model->tsda_count];
      body_i = b.body_i, body_j = b.body_j;
    } else {
      body_i = model->tires[e - model->rsda_count - model->tsda_count - model->bushing_count].body, body_j = 0;
    }
  }

  // The generalized forces of element e (element_count's order) on bodies i and j, from their coordinates x =
  // (r, A row by row) and rates u = (r', omega-bar) (null for the ground), added to Q_i, Q_j (kPerBody each).
  template <class S>
  MYRIAD_HD void add_element_force(int e, double t, const S* x_i, const S* u_i, const S* x_j, const S* u_j,
                                   S* Q_i, S* Q_j) const {
    if (e < model->rsda_count) {
      const AbsoluteRsda& f = model->rsdas[e];
      add_rsda_force<RotationMatrixCoordinates>(f, x_i ? x_i + 3 : nullptr, u_i ? u_i + 3 : nullptr,
                                                x_j ? x_j + 3 : nullptr, u_j ? u_j + 3 : nullptr,
                                                Q_i ? Q_i + 3 : nullptr, Q_j ? Q_j + 3 : nullptr,
                                                absolute_actuator_value(*model, f.force, t));
      return;
    }
    if (e < model->rsda_count + model->tsda_count) {
      add_tsda_force<RotationMatrixCoordinates>(*model->compiled, model->constants,
                                                model->tsdas[e - model->rsda_count], t, x_i, u_i, x_j, u_j, Q_i, Q_j);
      return;
    }
    const int bushing = e - model->rsda_count - model->tsda_count;
    if (bushing < model->bushing_count) {
      add_bushing_force<RotationMatrixCoordinates>(*model->compiled, model->constants, model->bushings[bushing], x_i,
                                                   u_i, x_j, u_j, Q_i, Q_j);
      return;
    }
    if (Q_i)
      add_tire_force<RotationMatrixCoordinates>(*model->compiled, model->constants,
                                                model->tires[bushing - model->bushing_count], t, x_i, u_i, Q_i);
  }

  template <class S>
  MYRIAD_HD static void pack_orientation(const Mat3<S>& A, S* o) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) o[3 * i + j] = A.m[i][j];
  }

  // Body `body`'s (r, A) into x (12) and (r', omega-bar) into u (6); nothing for the ground.
  template <class S>
  MYRIAD_HD static void pack_body(const RotationMatrixState<NB, S>& s, int body, S* x, S* u) {
    if (body == 0) return;
    for (int k = 0; k < 3; ++k)
      x[k] = s.r[body - 1][k], u[k] = s.r_dot[body - 1][k], u[3 + k] = s.omega_bar[body - 1][k];
    pack_orientation(s.A[body - 1], x + 3);
  }

  // Adds a GCON row's entries to row c of Phi_q (nv wide); the ground's columns are dropped.
  template <class S>
  MYRIAD_HD static void place_row(const GconRow<S, 3>& row, const Gcon<double>& g, S* out) {
    auto place = [&](int body, const Vec3<S>& r_part, const S* theta_part) {
      if (body == 0) return;
      S* o = out + kPerBody * (body - 1);
      for (int k = 0; k < 3; ++k) o[k] += r_part[k], o[3 + k] += theta_part[k];
    };
    place(g.body_i, row.phi_r_i, row.phi_orientation_i);
    place(g.body_j, row.phi_r_j, row.phi_orientation_j);
  }

  // [Phi_r^T lambda; Phi_pi^T lambda] of one GCON into body `body`'s dynamic rows of g.
  template <class S>
  MYRIAD_HD static void add_reaction(const Vec3<S>& r_part, const S* theta_part, const S& lambda, int body,
                                     S* g) {
    if (body == 0) return;
    S* o = g + kPerBody * (body - 1);
    for (int k = 0; k < 3; ++k) o[k] += r_part[k] * lambda, o[3 + k] += theta_part[k] * lambda;
  }

  // scale x the 12 x 12 block d(generalized forces of bodies i, j)/d(directions) (row-major; rows r, theta of body
  // i, then of body j; columns the same directions) added into G's dynamic rows and the two bodies' columns.
  MYRIAD_HD void add_block(int body_i, int body_j, const double* block, double scale, double* G) const {
    const int nx = unknown_count();
    const int bodies[2] = {body_i, body_j};
    for (int side = 0; side < 2; ++side) {
      if (bodies[side] == 0) continue;
      const int row_offset = kPerBody * (bodies[side] - 1);
      for (int k = 0; k < kPerBody; ++k)
        for (int other = 0; other < 2; ++other) {
          if (bodies[other] == 0) continue;
          const int column_offset = kPerBody * (bodies[other] - 1);
          for (int direction = 0; direction < kPerBody; ++direction)
            G[(row_offset + k) * nx + column_offset + direction] +=
                scale * block[(kPerBody * side + k) * 12 + kPerBody * other + direction];
        }
    }
  }

  // scale x d(Phi_q^T lambda)/d(r_b, theta-bar_b) into G's dynamic rows and (r, theta) columns: per GCON, the
  // first-order variation of its reaction forces and torques in closed form (what the seed tabulates in Tables
  // 3-6: absolute/gcon_reaction_sensitivity.hpp). The translational actuators' rows likewise, with the
  // multiplier -u(t) (their force is u Phi_q^T). O(nc) 12 x 12 blocks.
  MYRIAD_HD void reaction_sensitivities(double t, const State& s, const double* lambda, double scale,
                                        double* G) const {
    const int nc = gcon_count();
    double block[144];
    for (int c = 0; c < nc + model->actuator_count; ++c) {
      const bool actuator = c >= nc;
      const Gcon<double>& gd = actuator ? model->actuators[c - nc].gcon : model->gcons[c];
      const double weight = actuator ? -absolute_actuator_value(*model, model->actuators[c - nc].force, t) : lambda[c];
      gcon_reaction_sensitivity(gd, pose(s, gd.body_i), pose(s, gd.body_j), weight, block);
      add_block(gd.body_i, gd.body_j, block, scale, G);
    }
  }

  // -scale x the force elements' d(f, n-bar)/d(r, theta-bar) (velocity false: the poses perturbed as in
  // reaction_sensitivities) or d(f, n-bar)/d(r', omega-bar) (velocity true) into G. Two bodies per element on
  // 12-wide duals.
  MYRIAD_HD void force_sensitivities(double t, const State& s, bool velocity, double scale, double* G) const {
    using D = Dual<double, 12>;
    D x[2][12], u[2][6];
    for (int e = 0; e < element_count(); ++e) {
      int bodies[2];
      element_bodies(e, bodies[0], bodies[1]);
      for (int side = 0; side < 2; ++side) {
        const int body = bodies[side];
        if (body == 0) continue;
        if (velocity) {
          for (int k = 0; k < 3; ++k) {
            x[side][k] = D(s.r[body - 1][k]);
            u[side][k] = D::variable(s.r_dot[body - 1][k], 6 * side + k);
            u[side][3 + k] = D::variable(s.omega_bar[body - 1][k], 6 * side + 3 + k);
          }
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) x[side][3 + 3 * i + j] = D(s.A[body - 1].m[i][j]);
        } else {
          const AbsolutePose<D, Mat3<D>> p = perturbed_pose(s, body, 6 * side);
          for (int k = 0; k < 3; ++k) {
            x[side][k] = p.r[k];
            u[side][k] = D(s.r_dot[body - 1][k]), u[side][3 + k] = D(s.omega_bar[body - 1][k]);
          }
          pack_orientation(p.orientation, x[side] + 3);
        }
      }
      D Q[12];
      for (int k = 0; k < 12; ++k) Q[k] = D(0.0);
      const bool ground_i = bodies[0] == 0, ground_j = bodies[1] == 0;
      add_element_force(e, t, ground_i ? nullptr : x[0], ground_i ? nullptr : u[0], ground_j ? nullptr : x[1],
                        ground_j ? nullptr : u[1], ground_i ? nullptr : Q, ground_j ? nullptr : Q + 6);
      double block[144];
      dual_block(Q, block);
      add_block(bodies[0], bodies[1], block, -scale, G);
    }
  }
};

// Counters of a backward Euler run (integrators/implicit_newton.hpp's ImplicitStats: steps = points, one
// iteration matrix and LU per Newton iteration).
//
// Integrates `steps` backward Euler steps of size h from (t0, state): start() for x at t0, then per step
// backward_euler_step from the last point's solution x (accelerations and multipliers) as the prediction, and
// observer(step, t, state, x) after every step (step = 1..steps; also step 0 at t0). The last point's x is a
// prediction of backward Euler's own order. An extrapolation of the accelerations (integrate_implicit's Hermite
// predictor for rp and re) gains nothing in order here and can throw Newton far off where a stiff force element
// makes the accelerations jump: the stiff double pendulum's damper (C = 5e4 N m s/rad) starts at 1e6 rad/s^2 and
// falls to 1e3 in one step of 1.4e-3 s; extrapolated from there, Newton's iterates turn the bodies by radians
// within a step, where the rotations' nonlinearity leads it to a spurious root (multipliers of 2e6 N) and then to
// newton_failed, while from the last point it converges in 2.9 iterations per step. On return `state` and x hold
// the last point; the status is ok or the failing step's. scratch:
// dynamics.integration_scratch_size() doubles (the forward dynamics' part after the step's; the
// observer may use that part for forward dynamics of its own, which no step holds between calls).
template <int NB, int NC, class Observer>
MYRIAD_HD InstanceStatus integrate_rotation_matrix_backward_euler(
    const RotationMatrixDynamics<NB, NC>& dynamics, double t0, double h, long long steps,
    RotationMatrixState<NB>& state, double* x, const ImplicitOptions& options,
    RotationMatrixIterationMatrix kind, ImplicitStats& stats, double* scratch, Observer&& observer) {
  const InstanceStatus started = dynamics.start(t0, state, x, scratch + dynamics.step_scratch_size());
  if (started != InstanceStatus::ok) return started;
  observer(0LL, t0, static_cast<const RotationMatrixState<NB>&>(state), static_cast<const double*>(x));
  RotationMatrixState<NB> next;
  for (long long step = 1; step <= steps; ++step) {
    const double t = t0 + static_cast<double>(step) * h;
    int iterations = 0;
    const InstanceStatus status =
        dynamics.backward_euler_step(t, h, state, x, next, iterations, options, kind, scratch);
    ++stats.steps, ++stats.points;
    stats.newton_iterations += iterations;
    stats.residual_evaluations += iterations;
    if (iterations > stats.max_point_iterations) stats.max_point_iterations = iterations;
    if (status != InstanceStatus::ok) return status;
    state = next;
    observer(step, t, static_cast<const RotationMatrixState<NB>&>(state), static_cast<const double*>(x));
  }
  return InstanceStatus::ok;
}

}  // namespace myriad
