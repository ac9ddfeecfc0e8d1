#pragma once
// The constrained Newton-Euler equations of seed 002 sec. 3 in absolute coordinates, as the index-3 DAE of the
// implicit integrators (integrators/implicit_dae_system.hpp), for the two representations whose coordinates
// form a vector space: rp (Euler parameters, eq. 39, with one normalization constraint per body, eq. 19) and re
// (ZXZ Euler angles, eq. 43). Body b (1..NB; 0 is the ground) has its centre of mass at r_b and orientation
// coordinates o_b (4 or 3); q = (r_1, o_1, r_2, o_2, ...), y = (q, v = q'), z = (lambda (NC GCONs),
// lambda^p (NB, rp only)). The residual rows are
//
//   q' - v = 0                                                                         (the kinematic rows)
//   m_b v_r' - m_b g + [Phi_r^T lambda]_b = 0                                          (eqs. 39a / 43a, first)
//   M_b(o) v_o' + c_b(o, v_o) - Q_b + [Phi_o^T lambda]_b (+ p_b lambda^p_b) = 0        (eqs. 39a / 43a, second)
//   Phi(q, t) = 0 (the GCONs, absolute/constraint_primitives.hpp),  1/2 (p_b^T p_b - 1) = 0 (rp)
//
// where the rotational terms come from the body's kinetic energy L(o, u) = 1/2 w^T J w, w = omega-bar(o, u)
// (2 G(p) p' for rp, B^e(e) e' for re) by Lagrange's equations: M_b(o) a = grad_u L(o, a) (L is quadratic in
// u), c_b = (d/do grad_u L(o, u)) u - grad_o L(o, u). That is 4 G^T J G p'' and the velocity terms of eqs. 39d
// and 43c, derived here by dual numbers rather than typed from the seed's printed forms (which carry OCR
// damage). The seed's bodies have principal axes along their frames and their origin at the centre of mass;
// applied forces are gravity and the model's force elements (absolute/absolute_forces.hpp: rotational and
// translational spring-damper-actuators, joint actuators, bushings and tires as generalized forces Q_b, the RSDAs
// at the anchors the model holds).
//
// Host and device; NB and NC are compile-time sizes so that the Jacobians can be taken on dual numbers of
// fixed width (integrators/dual_residual_jacobians.hpp).
#include <cmath>

#include "absolute/absolute_forces.hpp"
#include "absolute/constraint_primitives.hpp"
#include "absolute/rotation_representation.hpp"
#include "core/dual.hpp"
#include "core/hd.hpp"
#include "core/scalar.hpp"
#include "integrators/dual_residual_jacobians.hpp"
#include "linalg/dense_lu.hpp"
#include "model/time_function.hpp"

namespace myriad {

// rp: four Euler parameters per body and their normalization constraint.
struct EulerParameterCoordinates {
  static constexpr int kOrientation = 4;
  static constexpr bool kNormalized = true;
  static constexpr const char* kName = "rp";
  template <class S>
  using Orientation = Quat<S>;
  template <class S>
  MYRIAD_HD_INLINE static Quat<S> orientation(const S* o) {
    return {o[0], o[1], o[2], o[3]};
  }
  template <class S>
  MYRIAD_HD_INLINE static Quat<S> identity() {
    return {S(1.0), S(0.0), S(0.0), S(0.0)};
  }
};

// re: three ZXZ Euler angles per body (singular where sin(theta) = 0: keep the motion away from it).
struct EulerAngleCoordinates {
  static constexpr int kOrientation = 3;
  static constexpr bool kNormalized = false;
  static constexpr const char* kName = "re";
  template <class S>
  using Orientation = EulerAngles<S>;
  template <class S>
  MYRIAD_HD_INLINE static EulerAngles<S> orientation(const S* o) {
    return {o[0], o[1], o[2]};
  }
  template <class S>
  MYRIAD_HD_INLINE static EulerAngles<S> identity() {
    return {S(0.0), S(0.0), S(0.0)};
  }
};

// A GCON's driving function g(t): seed 002's form offset + rate t + amplitude cos(frequency t + phase), or a model
// file's time function (model/time_function.hpp: its packed coefficients, the same evaluation the joint-coordinate
// engine's drivers take), used as f = g or, for a DP1 that prescribes the angle g between two unit vectors, as
// f = cos g (sec. 4.2: the single pendulum's angle pi/2 + pi/4 cos 2t).
struct AbsoluteDriver {
  double offset = 0.0, amplitude = 0.0, frequency = 0.0, phase = 0.0;
  bool cosine_of_angle = false;
  double rate = 0.0;  // g gains rate * t (a crank turning at a constant rate, for an angle GCON)
  int time_function = -1;                  // a TimeFunctionKind: g from `coefficients` instead of the form above
  int points = 0;                          // the time function's table points or harmonics
  const double* coefficients = nullptr;    // its packed coefficients (the caller's memory)
  MYRIAD_HD_INLINE DrivingValue<double> at(double t) const {
    double g, g_dot, g_ddot;
    if (time_function >= 0) {
      const TimeValue value = evaluate_time_function(time_function, coefficients, points, t);
      g = value.value, g_dot = value.rate, g_ddot = value.acceleration;
    } else {
      const double angle = frequency * t + phase;
      g = offset + rate * t + amplitude * std::cos(angle);
      g_dot = rate - amplitude * frequency * std::sin(angle);
      g_ddot = -amplitude * frequency * frequency * std::cos(angle);
    }
    if (!cosine_of_angle) return {g, g_dot, g_ddot};
    return {std::cos(g), -std::sin(g) * g_dot, -std::cos(g) * g_dot * g_dot - std::sin(g) * g_ddot};
  }
};

constexpr int kMaxAbsoluteDrivers = 4;

// A mechanism in absolute coordinates: NB bodies and NC GCONs (body indices 1..NB, 0 = ground).
template <int NB, int NC>
struct AbsoluteModel {
  double mass[NB];
  Vec3<double> inertia[NB];  // principal moments J-bar (the body frame's axes are principal)
  Gcon<double> gcons[NC];
  AbsoluteDriver drivers[kMaxAbsoluteDrivers];
  Vec3<double> gravity = {0.0, 0.0, -9.81};
  AbsoluteRsda rsdas[kMaxAbsoluteRsdas];
  int rsda_count = 0;
  AbsoluteTsda tsdas[kMaxAbsoluteTsdas];
  int tsda_count = 0;
  AbsoluteActuator actuators[kMaxAbsoluteActuators];
  int actuator_count = 0;
  AbsoluteBushing bushings[kMaxAbsoluteBushings];
  int bushing_count = 0;
  AbsoluteTire tires[kMaxAbsoluteTires];
  int tire_count = 0;
  // The compiled model and the instance's packed constants its TSDAs' laws and the actuators' time functions read
  // (absolute/absolute_forces.hpp); null where the model has neither (seed 002's mechanisms).
  const CompiledModel* compiled = nullptr;
  const double* constants = nullptr;
  // The bodies and GCONs in use (the first body_count and gcon_count entries): NB and NC are capacities, so that
  // one instantiation runs any model up to them (backends/absolute_backend.hpp).
  int body_count = NB, gcon_count = NC;
};

// Force element `force`'s actuator value at t (a translational actuator's force u, an RSDA's or revolute actuator's
// torque): the compiled model's time function on the instance's constants; 0 without one or without a compiled model.
template <int NB, int NC>
MYRIAD_HD_INLINE double absolute_actuator_value(const AbsoluteModel<NB, NC>& model, int force, double t) {
  if (force < 0 || !model.compiled) return 0.0;
  return time_function_value(*model.compiled, model.constants, model.compiled->forces[force].actuator, t).value;
}

template <class Rep, int NB, int NC>
struct AbsoluteDae {
  static constexpr int K = Rep::kOrientation;
  static constexpr int kPerBody = 3 + K;
  static constexpr int NQ = NB * kPerBody;
  static constexpr int NY = 2 * NQ;
  static constexpr int NZ = NC + (Rep::kNormalized ? NB : 0);

  const AbsoluteModel<NB, NC>* model = nullptr;

  // The model's sizes (NB, NC, NQ, NY, NZ above are the capacities, equal to them for a full model).
  MYRIAD_HD int body_count() const { return model->body_count; }
  MYRIAD_HD int gcon_count() const { return model->gcon_count; }
  MYRIAD_HD int coordinate_count() const { return model->body_count * kPerBody; }
  MYRIAD_HD int differential_dimension() const { return 2 * coordinate_count(); }
  MYRIAD_HD int algebraic_dimension() const { return model->gcon_count + (Rep::kNormalized ? model->body_count : 0); }

  // rp's normalization of body b is written kappa_b / 2 (p^T p - 1) = 0 with kappa_b = max(1, 4 max J-bar_b), so that
  // its row and its multiplier's column stand as large as the body's rotational rows 4 G^T J-bar G, which leave p out
  // (G p = 0) and so rest on this row alone. Unscaled, a heavy body's normalization pivot sinks to the LU's
  // singularity threshold (linalg/dense_lu.hpp: relative to the largest entry, not row-scaling invariant): the
  // HMMWV's 2087 kg chassis (J-bar up to 3570 kg m^2) beside 0.1 kg kingpins gave 7.8e-8 against the threshold 8.1e-8
  // (max|A| = 4.65e4, n = 493) at the onset of its bump, and rp ended singular_matrix there while re and rA, which
  // have no such row, ran on. The scale changes no solution, only the multiplier (lambda / kappa).
  MYRIAD_HD double normalization_scale(int b) const {
    const Vec3<double> J = model->inertia[b];
    return std::fmax(1.0, 4.0 * std::fmax(J.x, std::fmax(J.y, J.z)));
  }

  // The kinetic energy of rotation 1/2 w^T J w, w = omega-bar(o, u), for any scalar T (nested duals).
  template <class T>
  MYRIAD_HD static T rotational_energy(const T* o, const T* u, const Vec3<double>& J) {
    const Vec3<T> w = body_angular_velocity(Rep::orientation(o), Rep::orientation(u));
    return T(0.5) * (T(J.x) * w.x * w.x + T(J.y) * w.y * w.y + T(J.z) * w.z * w.z);
  }

  // M(o) a + c(o, u) (K values) by Lagrange's equations on dual numbers of the caller's scalar S.
  template <class S>
  MYRIAD_HD static void rotational_terms(const S* o, const S* u, const S* a, const Vec3<double>& J, S* out) {
    using D = Dual<S, K>;
    D od[K], ud[K];
    // M a = grad_u L(o, a)
    for (int k = 0; k < K; ++k) od[k] = D(o[k]), ud[k] = D(a[k]), ud[k].d[k] = S(1.0);
    const D grad_u = rotational_energy(od, ud, J);
    // - grad_o L(o, u)
    for (int k = 0; k < K; ++k) od[k] = D(o[k]), od[k].d[k] = S(1.0), ud[k] = D(u[k]);
    const D grad_o = rotational_energy(od, ud, J);
    // (d/do grad_u L(o, u)) u: the outer direction moves o along u, the inner ones differentiate in u
    using E = Dual<D, 1>;
    E oe[K], ue[K];
    for (int k = 0; k < K; ++k) {
      oe[k] = E(D(o[k]));
      oe[k].d[0] = D(u[k]);
      D inner(u[k]);
      inner.d[k] = S(1.0);
      ue[k] = E(inner);
    }
    const E mixed = rotational_energy(oe, ue, J);
    for (int k = 0; k < K; ++k) out[k] = grad_u.d[k] + mixed.d[0].d[k] - grad_o.d[k];
  }

  template <class S>
  MYRIAD_HD static AbsolutePose<S, typename Rep::template Orientation<S>> pose(const S* q, int body) {
    if (body == 0) return {Vec3<S>{S(0.0), S(0.0), S(0.0)}, Rep::template identity<S>()};
    const S* b = q + (body - 1) * kPerBody;
    return {Vec3<S>{b[0], b[1], b[2]}, Rep::orientation(b + 3)};
  }

  template <class S>
  MYRIAD_HD DrivingValue<S> driving_value(const Gcon<double>& g, double t) const {
    if (g.driver < 0) return {S(g.f_constant), S(0.0), S(0.0)};
    const DrivingValue<double> f = model->drivers[g.driver].at(t);
    return {S(f.f), S(f.f_dot), S(f.f_ddot)};
  }

  template <class S>
  MYRIAD_HD bool residual_of(double t, const S* y, const S* ydot, const S* z, S* r) const {
    [[maybe_unused]] const int nb = body_count(), nc = gcon_count(), nq = coordinate_count(), ny = 2 * nq,
                               nz = algebraic_dimension();
    const S* q = y;
    const S* v = y + nq;
    const S* a = ydot + nq;
    for (int i = 0; i < nq; ++i) r[i] = ydot[i] - v[i];
    S* dyn = r + nq;
    for (int b = 0; b < nb; ++b) {
      const int o = b * kPerBody;
      const double m = model->mass[b];
      dyn[o + 0] = S(m) * a[o + 0] - S(m * model->gravity.x);
      dyn[o + 1] = S(m) * a[o + 1] - S(m * model->gravity.y);
      dyn[o + 2] = S(m) * a[o + 2] - S(m * model->gravity.z);
      rotational_terms(q + o + 3, v + o + 3, a + o + 3, model->inertia[b], dyn + o + 3);
      if (Rep::kNormalized)  // Phi_p^T lambda^p with Phi = 1/2 (p^T p - 1)
        for (int k = 0; k < K; ++k) dyn[o + 3 + k] += S(normalization_scale(b)) * q[o + 3 + k] * z[nc + b];
    }
    S applied[NQ];
    for (int i = 0; i < nq; ++i) applied[i] = S(0.0);
    add_applied_forces(t, q, v, applied);
    for (int i = 0; i < nq; ++i) dyn[i] -= applied[i];
    S* phi = r + 2 * nq;
    for (int c = 0; c < nc; ++c) {
      const Gcon<S> g = gcon_cast<S>(model->gcons[c]);
      const auto row = gcon_row(g, pose(q, g.body_i), pose(q, g.body_j), driving_value<S>(model->gcons[c], t));
      phi[c] = row.phi;
      const S lambda = z[c];
      if (g.body_i > 0) {
        S* f = dyn + (g.body_i - 1) * kPerBody;
        f[0] += row.phi_r_i.x * lambda, f[1] += row.phi_r_i.y * lambda, f[2] += row.phi_r_i.z * lambda;
        for (int k = 0; k < K; ++k) f[3 + k] += row.phi_orientation_i[k] * lambda;
      }
      if (g.body_j > 0) {
        S* f = dyn + (g.body_j - 1) * kPerBody;
        f[0] += row.phi_r_j.x * lambda, f[1] += row.phi_r_j.y * lambda, f[2] += row.phi_r_j.z * lambda;
        for (int k = 0; k < K; ++k) f[3 + k] += row.phi_orientation_j[k] * lambda;
      }
    }
    if (Rep::kNormalized)
      for (int b = 0; b < nb; ++b) {
        const S* p = q + b * kPerBody + 3;
        const S norm2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3];
        phi[nc + b] = S(0.5 * normalization_scale(b)) * (norm2 - S(1.0));
      }
    for (int i = 0; i < ny + nz; ++i)
      if (!is_finite(value_of(r[i]))) return false;
    return true;
  }

  MYRIAD_HD bool residual(double t, const double* y, const double* ydot, const double* z, double* r) const {
    return residual_of(t, y, ydot, z, r);
  }

  // The residual's Jacobians (layout of integrators/dual_residual_jacobians.hpp), assembled block by block as seed
  // 002 assembles its iteration matrices (eqs. 44-45): identity blocks of the kinematic rows; per body the mass,
  // the rotational terms' partials in (o, u, a) (dual numbers of width 3 K on that body alone) and the
  // normalization's p and lambda^p; per GCON its row (Phi_q, the algebraic rows and the multipliers' columns) and
  // the reaction-force sensitivity d(Phi_q^T lambda)/dq (the row on dual numbers over the two bodies'
  // coordinates, width 2 (3 + K)); per RSDA its force's partials (width 4 K), per TSDA and per bushing its
  // two bodies' (width 4 (3 + K)), per tire its wheel's. Equal to dual_residual_jacobians
  // on the whole residual (a test checks it) at O(nb K^3 + nc (3 + K)^2) instead of three passes of width ny or
  // nz over every row. False if a value is not finite.
  MYRIAD_HD bool residual_jacobians(double t, const double* y, const double* ydot, const double* z, double* r,
                                    double* r_y, double* r_ydot, double* r_z) const {
    [[maybe_unused]] const int nb = body_count(), nc = gcon_count(), nq = coordinate_count(), ny = 2 * nq,
                               nz = algebraic_dimension();
    const int nr = ny + nz;
    if (!residual_of(t, y, ydot, z, r)) return false;
    for (int i = 0; i < nr * ny; ++i) r_y[i] = 0.0, r_ydot[i] = 0.0;
    for (int i = 0; i < nr * nz; ++i) r_z[i] = 0.0;
    const double* q = y;
    const double* v = y + nq;
    const double* a = ydot + nq;
    for (int i = 0; i < nq; ++i) r_ydot[i * ny + i] = 1.0, r_y[i * ny + nq + i] = -1.0;
    for (int b = 0; b < nb; ++b) {
      const int o = b * kPerBody, row = nq + o;
      for (int k = 0; k < 3; ++k) r_ydot[(row + k) * ny + nq + o + k] = model->mass[b];
      using D = Dual<double, 3 * K>;
      D od[K], ud[K], ad[K], terms[K];
      for (int k = 0; k < K; ++k)
        od[k] = D::variable(q[o + 3 + k], k), ud[k] = D::variable(v[o + 3 + k], K + k),
        ad[k] = D::variable(a[o + 3 + k], 2 * K + k);
      rotational_terms(od, ud, ad, model->inertia[b], terms);
      for (int k = 0; k < K; ++k) {
        double* ry = r_y + (row + 3 + k) * ny;
        for (int j = 0; j < K; ++j) {
          ry[o + 3 + j] += terms[k].d[j];
          ry[nq + o + 3 + j] += terms[k].d[K + j];
          r_ydot[(row + 3 + k) * ny + nq + o + 3 + j] += terms[k].d[2 * K + j];
        }
        if (Rep::kNormalized) {
          const double kappa = normalization_scale(b);
          ry[o + 3 + k] += kappa * z[nc + b];
          r_z[(row + 3 + k) * nz + nc + b] = kappa * q[o + 3 + k];
          r_y[(2 * nq + nc + b) * ny + o + 3 + k] = kappa * q[o + 3 + k];
        }
      }
    }
    // A body's first column among the coordinates, -1 for the ground.
    const auto first_column = [](int body) { return body > 0 ? (body - 1) * kPerBody : -1; };
    // GCON c's row (Phi_q, Phi_q^T) and reaction sensitivity with weight lambda_c; past nc the actuators', whose
    // force u dPhi/dq is a reaction with weight -u (no algebraic row).
    for (int c = 0; c < nc + model->actuator_count; ++c) {
      constexpr int W = 2 * kPerBody;
      using D = Dual<double, W>;
      const bool actuator = c >= nc;
      const Gcon<double>& g = actuator ? model->actuators[c - nc].gcon : model->gcons[c];
      const double weight = actuator ? -absolute_actuator_value(*model, model->actuators[c - nc].force, t) : z[c];
      const int ci = first_column(g.body_i), cj = first_column(g.body_j);
      D qd[2 * kPerBody];
      for (int k = 0; k < kPerBody; ++k) {
        qd[k] = ci >= 0 ? D::variable(q[ci + k], k) : D(0.0);
        qd[kPerBody + k] = cj >= 0 ? D::variable(q[cj + k], kPerBody + k) : D(0.0);
      }
      const auto pose_of = [&](const D* x, int body) {
        return body > 0 ? AbsolutePose<D, typename Rep::template Orientation<D>>{Vec3<D>{x[0], x[1], x[2]},
                                                                                Rep::orientation(x + 3)}
                        : pose<D>(static_cast<const D*>(nullptr), 0);
      };
      const auto row = gcon_row(gcon_cast<D>(g), pose_of(qd, g.body_i), pose_of(qd + kPerBody, g.body_j),
                                driving_value<D>(g, t));
      // The row's entries per body: (r, orientation).
      const auto entries = [&](int side, int k) -> const D& {
        if (side == 0) return k < 3 ? row.phi_r_i[k] : row.phi_orientation_i[k - 3];
        return k < 3 ? row.phi_r_j[k] : row.phi_orientation_j[k - 3];
      };
      const int columns[2] = {ci, cj};
      for (int side = 0; side < 2; ++side) {
        if (columns[side] < 0) continue;
        for (int k = 0; k < kPerBody; ++k) {
          const D& e = entries(side, k);
          const int dyn_row = nq + columns[side] + k;
          if (!actuator) {
            r_y[(2 * nq + c) * ny + columns[side] + k] += e.value;  // Phi_q
            r_z[dyn_row * nz + c] += e.value;                       // Phi_q^T
          }
          for (int other = 0; other < 2; ++other)  // d(Phi_q^T lambda)/dq
            if (columns[other] >= 0)
              for (int j = 0; j < kPerBody; ++j)
                r_y[dyn_row * ny + columns[other] + j] += weight * e.d[other * kPerBody + j];
        }
      }
    }
    for (int e = 0; e < model->rsda_count; ++e) {  // -dQ/d(o, u)
      const AbsoluteRsda& f = model->rsdas[e];
      using D = Dual<double, 4 * K>;
      const int ci = first_column(f.body_i), cj = first_column(f.body_j);
      D oi[K], ui[K], oj[K], uj[K], Qi[K], Qj[K];
      for (int k = 0; k < K; ++k) {
        if (ci >= 0) oi[k] = D::variable(q[ci + 3 + k], k), ui[k] = D::variable(v[ci + 3 + k], K + k);
        if (cj >= 0) oj[k] = D::variable(q[cj + 3 + k], 2 * K + k), uj[k] = D::variable(v[cj + 3 + k], 3 * K + k);
        Qi[k] = D(0.0), Qj[k] = D(0.0);
      }
      add_rsda_force<Rep>(f, ci >= 0 ? oi : nullptr, ci >= 0 ? ui : nullptr, cj >= 0 ? oj : nullptr,
                          cj >= 0 ? uj : nullptr, ci >= 0 ? Qi : nullptr, cj >= 0 ? Qj : nullptr,
                          absolute_actuator_value(*model, f.force, t));
      const int columns[2] = {ci, cj};
      const D* Q[2] = {Qi, Qj};
      for (int side = 0; side < 2; ++side) {
        if (columns[side] < 0) continue;
        for (int k = 0; k < K; ++k) {
          double* ry = r_y + (nq + columns[side] + 3 + k) * ny;
          for (int other = 0; other < 2; ++other)
            if (columns[other] >= 0)
              for (int j = 0; j < K; ++j) {
                ry[columns[other] + 3 + j] -= Q[side][k].d[2 * other * K + j];
                ry[nq + columns[other] + 3 + j] -= Q[side][k].d[2 * other * K + K + j];
              }
        }
      }
    }
    for (int e = 0; e < model->tsda_count; ++e) {  // -dQ/d(x, u) of both ends' bodies
      const AbsoluteTsda& f = model->tsdas[e];
      subtract_pair_force_jacobian(f.body_i, f.body_j, q, v, r_y, [&](auto... args) {
        add_tsda_force<Rep>(*model->compiled, model->constants, f, t, args...);
      });
    }
    for (int e = 0; e < model->bushing_count; ++e) {  // likewise
      const AbsoluteBushing& f = model->bushings[e];
      subtract_pair_force_jacobian(f.body_i, f.body_j, q, v, r_y, [&](auto... args) {
        add_bushing_force<Rep>(*model->compiled, model->constants, f, args...);
      });
    }
    for (int e = 0; e < model->tire_count; ++e) {  // the wheel's alone (its pair: the ground)
      const AbsoluteTire& f = model->tires[e];
      subtract_pair_force_jacobian(f.body, 0, q, v, r_y, [&](auto* x, auto* u, auto*, auto*, auto* Q, auto*) {
        add_tire_force<Rep>(*model->compiled, model->constants, f, t, x, u, Q);
      });
    }
    for (int i = 0; i < nr * ny; ++i)
      if (!is_finite(r_y[i]) || !is_finite(r_ydot[i])) return false;
    return true;
  }

  // -dQ/d(x, u) of a force element between bodies i and j (0: the ground) into r_y's dynamic rows: its generalized
  // forces add(x_i, u_i, x_j, u_j, Q_i, Q_j) (null for the ground) on dual numbers over both bodies' coordinates
  // and rates (width 4 (3 + K)).
  template <class Add>
  MYRIAD_HD void subtract_pair_force_jacobian(int body_i, int body_j, const double* q, const double* v, double* r_y,
                                              const Add& add) const {
    constexpr int W = 4 * kPerBody;
    using D = Dual<double, W>;
    const int nq = coordinate_count(), ny = 2 * nq;
    const int ci = body_i > 0 ? (body_i - 1) * kPerBody : -1, cj = body_j > 0 ? (body_j - 1) * kPerBody : -1;
    D xi[kPerBody], ui[kPerBody], xj[kPerBody], uj[kPerBody], Qi[kPerBody], Qj[kPerBody];
    for (int k = 0; k < kPerBody; ++k) {
      if (ci >= 0) xi[k] = D::variable(q[ci + k], k), ui[k] = D::variable(v[ci + k], kPerBody + k);
      if (cj >= 0) xj[k] = D::variable(q[cj + k], 2 * kPerBody + k), uj[k] = D::variable(v[cj + k], 3 * kPerBody + k);
      Qi[k] = D(0.0), Qj[k] = D(0.0);
    }
    add(ci >= 0 ? xi : nullptr, ci >= 0 ? ui : nullptr, cj >= 0 ? xj : nullptr, cj >= 0 ? uj : nullptr,
        ci >= 0 ? Qi : nullptr, cj >= 0 ? Qj : nullptr);
    const int columns[2] = {ci, cj};
    const D* Q[2] = {Qi, Qj};
    for (int side = 0; side < 2; ++side) {
      if (columns[side] < 0) continue;
      for (int k = 0; k < kPerBody; ++k) {
        double* ry = r_y + (nq + columns[side] + k) * ny;
        for (int other = 0; other < 2; ++other)
          if (columns[other] >= 0)
            for (int j = 0; j < kPerBody; ++j) {
              ry[columns[other] + j] -= Q[side][k].d[2 * other * kPerBody + j];
              ry[nq + columns[other] + j] -= Q[side][k].d[2 * other * kPerBody + kPerBody + j];
            }
      }
    }
  }

  // The same by dual numbers through the whole residual (three passes of width ny, ny and nz): the check of the
  // assembled form above.
  MYRIAD_HD bool dual_residual_jacobians_whole(double t, const double* y, const double* ydot, const double* z,
                                               double* r, double* r_y, double* r_ydot, double* r_z) const {
    return dual_residual_jacobians<NY, NZ>(*this, t, y, ydot, z, r, r_y, r_ydot, r_z);
  }

  // The force elements' generalized forces at (t, q, v), added to Q (nq; gravity is not among them).
  template <class S>
  MYRIAD_HD void add_applied_forces(double t, const S* q, const S* v, S* Q) const {
    for (int e = 0; e < model->rsda_count; ++e) {
      const AbsoluteRsda& f = model->rsdas[e];
      const auto part = [](auto* x, int body) { return body > 0 ? x + (body - 1) * kPerBody + 3 : nullptr; };
      add_rsda_force<Rep>(f, part(q, f.body_i), part(v, f.body_i), part(q, f.body_j), part(v, f.body_j),
                          part(Q, f.body_i), part(Q, f.body_j), absolute_actuator_value(*model, f.force, t));
    }
    for (int e = 0; e < model->tsda_count; ++e) {
      const AbsoluteTsda& f = model->tsdas[e];
      const auto part = [](auto* x, int body) { return body > 0 ? x + (body - 1) * kPerBody : nullptr; };
      add_tsda_force<Rep>(*model->compiled, model->constants, f, t, part(q, f.body_i), part(v, f.body_i),
                          part(q, f.body_j), part(v, f.body_j), part(Q, f.body_i), part(Q, f.body_j));
    }
    for (int e = 0; e < model->bushing_count; ++e) {
      const AbsoluteBushing& f = model->bushings[e];
      const auto part = [](auto* x, int body) { return body > 0 ? x + (body - 1) * kPerBody : nullptr; };
      add_bushing_force<Rep>(*model->compiled, model->constants, f, part(q, f.body_i), part(v, f.body_i),
                             part(q, f.body_j), part(v, f.body_j), part(Q, f.body_i), part(Q, f.body_j));
    }
    for (int e = 0; e < model->tire_count; ++e) {
      const AbsoluteTire& f = model->tires[e];
      const int at = (f.body - 1) * kPerBody;
      add_tire_force<Rep>(*model->compiled, model->constants, f, t, q + at, v + at, Q + at);
    }
    for (int e = 0; e < model->actuator_count; ++e) {  // u dPhi/dq
      const Gcon<S> g = gcon_cast<S>(model->actuators[e].gcon);
      const DrivingValue<S> none{S(0.0), S(0.0), S(0.0)};
      const auto row = gcon_row(g, pose(q, g.body_i), pose(q, g.body_j), none);
      const S u = S(absolute_actuator_value(*model, model->actuators[e].force, t));
      if (g.body_i > 0) {
        S* f = Q + (g.body_i - 1) * kPerBody;
        f[0] += u * row.phi_r_i.x, f[1] += u * row.phi_r_i.y, f[2] += u * row.phi_r_i.z;
        for (int k = 0; k < K; ++k) f[3 + k] += u * row.phi_orientation_i[k];
      }
      if (g.body_j > 0) {
        S* f = Q + (g.body_j - 1) * kPerBody;
        f[0] += u * row.phi_r_j.x, f[1] += u * row.phi_r_j.y, f[2] += u * row.phi_r_j.z;
        for (int k = 0; k < K; ++k) f[3 + k] += u * row.phi_orientation_j[k];
      }
    }
  }

  // The mass matrix block of a body's orientation coordinates at o (K x K, row-major): M(o) e_col =
  // rotational_terms(o, 0, e_col), since L is quadratic in the rates (c(o, 0) = 0).
  template <class S>
  MYRIAD_HD static void rotational_mass(const S* o, const Vec3<double>& J, S* M) {
    S zero[K];
    for (int k = 0; k < K; ++k) zero[k] = S(0.0);
    for (int col = 0; col < K; ++col) {
      S unit[K], column[K];
      for (int k = 0; k < K; ++k) unit[k] = S(k == col ? 1.0 : 0.0);
      rotational_terms(o, zero, unit, J, column);
      for (int k = 0; k < K; ++k) M[k * K + col] = column[k];
    }
  }

  // Forward dynamics at (t, q, v) (the index-1 system): [M Phi_q^T; Phi_q 0] (q'', lambda) = (Q - h, gamma), where
  // M and h (the dynamic rows at q'' = 0, lambda = 0: gravity and the velocity terms) come body by body from
  // rotational_terms, Q from the force elements, Phi_q from the GCON rows (and p^T for the normalizations), gamma
  // from the GCONs (and -p'^T p'). Writes q'' (nq) and z (nz). Any scalar S: on dual numbers it differentiates
  // the accelerations (absolute/state_space.hpp's integration Jacobians). Cheap enough to integrate as an ODE: no
  // ny-wide dual numbers. Cost: O(nb K^2 + nc) evaluations and an O((nq + nz)^3) LU. False if the matrix is
  // singular (re at sin(theta) = 0) or a value is not finite.
  template <class S>
  MYRIAD_HD bool accelerations_of(double t, const S* q, const S* v, S* q_ddot, S* z) const {
    S scratch[kAccelerationScratch];
    return accelerations_into(t, q, v, q_ddot, z, scratch);
  }
  MYRIAD_HD bool accelerations(double t, const double* y, double* q_ddot, double* z) const {
    return accelerations_of(t, y, y + coordinate_count(), q_ddot, z);
  }

  // The scratch accelerations_into needs, in S's: the matrix, its right-hand side, phi and Phi_q at the model's
  // own sizes (kAccelerationScratch at the capacities, which is what accelerations_of puts on the stack: about
  // 3.3 MB at the model-file run's 48 bodies and 256 GCONs, more than a device thread's stack may hold, so the run
  // passes workspace memory).
  static constexpr int kAccelerationScratch = (NQ + NZ) * (NQ + NZ) + (NQ + NZ) + NZ + NZ * NQ;
  MYRIAD_HD int acceleration_scratch_size() const {
    const int nq = coordinate_count(), nz = algebraic_dimension();
    return (nq + nz) * (nq + nz) + (nq + nz) + nz + nz * nq;
  }

  // accelerations_of in the caller's scratch (acceleration_scratch_size() values of S).
  template <class S>
  MYRIAD_HD bool accelerations_into(double t, const S* q, const S* v, S* q_ddot, S* z, S* scratch) const {
    [[maybe_unused]] const int nb = body_count(), nc = gcon_count(), nq = coordinate_count(), ny = 2 * nq,
                               nz = algebraic_dimension();
    const int N = nq + nz;
    S* A = scratch;  // the leading N x N, packed
    S* b = A + N * N;
    S* phi = b + N;
    S* jacobian = phi + nz;
    int pivots[NQ + NZ];
    for (int i = 0; i < N * N; ++i) A[i] = S(0.0);
    for (int i = 0; i < nq; ++i) b[i] = S(0.0);
    add_applied_forces(t, q, v, b);
    for (int body = 0; body < nb; ++body) {
      const int o = body * kPerBody;
      const double m = model->mass[body];
      for (int k = 0; k < 3; ++k) A[(o + k) * N + o + k] = S(m);
      b[o + 0] += S(m * model->gravity.x), b[o + 1] += S(m * model->gravity.y), b[o + 2] += S(m * model->gravity.z);
      S zero[K], c[K], M[K * K];
      for (int k = 0; k < K; ++k) zero[k] = S(0.0);
      rotational_terms(q + o + 3, v + o + 3, zero, model->inertia[body], c);
      rotational_mass(q + o + 3, model->inertia[body], M);
      for (int k = 0; k < K; ++k) {
        b[o + 3 + k] -= c[k];
        for (int col = 0; col < K; ++col) A[(o + 3 + k) * N + o + 3 + col] = M[k * K + col];
      }
    }
    constraint_rows_of(t, q, phi, jacobian);
    for (int c = 0; c < nz; ++c) {
      for (int j = 0; j < nq; ++j) A[(nq + c) * N + j] = jacobian[c * nq + j], A[j * N + nq + c] = jacobian[c * nq + j];
      b[nq + c] = constraint_gamma_of(t, q, v, c);
    }
    if (!detail::lu_factor_impl(N, A, pivots)) return false;
    detail::lu_solve_impl(N, A, pivots, b);
    for (int i = 0; i < nq; ++i) q_ddot[i] = b[i];
    for (int c = 0; c < nz; ++c) z[c] = b[nq + c];
    for (int i = 0; i < N; ++i)
      if (!is_finite(value_of(b[i]))) return false;
    return true;
  }

  // The algebraic rows at (t, q): phi (nz: the GCONs, then the rp normalizations) and their Jacobian Phi_q
  // (nz x nq, row-major) from the GCON rows (seed 002 Table 2, eqs. 20, 26) and p^T. O(nz nq). Any scalar.
  template <class S>
  MYRIAD_HD void constraint_rows_of(double t, const S* q, S* phi, S* jacobian) const {
    [[maybe_unused]] const int nb = body_count(), nc = gcon_count(), nq = coordinate_count(), ny = 2 * nq,
                               nz = algebraic_dimension();
    for (int i = 0; i < nz * nq; ++i) jacobian[i] = S(0.0);
    for (int c = 0; c < nc; ++c) {
      const Gcon<S> g = gcon_cast<S>(model->gcons[c]);
      const auto row = gcon_row(g, pose(q, g.body_i), pose(q, g.body_j), driving_value<S>(model->gcons[c], t));
      phi[c] = row.phi;
      auto place = [&](int body, const Vec3<S>& r_part, const S* o_part) {
        if (body == 0) return;
        S* out = jacobian + c * nq + (body - 1) * kPerBody;
        out[0] += r_part.x, out[1] += r_part.y, out[2] += r_part.z;
        for (int k = 0; k < K; ++k) out[3 + k] += o_part[k];
      };
      place(g.body_i, row.phi_r_i, row.phi_orientation_i);
      place(g.body_j, row.phi_r_j, row.phi_orientation_j);
    }
    if (Rep::kNormalized)
      for (int body = 0; body < nb; ++body) {
        const S* p = q + body * kPerBody + 3;
        const double kappa = normalization_scale(body);
        phi[nc + body] = S(0.5 * kappa) * (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] + p[3] * p[3] - S(1.0));
        for (int k = 0; k < K; ++k) jacobian[(nc + body) * nq + body * kPerBody + 3 + k] = S(kappa) * p[k];
      }
  }
  MYRIAD_HD void constraint_rows(double t, const double* q, double* phi, double* jacobian) const {
    constraint_rows_of(t, q, phi, jacobian);
  }

  // nu of algebraic row c: f'(t) of a driven GCON, 0 otherwise (eqs. 17, 21, 27).
  MYRIAD_HD double constraint_nu(double t, int c) const {
    const int nc = gcon_count();
    return c < nc ? gcon_nu(driving_value<double>(model->gcons[c], t)) : 0.0;
  }

  // The implicit-DAE start: y' = (v, q'') and z from the forward dynamics at a consistent (q, v).
  MYRIAD_HD bool consistent_start(double t, const double* y, double* ydot, double* z) const {
    const int nq = coordinate_count();
    for (int i = 0; i < nq; ++i) ydot[i] = y[nq + i];
    return accelerations(t, y, ydot + nq, z);
  }

  // gamma of algebraic row c (GCON c, or body c - nc's normalization), so that Phi_q q'' = gamma. Any scalar.
  template <class S>
  MYRIAD_HD S constraint_gamma_of(double t, const S* q, const S* v, int c) const {
    const int nc = gcon_count();
    if (c >= nc) {
      const S* p_dot = v + (c - nc) * kPerBody + 3;
      return -S(normalization_scale(c - nc)) *
             (p_dot[0] * p_dot[0] + p_dot[1] * p_dot[1] + p_dot[2] * p_dot[2] + p_dot[3] * p_dot[3]);
    }
    const Gcon<S> g = gcon_cast<S>(model->gcons[c]);
    using O = typename Rep::template Orientation<S>;
    auto velocity = [&](int body) {
      AbsoluteVelocity<S, O> out;
      if (body == 0) {
        const S zero_rates[4] = {S(0.0), S(0.0), S(0.0), S(0.0)};
        out.r_dot = Vec3<S>{S(0.0), S(0.0), S(0.0)};
        out.orientation_rate = Rep::orientation(zero_rates);
      } else {
        const S* w = v + (body - 1) * kPerBody;
        out.r_dot = Vec3<S>{w[0], w[1], w[2]};
        out.orientation_rate = Rep::orientation(w + 3);
      }
      return out;
    };
    return gcon_gamma(g, pose(q, g.body_i), velocity(g.body_i), pose(q, g.body_j), velocity(g.body_j),
                      driving_value<S>(model->gcons[c], t));
  }
  MYRIAD_HD double constraint_gamma(double t, const double* y, int c) const {
    return constraint_gamma_of(t, y, y + coordinate_count(), c);
  }
};

}  // namespace myriad
