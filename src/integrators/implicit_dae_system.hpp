#pragma once
// The implicit DAE concept of the seed 003 integrators (integrators/implicit_integrate.hpp): the implicit
// first-order system r(y, y', z, t) = 0 of seed 003 eq. 1, with the variables split into n differential ones y
// (whose derivative the integration formula relates to y) and m algebraic ones z (Lagrange multipliers, whose
// derivative appears nowhere). Documentation only (C++17 has no `concept`; a base class would mean virtual calls
// in device code). The residual has n + m rows: the first n are the differential equations, the last m the
// algebraic ones, i.e. the position-level constraints of an index-3 multibody DAE
//
//   q' - v = 0,   M(q) v' + Phi_q(q)^T lambda - Q(q, v, t) = 0,   Phi(q, t) = 0,    y = (q, v), z = lambda,
//
// which the integrators scale by 1/(c dt) (c dt = dy_N/dy'_N), seed 003 sec. 2 ("scaling the Jacobian
// contribution by the inverse of dt b0", after Bottasso, Bauchau & Cardona 2007), so that the iteration matrix
// stays well conditioned as dt -> 0. A system provides
//
//   MYRIAD_HD int differential_dimension() const;   // n
//   MYRIAD_HD int algebraic_dimension() const;      // m (0 for an implicit ODE)
//
//   MYRIAD_HD bool residual(double t, const double* y, const double* ydot, const double* z, double* r);
//       r (n + m). False on failure or a non-finite value.
//
//   MYRIAD_HD bool residual_jacobians(double t, const double* y, const double* ydot, const double* z, double* r,
//                                     double* r_y, double* r_ydot, double* r_z);
//       r as above and its partial derivatives, row-major: r_y and r_ydot are (n + m) x n, r_z is (n + m) x m.
//       Exact (analytic or dual numbers) where the system can: Newton's convergence rate depends on it, the
//       solution does not.
//
//   MYRIAD_HD bool consistent_start(double t, const double* y, double* ydot, double* z);
//       Given a consistent y at t (the constraints hold at position and velocity level), writes the y' and z
//       that satisfy r = 0 together with the hidden acceleration-level constraints (for the multibody DAE: the
//       index-1 system [M Phi_q^T; Phi_q 0] (v', lambda) = (Q, -gamma)). Seed 003 eq. 1 solves y'_0 from
//       r(y_0, y'_0, t_0) = 0; with algebraic variables that system is singular, hence this member.
//
// Observer: MYRIAD_HD void operator()(long long k, double t, const double* y, const double* ydot,
// const double* z), called for k = 0 (the start) and after each step k = 1..n_steps with the step's end values.
