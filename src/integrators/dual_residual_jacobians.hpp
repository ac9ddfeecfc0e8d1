#pragma once
// Exact residual Jacobians of an implicit DAE (integrators/implicit_dae_system.hpp) by forward-mode dual numbers:
// a problem that writes its residual once, templated on the scalar,
//
//   template <class S> MYRIAD_HD bool residual_of(double t, const S* y, const S* ydot, const S* z, S* r);
//
// gets residual_jacobians from three evaluations, seeding y (n directions), y' (n) and z (m) in turn. NY and NZ are
// the compile-time n and m (Dual widths). Host and device, no allocation: the dual arrays live on the stack
// (3 (2 NY + NZ) (max(NY, NZ) + 1) doubles).
#include "core/dual.hpp"
#include "core/hd.hpp"
#include "core/scalar.hpp"

namespace myriad {

// Writes r (NY + NZ), r_y and r_ydot ((NY + NZ) x NY) and r_z ((NY + NZ) x NZ), row-major. False if an
// evaluation failed or produced a non-finite value. Cost: 3 residual evaluations on duals of width NY or NZ.
template <int NY, int NZ, class Problem>
MYRIAD_HD bool dual_residual_jacobians(Problem& problem, double t, const double* y, const double* ydot,
                                       const double* z, double* r, double* r_y, double* r_ydot, double* r_z) {
  constexpr int N = NY + NZ;
  {
    using D = Dual<double, NY>;
    D yd[NY], ydotd[NY], zd[NZ > 0 ? NZ : 1], rd[N];
    for (int i = 0; i < NY; ++i) {
      yd[i] = D::variable(y[i], i);
      ydotd[i] = D(ydot[i]);
    }
    for (int j = 0; j < NZ; ++j) zd[j] = D(z[j]);
    if (!problem.residual_of(t, yd, ydotd, zd, rd)) return false;
    for (int row = 0; row < N; ++row) {
      r[row] = rd[row].value;
      if (!is_finite(r[row])) return false;
      for (int col = 0; col < NY; ++col) r_y[row * NY + col] = rd[row].d[col];
    }
    for (int i = 0; i < NY; ++i) {
      yd[i] = D(y[i]);
      ydotd[i] = D::variable(ydot[i], i);
    }
    if (!problem.residual_of(t, yd, ydotd, zd, rd)) return false;
    for (int row = 0; row < N; ++row)
      for (int col = 0; col < NY; ++col) r_ydot[row * NY + col] = rd[row].d[col];
  }
  if (NZ > 0) {
    constexpr int W = NZ > 0 ? NZ : 1;
    using D = Dual<double, W>;
    D yd[NY], ydotd[NY], zd[W], rd[N];
    for (int i = 0; i < NY; ++i) {
      yd[i] = D(y[i]);
      ydotd[i] = D(ydot[i]);
    }
    for (int j = 0; j < NZ; ++j) zd[j] = D::variable(z[j], j);
    if (!problem.residual_of(t, yd, ydotd, zd, rd)) return false;
    for (int row = 0; row < N; ++row)
      for (int col = 0; col < NZ; ++col) r_z[row * NZ + col] = rd[row].d[col];
  }
  return true;
}

}  // namespace myriad
