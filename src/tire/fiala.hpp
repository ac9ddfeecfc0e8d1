#pragma once
// The Fiala tire (as Adams' FIALA `.tir` and Chrono's ChFialaTire define it; shared/notes/suspension-notes.md,
// "Tires"): a brush model with a friction coefficient falling linearly from UMAX to UMIN with the combined slip
// S_s = min(1, sqrt(kappa^2 + tan^2 alpha)), U = UMAX - (UMAX - UMIN) S_s, and
//   Fx = C_s kappa                                        for |kappa| < S* = |U Fz / (2 C_s)|,
//        sgn(kappa) (U Fz - (U Fz)^2 / (4 |kappa| C_s))    beyond;
//   Fy = -U Fz (1 - H^3) sgn(alpha), Mz = U Fz w (1 - H) H^3 sgn(alpha), H = 1 - C_alpha |tan alpha| / (3 U Fz),
//        for |alpha| <= alpha* = atan(3 U Fz / C_alpha); beyond, Fy = -U Fz sgn(alpha) and Mz = 0.
// Slip in the same sense as the Magic Formula's (kappa > 0 drives); Fy < 0 for alpha > 0. No camber, no
// combined-slip coupling beyond U. Host+device, O(1), any scalar (core/dual.hpp's Duals for exact derivatives).
#include <cmath>

#include "core/hd.hpp"
#include "core/scalar.hpp"
#include "tire/magic_formula.hpp"

namespace myriad {

struct FialaParameters {
  double unloaded_radius, width, c_slip, c_alpha, u_min, u_max;
};

// Any scalar S for the slips and the load (Duals for exact derivatives); the minimum and the branches act on values.
template <class S>
MYRIAD_HD_INLINE TireForcesOf<S> fiala_forces(const FialaParameters& p, const S& kappa, const S& alpha, const S& fz) {
  const double sign_kappa = magic_formula_detail::sign(value_of(kappa));
  const double sign_alpha = magic_formula_detail::sign(value_of(alpha));
  const S tan_alpha = scalar_tan(alpha);
  const S combined = scalar_sqrt(kappa * kappa + tan_alpha * tan_alpha);
  const S ss = value_of(combined) < 1.0 ? combined : S(1.0);
  const S u = p.u_max - (p.u_max - p.u_min) * ss;
  const S ufz = u * fz;
  TireForcesOf<S> f{S(0.0), S(0.0), S(0.0)};
  const S s_critical = scalar_abs(ufz / (2.0 * p.c_slip));
  f.fx = value_of(scalar_abs(kappa)) < value_of(s_critical)
             ? p.c_slip * kappa
             : sign_kappa * (ufz - ufz * ufz / (4.0 * scalar_abs(kappa) * p.c_slip));
  const S alpha_critical = scalar_atan(3.0 * ufz / p.c_alpha);
  if (value_of(scalar_abs(alpha)) <= value_of(alpha_critical)) {
    const S h = 1.0 - p.c_alpha * scalar_abs(tan_alpha) / (3.0 * ufz);
    f.fy = -ufz * (1.0 - h * h * h) * sign_alpha;
    f.mz = ufz * p.width * (1.0 - h) * h * h * h * sign_alpha;
  } else {
    f.fy = -ufz * sign_alpha;
  }
  f.fy += 0.0;  // a zero slip angle gives 0, not -0
  return f;
}

MYRIAD_HD_INLINE TireForces fiala_forces(const FialaParameters& p, double kappa, double alpha, double fz) {
  return fiala_forces<double>(p, kappa, alpha, fz);
}

}  // namespace myriad
