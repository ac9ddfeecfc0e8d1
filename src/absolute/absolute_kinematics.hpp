#pragma once
// The kinematics analysis of seed 002 sec. 2 for a mechanism whose drivers take up every degree of freedom
// (NZ = NQ: the GCONs, with the rp normalizations, as many as the coordinates): at each time the position
// analysis solves Phi(q, t) = 0 by Newton's method with the Jacobian Phi_q (eq. 9 and its rp / re forms), then
// the velocity analysis Phi_q q' = nu and the acceleration analysis Phi_q q'' = gamma (eqs. 15-18, 21-24,
// 27-29). Rows, nu and gamma are those of absolute/absolute_dynamics.hpp's AbsoluteDae (one source for the
// constraint layer). Host and device, no allocation.
#include <cmath>

#include "absolute/absolute_dynamics.hpp"
#include "linalg/dense_lu.hpp"

namespace myriad {

template <class Rep, int NB, int NC>
struct AbsoluteKinematics {
  using Dae = AbsoluteDae<Rep, NB, NC>;
  static constexpr int NQ = Dae::NQ;
  static_assert(Dae::NZ == NQ, "the kinematics analysis needs as many constraints as coordinates (0 DOF)");

  Dae dae;

  // Newton on Phi(q, t) = 0 from the q given (the previous time's solution), until the correction's max norm is
  // below `tolerance` (seed 002 sec. 4.3: 1e-10). Writes q and the iterations taken; false if the Jacobian is
  // singular or `max_iterations` pass. Cost per iteration: O(NZ NQ) rows and an O(NQ^3) LU.
  MYRIAD_HD bool positions(double t, double* q, int& iterations, double tolerance = 1e-10,
                           int max_iterations = 25) const {
    double phi[NQ], jacobian[NQ * NQ];
    int pivots[NQ];
    for (iterations = 1; iterations <= max_iterations; ++iterations) {
      dae.constraint_rows(t, q, phi, jacobian);
      if (!lu_factor(NQ, jacobian, pivots)) return false;
      lu_solve(NQ, jacobian, pivots, phi);
      double correction = 0.0;
      for (int i = 0; i < NQ; ++i) {
        q[i] -= phi[i];
        correction = std::fmax(correction, std::fabs(phi[i]));
      }
      if (!(correction == correction)) return false;
      if (correction < tolerance) return true;
    }
    return false;
  }

  // Phi_q q' = nu at a solved q. O(NQ^3).
  MYRIAD_HD bool velocities(double t, const double* q, double* q_dot) const {
    double phi[NQ], jacobian[NQ * NQ];
    int pivots[NQ];
    dae.constraint_rows(t, q, phi, jacobian);
    for (int c = 0; c < NQ; ++c) q_dot[c] = dae.constraint_nu(t, c);
    if (!lu_factor(NQ, jacobian, pivots)) return false;
    lu_solve(NQ, jacobian, pivots, q_dot);
    return true;
  }

  // Phi_q q'' = gamma(q, q', t). O(NQ^3).
  MYRIAD_HD bool accelerations(double t, const double* q, const double* q_dot, double* q_ddot) const {
    double phi[NQ], jacobian[NQ * NQ], y[2 * NQ];
    int pivots[NQ];
    for (int i = 0; i < NQ; ++i) y[i] = q[i], y[NQ + i] = q_dot[i];
    dae.constraint_rows(t, q, phi, jacobian);
    for (int c = 0; c < NQ; ++c) q_ddot[c] = dae.constraint_gamma(t, y, c);
    if (!lu_factor(NQ, jacobian, pivots)) return false;
    lu_solve(NQ, jacobian, pivots, q_ddot);
    return true;
  }
};

}  // namespace myriad
