#pragma once
// The first-order variation of a GCON's reaction force and torque in rA (seed 002 sec. 3.1, Tables 3-6): with
// F = lambda Phi_q^T over (r_i, theta-bar_i, r_j, theta-bar_j) (Phi's theta-bar columns those of Table 2),
// the 12 x 12 block dF/d(dr_i, dtheta_i, dr_j, dtheta_j) under r -> r + dr, A -> A (I + dtheta~), in closed
// form.
//
// Every GCON is a product of two world vectors, Phi = U . W - f (DP1: a_i . a_j; DP2: a_i . d_ij; D: d_ij .
// d_ij; CD: c . d_ij), each a sum of body terms sigma (r_b [a point] + A_b v-bar) (a_b = A_b a-bar_b; d_ij =
// r_j + A_j s-bar_j - r_i - A_i s-bar_i; c constant), whose Jacobian is J = sigma [I, -A_b v-bar~] in body
// b's columns. Then
//   Phi_q^T = J_U^T W + J_W^T U,
//   d(Phi_q^T)/dq = J_U^T J_W + J_W^T J_U + sum over U's terms of sigma v-bar~ (A_b^T W)~ in (theta_b,
//   theta_b)
//                                         + sum over W's terms of sigma v-bar~ (A_b^T U)~ in (theta_b,
//                                         theta_b),
// the last from the theta-bar column sigma v-bar~ A_b^T W turning with A_b (A_b^T -> (I - dtheta~) A_b^T).
// The angle GCON (constraint_primitives.hpp), theta = atan2(s, c) of two DP1s, follows by the chain rule:
//   d(theta_q^T)/dq = (grad_s grad_c^T - grad_c grad_s^T + c H_s - s H_c) / r^2
//                     - 2 (c grad_s - s grad_c)(s grad_s + c grad_c)^T / r^4,   r^2 = s^2 + c^2.
// Equal to each GCON's row on 12-wide dual numbers over the perturbed poses (the way
// rotation_matrix_dynamics.hpp took them before, session 24; tests/absolute/rotation_matrix_dynamics_test.cpp
// holds every kind to it) at a fraction of their cost. The seed's printed tables differ from these in places
// (its DP1 (theta_i, theta_i) block a-bar_i~ A_i^T A_j a-bar_j~ is not the variation of its own Table 2 row;
// listed in docs/validation/seed002-absolute.md).
//
// Host and device, doubles, O(1) per GCON.
#include "absolute/constraint_primitives.hpp"
#include "core/hd.hpp"
#include "spatial/mat3.hpp"
#include "spatial/vec3.hpp"

namespace myriad {

namespace gcon_sensitivity_detail {

// One body term of a world vector: sign (r_side [point] + A_side v-bar); side 0 is body i, 1 body j.
struct BodyTerm {
  int side;
  double sign;
  bool point;
  Vec3<double> v_bar;
};

// A world vector: its value and up to two body terms (a constant vector has none).
struct WorldVector {
  Vec3<double> value;
  int count;
  BodyTerm terms[2];
};

using Pose = AbsolutePose<double, Mat3<double>>;

MYRIAD_HD_INLINE WorldVector attached(int side, const Pose& pose, const Vec3<double>& v_bar) {
  return {pose.orientation * v_bar, 1, {{side, 1.0, false, v_bar}, {0, 0.0, false, Vec3<double>::zero()}}};
}

MYRIAD_HD_INLINE WorldVector separation(const Pose& body_i, const Vec3<double>& s_bar_i, const Pose& body_j,
                                        const Vec3<double>& s_bar_j) {
  return {body_j.r + body_j.orientation * s_bar_j - body_i.r - body_i.orientation * s_bar_i,
          2,
          {{1, 1.0, true, s_bar_j}, {0, -1.0, true, s_bar_i}}};
}

MYRIAD_HD_INLINE WorldVector constant(const Vec3<double>& c) {
  return {c, 0, {{0, 0.0, false, Vec3<double>::zero()}, {0, 0.0, false, Vec3<double>::zero()}}};
}

// J (3 x 12, row-major) of a world vector.
MYRIAD_HD_INLINE void jacobian(const WorldVector& w, const Pose* poses, double* J) {
  for (int i = 0; i < 36; ++i) J[i] = 0.0;
  for (int t = 0; t < w.count; ++t) {
    const BodyTerm& term = w.terms[t];
    const Mat3<double>& A = poses[term.side].orientation;
    const int at = 6 * term.side;
    for (int k = 0; k < 3; ++k) {
      if (term.point) J[k * 12 + at + k] += term.sign;
      // column k of -A v-bar~ is A (e_k x v-bar)
      Vec3<double> e = Vec3<double>::zero();
      e[k] = 1.0;
      const Vec3<double> column = A * cross(e, term.v_bar);
      for (int row = 0; row < 3; ++row) J[row * 12 + at + 3 + k] += term.sign * column[row];
    }
  }
}

// Phi = U . W: its gradient (12) and d(gradient)/dq (12 x 12, row-major) added with weight `scale`.
MYRIAD_HD_INLINE void add_product(const WorldVector& U, const WorldVector& W, const Pose* poses, double scale,
                                  double* gradient, double* H) {
  double JU[36], JW[36];
  jacobian(U, poses, JU);
  jacobian(W, poses, JW);
  for (int l = 0; l < 12; ++l)
    gradient[l] += scale * (JU[l] * W.value.x + JU[12 + l] * W.value.y + JU[24 + l] * W.value.z +
                            JW[l] * U.value.x + JW[12 + l] * U.value.y + JW[24 + l] * U.value.z);
  for (int k = 0; k < 12; ++k)
    for (int l = 0; l < 12; ++l) {
      double sum = 0.0;
      for (int row = 0; row < 3; ++row)
        sum += JU[row * 12 + k] * JW[row * 12 + l] + JW[row * 12 + k] * JU[row * 12 + l];
      H[k * 12 + l] += scale * sum;
    }
  // The theta-bar columns turning with their body: sign v-bar~ (A^T partner)~ in (theta_b, theta_b).
  const auto turn = [&](const WorldVector& own, const Vec3<double>& partner) {
    for (int t = 0; t < own.count; ++t) {
      const BodyTerm& term = own.terms[t];
      const Mat3<double> block =
          skew(term.v_bar) * skew(transpose_times(poses[term.side].orientation, partner));
      const int at = 6 * term.side + 3;
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) H[(at + a) * 12 + at + b] += scale * term.sign * block.m[a][b];
    }
  };
  turn(U, W.value);
  turn(W, U.value);
}

}  // namespace gcon_sensitivity_detail

// block (12 x 12, row-major) = lambda d(Phi_q^T)/d(dr_i, dtheta_i, dr_j, dtheta_j) of GCON g at the two poses
// (the ground's pose for body 0: its rows and columns are then the caller's to drop).
MYRIAD_HD_INLINE void gcon_reaction_sensitivity(const Gcon<double>& g,
                                                const AbsolutePose<double, Mat3<double>>& body_i,
                                                const AbsolutePose<double, Mat3<double>>& body_j,
                                                double lambda, double* block) {
  using namespace gcon_sensitivity_detail;
  const Pose poses[2] = {body_i, body_j};
  double gradient[12] = {};
  for (int k = 0; k < 144; ++k) block[k] = 0.0;
  switch (g.kind) {
    case GconKind::dp1:
      add_product(attached(0, body_i, g.a_bar_i), attached(1, body_j, g.a_bar_j), poses, lambda, gradient,
                  block);
      return;
    case GconKind::dp2:
      add_product(attached(0, body_i, g.a_bar_i), separation(body_i, g.s_bar_i_P, body_j, g.s_bar_j_Q), poses,
                  lambda, gradient, block);
      return;
    case GconKind::d: {
      const WorldVector d = separation(body_i, g.s_bar_i_P, body_j, g.s_bar_j_Q);
      add_product(d, d, poses, lambda, gradient, block);
      return;
    }
    case GconKind::cd:
      add_product(constant(g.c), separation(body_i, g.s_bar_i_P, body_j, g.s_bar_j_Q), poses, lambda,
                  gradient, block);
      return;
    case GconKind::angle: {
      // s = g_i . f_j, c = f_i . f_j (a_bar_i = f-bar_i, s_bar_i_P = g-bar_i, a_bar_j = f-bar_j)
      const WorldVector f_j = attached(1, body_j, g.a_bar_j);
      const WorldVector f_i = attached(0, body_i, g.a_bar_i), g_i = attached(0, body_i, g.s_bar_i_P);
      double grad_s[12] = {}, grad_c[12] = {}, H_s[144] = {}, H_c[144] = {};
      add_product(g_i, f_j, poses, 1.0, grad_s, H_s);
      add_product(f_i, f_j, poses, 1.0, grad_c, H_c);
      const double s = dot(g_i.value, f_j.value), c = dot(f_i.value, f_j.value), r2 = s * s + c * c;
      for (int k = 0; k < 12; ++k) {
        const double grad_theta = (c * grad_s[k] - s * grad_c[k]) / r2;
        for (int l = 0; l < 12; ++l)
          block[k * 12 + l] =
              lambda *
              ((grad_s[k] * grad_c[l] - grad_c[k] * grad_s[l] + c * H_s[k * 12 + l] - s * H_c[k * 12 + l]) /
                   r2 -
               2.0 * grad_theta * (s * grad_s[l] + c * grad_c[l]) / r2);
      }
      return;
    }
  }
}

}  // namespace myriad
