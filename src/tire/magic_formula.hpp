#pragma once
// Magic Formula tire forces, PAC2002 / MF 5.2 (Pacejka, "Tire and Vehicle Dynamics", 2nd ed. 2006, sec. 4.3.2,
// eqs. 4.E1-4.E67; shared/notes/suspension-notes.md, "Tires"): the steady-state longitudinal force Fx, lateral
// force Fy and aligning moment Mz of one tire from its longitudinal slip kappa, slip angle alpha (rad), camber
// gamma (rad) and vertical load Fz (N, > 0), with the `.tir` file's scaling factors. ISO sign conventions, as the
// `.tir` files are written: kappa > 0 drives, alpha > 0 (the wheel's velocity to the left of its heading) gives
// Fy < 0 for a tire whose PDY1 and PKY1 are negative.
//
// Scope: pure slip Fx0, Fy0 (eqs. 4.E9-4.E30) and Mz0 = -t Fy0 + Mzr (4.E31-4.E49, the pneumatic trail t and the
// residual torque Mzr, with Fy0 at the same camber); combined slip by the weighting functions G_xalpha, G_ykappa
// and the kappa-induced side force SVykappa (4.E50-4.E67), and the combined aligning moment
// Mz = -t(alpha_t,eq) Fy' + Mzr(alpha_r,eq) + s Fx (4.E71-4.E78: equivalent slip angles
// sqrt(alpha^2 + (K_xkappa / K_yalpha)^2 kappa^2) sgn(alpha), Fy' = Fy - SVykappa, the arm s of Fx from SSZ1-4).
// No turn slip, no low-speed damping, no transient (relaxation) behaviour.
// Host+device, O(1), no allocation; `p` is the coefficient array of tire/tir_coefficients.hpp (anything indexable
// by TirCoefficient: a pointer, or a force element's window into an instance's constants). Every function takes
// its slips and load as any scalar S (double, or core/dual.hpp's Dual for exact derivatives, as a force element's
// Jacobians need); the plain-double overloads at the end are the ones `myriad tire` calls.
#include <cmath>

#include "core/dual.hpp"
#include "core/hd.hpp"
#include "core/scalar.hpp"
#include "tire/tir_coefficients.hpp"

namespace myriad {

template <class S>
struct TireForcesOf {
  S fx, fy, mz;
};
using TireForces = TireForcesOf<double>;

namespace magic_formula_detail {

MYRIAD_HD_INLINE double sign(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

// y = D sin(C atan(B x - E (B x - atan(B x)))): the formula's shape.
template <class S>
MYRIAD_HD_INLINE S shape(const S& B, const S& C, const S& D, const S& E, const S& x) {
  const S bx = B * x;
  return D * scalar_sin(C * scalar_atan(bx - E * (bx - scalar_atan(bx))));
}

// cos(C atan(B x - E (B x - atan(B x)))): the combined-slip weighting's shape.
template <class S>
MYRIAD_HD_INLINE S weight_shape(const S& B, const S& C, const S& E, const S& x) {
  const S bx = B * x;
  return scalar_cos(C * scalar_atan(bx - E * (bx - scalar_atan(bx))));
}

// Normalized load increment dfz = (Fz - Fz0') / Fz0', Fz0' = FNOMIN LFZO (4.E1-4.E2).
template <class S, class P>
MYRIAD_HD_INLINE S load_increment(const P& p, const S& fz) {
  const double fz0 = p[kTirFnomin] * p[kTirLfzo];
  return (fz - fz0) / fz0;
}

}  // namespace magic_formula_detail

// The longitudinal slip stiffness K_xkappa = dFx0/dkappa at kappa = -SHx (4.E15).
template <class S, class P>
MYRIAD_HD_INLINE S slip_stiffness(const P& p, const S& fz) {
  const S dfz = magic_formula_detail::load_increment(p, fz);
  return fz * (p[kTirPkx1] + p[kTirPkx2] * dfz) * scalar_exp(p[kTirPkx3] * dfz) * p[kTirLkx];
}

// Pure longitudinal force Fx0(kappa) (4.E9-4.E18).
template <class S, class P>
MYRIAD_HD_INLINE S pure_fx(const P& p, const S& kappa, const S& gamma, const S& fz) {
  using namespace magic_formula_detail;
  const S dfz = load_increment(p, fz);
  const S shx = (p[kTirPhx1] + p[kTirPhx2] * dfz) * p[kTirLhx];
  const S kx = kappa + shx;
  const S cx = S(p[kTirPcx1] * p[kTirLcx]);
  const S mux = (p[kTirPdx1] + p[kTirPdx2] * dfz) * (1.0 - p[kTirPdx3] * gamma * gamma) * p[kTirLmux];
  const S dx = mux * fz;
  const S ex = (p[kTirPex1] + p[kTirPex2] * dfz + p[kTirPex3] * dfz * dfz) *
               (1.0 - p[kTirPex4] * sign(value_of(kx))) * p[kTirLex];
  const S bx = slip_stiffness(p, fz) / (cx * dx);
  const S svx = fz * (p[kTirPvx1] + p[kTirPvx2] * dfz) * p[kTirLvx] * p[kTirLmux];
  return shape(bx, cx, dx, ex, kx) + svx;
}

// The pure lateral force's factors (4.E19-4.E30), shared by Fy0, the trail and the combined-slip terms.
template <class S>
struct LateralFactors {
  S by, cy, dy, ey, shy, svy, ky, muy;
};

template <class S, class P>
MYRIAD_HD_INLINE LateralFactors<S> lateral_factors(const P& p, const S& alpha, const S& gamma, const S& fz) {
  using namespace magic_formula_detail;
  const S dfz = load_increment(p, fz);
  const double fz0 = p[kTirFnomin];
  const S gy = gamma * p[kTirLgay];
  LateralFactors<S> f;
  f.shy = (p[kTirPhy1] + p[kTirPhy2] * dfz) * p[kTirLhy] + p[kTirPhy3] * gy;
  const S ay = alpha + f.shy;
  f.cy = S(p[kTirPcy1] * p[kTirLcy]);
  f.muy = (p[kTirPdy1] + p[kTirPdy2] * dfz) * (1.0 - p[kTirPdy3] * gy * gy) * p[kTirLmuy];
  f.dy = f.muy * fz;
  f.ey = (p[kTirPey1] + p[kTirPey2] * dfz) * (1.0 - (p[kTirPey3] + p[kTirPey4] * gy) * sign(value_of(ay))) *
         p[kTirLey];
  f.ky = p[kTirPky1] * fz0 * scalar_sin(2.0 * scalar_atan(fz / (p[kTirPky2] * fz0 * p[kTirLfzo]))) *
         (1.0 - p[kTirPky3] * scalar_abs(gy)) * p[kTirLfzo] * p[kTirLky];
  f.by = f.ky / (f.cy * f.dy);
  f.svy = fz * ((p[kTirPvy1] + p[kTirPvy2] * dfz) * p[kTirLvy] + (p[kTirPvy3] + p[kTirPvy4] * dfz) * gy) *
          p[kTirLmuy];
  return f;
}

// Fy0 (4.E19) from its factors at slip angle alpha.
template <class S>
MYRIAD_HD_INLINE S lateral_force(const LateralFactors<S>& f, const S& alpha) {
  return magic_formula_detail::shape(f.by, f.cy, f.dy, f.ey, alpha + f.shy) + f.svy;
}

// Pure lateral force Fy0(alpha) (4.E19).
template <class S, class P>
MYRIAD_HD_INLINE S pure_fy(const P& p, const S& alpha, const S& gamma, const S& fz) {
  return lateral_force(lateral_factors(p, alpha, gamma, fz), alpha);
}

// -t Fy + Mzr (4.E31-4.E49) given the lateral factors at (alpha, gamma, fz) and the lateral force fy the trail acts
// on. `slip2` = (K_xkappa / K_yalpha)^2 kappa^2 turns the slip angles of the trail and the residual torque into their
// combined-slip equivalents sqrt(alpha^2 + slip2) sgn(alpha) (4.E77-4.E78); 0 gives the pure moment.
template <class S, class P>
MYRIAD_HD_INLINE S aligning_moment(const P& p, const S& alpha, const S& gamma, const S& fz,
                                   const LateralFactors<S>& lat, const S& fy, const S& slip2) {
  using namespace magic_formula_detail;
  const S dfz = load_increment(p, fz);
  const double fz0 = p[kTirFnomin] * p[kTirLfzo], r0 = p[kTirUnloadedRadius];
  const S gz = gamma * p[kTirLgaz];
  // Pneumatic trail t.
  const S sht = p[kTirQhz1] + p[kTirQhz2] * dfz + (p[kTirQhz3] + p[kTirQhz4] * dfz) * gz;
  const S at = alpha + sht;
  const S bt = (p[kTirQbz1] + p[kTirQbz2] * dfz + p[kTirQbz3] * dfz * dfz) *
               (1.0 + p[kTirQbz4] * gz + p[kTirQbz5] * scalar_abs(gz)) * p[kTirLky] / p[kTirLmuy];
  const S ct = S(p[kTirQcz1]);
  const S dt = fz * (p[kTirQdz1] + p[kTirQdz2] * dfz) * (1.0 + p[kTirQdz3] * gz + p[kTirQdz4] * gz * gz) *
               (r0 / fz0) * p[kTirLtr];
  const S et = (p[kTirQez1] + p[kTirQez2] * dfz + p[kTirQez3] * dfz * dfz) *
               (1.0 + (p[kTirQez4] + p[kTirQez5] * gz) * (2.0 / 3.14159265358979323846) * scalar_atan(bt * ct * at));
  const S at_eq = value_of(slip2) == 0.0 ? at : scalar_sqrt(at * at + slip2) * sign(value_of(at));
  const S t = dt * weight_shape(bt, ct, et, at_eq) * scalar_cos(alpha);
  // Residual torque Mzr.
  const S ar = alpha + lat.shy + lat.svy / lat.ky;
  const S ar_eq = value_of(slip2) == 0.0 ? ar : scalar_sqrt(ar * ar + slip2) * sign(value_of(ar));
  const S br = p[kTirQbz9] * p[kTirLky] / p[kTirLmuy] + p[kTirQbz10] * lat.by * lat.cy;
  const S dr = fz * ((p[kTirQdz6] + p[kTirQdz7] * dfz) * p[kTirLres] + (p[kTirQdz8] + p[kTirQdz9] * dfz) * gz) *
               r0 * p[kTirLmuy] * scalar_cos(alpha);
  const S mzr = dr * scalar_cos(scalar_atan(br * ar_eq)) * scalar_cos(alpha);
  return -t * fy + mzr;
}

// Pure aligning moment Mz0(alpha).
template <class S, class P>
MYRIAD_HD_INLINE S pure_mz(const P& p, const S& alpha, const S& gamma, const S& fz) {
  const LateralFactors<S> lat = lateral_factors(p, alpha, gamma, fz);
  return aligning_moment(p, alpha, gamma, fz, lat, lateral_force(lat, alpha), S(0.0));
}

// Combined slip (4.E50-4.E67, 4.E71-4.E78): Fx = G_xalpha Fx0, Fy = G_ykappa Fy0 + SVykappa,
// Mz = -t(alpha_t,eq) (Fy - SVykappa) + Mzr(alpha_r,eq) + s Fx with s = R0 (SSZ1 + SSZ2 Fy / Fz0' + (SSZ3 + SSZ4 dfz)
// gamma_z) LS.
template <class S, class P>
MYRIAD_HD_INLINE TireForcesOf<S> tire_forces(const P& p, const S& kappa, const S& alpha, const S& gamma,
                                             const S& fz) {
  using namespace magic_formula_detail;
  const S dfz = load_increment(p, fz);
  // Longitudinal: weighting by the slip angle.
  const S bxa = p[kTirRbx1] * scalar_cos(scalar_atan(p[kTirRbx2] * kappa)) * p[kTirLxal];
  const S cxa = S(p[kTirRcx1]), exa = p[kTirRex1] + p[kTirRex2] * dfz, shxa = S(p[kTirRhx1]);
  const S gxa = weight_shape(bxa, cxa, exa, alpha + shxa) / weight_shape(bxa, cxa, exa, shxa);
  // Lateral: weighting by the longitudinal slip, and the side force kappa induces.
  const LateralFactors<S> lat = lateral_factors(p, alpha, gamma, fz);
  const S byk = p[kTirRby1] * scalar_cos(scalar_atan(p[kTirRby2] * (alpha - p[kTirRby3]))) * p[kTirLyka];
  const S cyk = S(p[kTirRcy1]), eyk = p[kTirRey1] + p[kTirRey2] * dfz, shyk = p[kTirRhy1] + p[kTirRhy2] * dfz;
  const S gyk = weight_shape(byk, cyk, eyk, kappa + shyk) / weight_shape(byk, cyk, eyk, shyk);
  const S dvyk = lat.muy * fz * (p[kTirRvy1] + p[kTirRvy2] * dfz + p[kTirRvy3] * gamma) *
                 scalar_cos(scalar_atan(p[kTirRvy4] * alpha));
  const S svyk = dvyk * scalar_sin(p[kTirRvy5] * scalar_atan(p[kTirRvy6] * kappa)) * p[kTirLvyka];
  const S fx = gxa * pure_fx(p, kappa, gamma, fz);
  const S fy_prime = gyk * lateral_force(lat, alpha);
  const S fy = fy_prime + svyk;
  // Aligning moment.
  const S ratio = slip_stiffness(p, fz) / lat.ky;
  const double fz0 = p[kTirFnomin] * p[kTirLfzo];
  const S s = p[kTirUnloadedRadius] *
              (p[kTirSsz1] + p[kTirSsz2] * (fy / fz0) + (p[kTirSsz3] + p[kTirSsz4] * dfz) * gamma * p[kTirLgaz]) *
              p[kTirLs];
  const S mz = aligning_moment(p, alpha, gamma, fz, lat, fy_prime, ratio * ratio * kappa * kappa) + s * fx;
  return {fx, fy, mz};
}

// Plain-double entry points (integer literals convert), for `myriad tire` and the tests.
MYRIAD_HD_INLINE double pure_fx(const double* p, double kappa, double gamma, double fz) {
  return pure_fx<double, const double*>(p, kappa, gamma, fz);
}
MYRIAD_HD_INLINE double pure_fy(const double* p, double alpha, double gamma, double fz) {
  return pure_fy<double, const double*>(p, alpha, gamma, fz);
}
MYRIAD_HD_INLINE double pure_mz(const double* p, double alpha, double gamma, double fz) {
  return pure_mz<double, const double*>(p, alpha, gamma, fz);
}
MYRIAD_HD_INLINE TireForces tire_forces(const double* p, double kappa, double alpha, double gamma, double fz) {
  return tire_forces<double, const double*>(p, kappa, alpha, gamma, fz);
}

}  // namespace myriad
