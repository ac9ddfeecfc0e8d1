#pragma once
// The kinematics analysis of seed 002 sec. 2 in the rA representation, for a mechanism whose drivers take up
// every degree of freedom (NC = 6 NB), as absolute/absolute_kinematics.hpp does it for rp and re: the
// position analysis solves Phi(r, A, t) = 0 by Newton's method in the body-frame virtual rotations (eq. 9
// with the Jacobian [Phi_r Phi_pi] of eq. 14c / Table 2): each correction (dr, dtheta-bar) moves r by -dr and
// turns A to A exp(-dtheta-bar~) (rotation_update, eq. 12), so A never leaves SO(3); then the velocity
// analysis Phi_q (r', omega-bar) = nu (eq. 15b) and the acceleration analysis Phi_q (r'', omega-bar') = gamma
// (eq. 16). Rows, nu and gamma are RotationMatrixDynamics's (one source for the constraint layer). Host and
// device, no allocation.
#include <cmath>

#include "absolute/rotation_matrix_dynamics.hpp"
#include "linalg/dense_lu.hpp"

namespace myriad {

template <int NB, int NC>
struct RotationMatrixKinematics {
  using Dynamics = RotationMatrixDynamics<NB, NC>;
  using State = RotationMatrixState<NB>;
  static constexpr int NV = Dynamics::NV;
  static_assert(NC == NV, "the kinematics analysis needs as many constraints as velocities (0 DOF)");

  Dynamics dynamics;

  // Newton on Phi(r, A, t) = 0 from the pose in `s` (the previous time's solution) until the correction's max
  // norm (m and rad) is below `tolerance` (seed 002 sec. 4.3: 1e-10). Writes s.r, s.A and the iterations
  // taken; false if the Jacobian is singular, a value is not finite, or `max_iterations` pass. Cost per
  // iteration: O(NC NV) rows and an O(NV^3) LU.
  MYRIAD_HD bool positions(double t, State& s, int& iterations, double tolerance = 1e-10,
                           int max_iterations = 25) const {
    double phi[NC], jacobian[NC * NV];
    int pivots[NV];
    for (iterations = 1; iterations <= max_iterations; ++iterations) {
      dynamics.constraint_rows(t, s, phi, jacobian);
      if (!lu_factor(NV, jacobian, pivots)) return false;
      lu_solve(NV, jacobian, pivots, phi);
      double correction = 0.0;
      for (int b = 0; b < NB; ++b) {
        const double* d = phi + Dynamics::kPerBody * b;
        s.r[b] -= Vec3<double>{d[0], d[1], d[2]};
        s.A[b] = rotation_update(s.A[b], Vec3<double>{-d[3], -d[4], -d[5]});
      }
      for (int i = 0; i < NV; ++i) correction = std::fmax(correction, std::fabs(phi[i]));
      if (!(correction == correction)) return false;
      if (correction < tolerance) return true;
    }
    return false;
  }

  // Phi_q (r', omega-bar) = nu at a solved pose: writes s.r_dot and s.omega_bar. O(NV^3).
  MYRIAD_HD bool velocities(double t, State& s) const {
    double phi[NC], jacobian[NC * NV], v[NV];
    int pivots[NV];
    dynamics.constraint_rows(t, s, phi, jacobian);
    for (int c = 0; c < NC; ++c) v[c] = dynamics.constraint_nu(t, c);
    if (!lu_factor(NV, jacobian, pivots)) return false;
    lu_solve(NV, jacobian, pivots, v);
    for (int b = 0; b < NB; ++b) {
      const double* d = v + Dynamics::kPerBody * b;
      s.r_dot[b] = {d[0], d[1], d[2]};
      s.omega_bar[b] = {d[3], d[4], d[5]};
    }
    return true;
  }

  // Phi_q (r'', omega-bar') = gamma(r, A, r', omega-bar, t): writes r_ddot (NB) and omega_bar_dot (NB).
  // O(NV^3).
  MYRIAD_HD bool accelerations(double t, const State& s, Vec3<double>* r_ddot,
                               Vec3<double>* omega_bar_dot) const {
    double phi[NC], jacobian[NC * NV], a[NV];
    int pivots[NV];
    dynamics.constraint_rows(t, s, phi, jacobian);
    for (int c = 0; c < NC; ++c) a[c] = dynamics.constraint_gamma(t, s, c);
    if (!lu_factor(NV, jacobian, pivots)) return false;
    lu_solve(NV, jacobian, pivots, a);
    for (int b = 0; b < NB; ++b) {
      const double* d = a + Dynamics::kPerBody * b;
      r_ddot[b] = {d[0], d[1], d[2]};
      omega_bar_dot[b] = {d[3], d[4], d[5]};
    }
    return true;
  }
};

}  // namespace myriad
