#pragma once
// The second-order system concept of the Rosenbrock-Nystrom integrators (seed 000 eqs. 8-10): positions x (n) and
// velocities w = x' (n), x'' = f(t, x, w). Documentation only (C++17, no concepts keyword); a system provides
//
//   MYRIAD_HD int dimension() const;                       // n
//   MYRIAD_HD bool acceleration(double t, const double* x, const double* w, double* f);
//       f = x''. Returns false on failure or a non-finite value.
//   MYRIAD_HD bool jacobians(double t, const double* x, const double* w, double* f, double* J1, double* J2,
//                            double* f_t);
//       f as above, J1 = df/dx, J2 = df/dw (n x n, row-major), f_t = df/dt (n) for non-autonomous systems (zero for
//       autonomous ones). Exact, not finite differences, where the system can.
//   MYRIAD_HD bool mass_matrix(double t, const double* x, double* M);
//       Mhat (n x n, row-major, symmetric positive definite) of seed 000 eq. 10a: Pi = Mhat (I/gamma^2 - h/gamma J2
//       - h^2 J1) is what gets factored (eq. 44). Systems without a mass matrix write the identity.
//   MYRIAD_HD bool rebase(double t, double* x, double* w);
//       Called once after each accepted step, after the observer saw the outputs inside it. The system may
//       re-centre its chart (rewrite x and w); returns true if it did, so cached f/J at the step end are stale.
//
// Observer (as for the first-order integrators): MYRIAD_HD void operator()(int k, double t, const double* y) with
// y = (x, w), 2n values, for every output index k in increasing order.
