#pragma once
// Time functions (docs/model-format.md, "Time functions") evaluated from a packed coefficient array, so the
// fast path, the CUDA kernels and the reference path share one definition. Kinds follow TimeFunction::Kind.
#include "core/hd.hpp"
#include "core/point_table.hpp"
#include "core/scalar.hpp"
#include "model/road_profile.hpp"

namespace myriad {

enum TimeFunctionKind : int {
  kTfConstant = 0,
  kTfStep = 1,
  kTfRamp = 2,
  kTfSine = 3,
  kTfSmoothStep = 4,
  kTfHalfSineBump = 5,
  kTfTable = 6,
  kTfIso8608Road = 7,  // TimeFunction::Kind::input compiles to kTfConstant, so 7 is free
  kTfHaversineBump = 8,
  kTfSineSweep = 9,
  kTfVelocitySweep = 10,
  kTfCylinderBump = 11,
};

// f(t), f'(t), f''(t).
struct TimeValue {
  double value, rate, acceleration;
};

// Packed coefficients by kind:
//   constant [value]; step [t0, before, after]; ramp [t0, slope, offset];
//   sine [amplitude, angular frequency 2 pi f, phase, offset]; smooth_step [t0, t1, from, to];
//   half_sine_bump [t0, duration, height]; table [t_0, v_0, t_1, v_1, ...] with `points` pairs;
//   iso8608_road: model/road_profile.hpp's layout with `points` harmonics; haversine_bump [t0, duration, height];
//   sine_sweep [t0, duration, amplitude, f0, f1]; velocity_sweep [t0, duration, velocity, f0, f1];
//   cylinder_bump [t0, duration, speed, R + r, R] (R the tire's radius, r the obstacle's).
// O(1) for all kinds but table and iso8608_road, O(points) for those.
// `c` is anything indexable by int that yields double (a pointer, or a view into an instance's constants).
// In line (time_function_in_line) for code compiled on one model (kernels/model_kernels.cu), whose kinds are
// constants, so one case remains; elsewhere evaluate_time_function below.
template <class C>
MYRIAD_HD_INLINE TimeValue time_function_of_kind(int kind, const C& c, int points, double t) {
  switch (kind) {
    case kTfConstant: return {c[0], 0.0, 0.0};
    case kTfStep: return {t < c[0] ? c[1] : c[2], 0.0, 0.0};
    case kTfRamp: return t <= c[0] ? TimeValue{c[2], 0.0, 0.0} : TimeValue{c[2] + c[1] * (t - c[0]), c[1], 0.0};
    case kTfSine: {
      const double arg = c[1] * t + c[2];
      const double s = scalar_sin(arg), co = scalar_cos(arg);
      return {c[3] + c[0] * s, c[0] * c[1] * co, -c[0] * c[1] * c[1] * s};
    }
    case kTfSmoothStep: {
      const double t0 = c[0], t1 = c[1], from = c[2], to = c[3];
      if (t <= t0) return {from, 0.0, 0.0};
      if (t >= t1) return {to, 0.0, 0.0};
      const double d = t1 - t0, s = (t - t0) / d, delta = to - from;
      return {from + delta * s * s * (3.0 - 2.0 * s), delta * 6.0 * s * (1.0 - s) / d,
              delta * (6.0 - 12.0 * s) / (d * d)};
    }
    case kTfHalfSineBump: {
      const double t0 = c[0], duration = c[1], height = c[2];
      if (t < t0 || t > t0 + duration) return {0.0, 0.0, 0.0};
      const double w = kPi / duration, arg = w * (t - t0);
      return {height * scalar_sin(arg), height * w * scalar_cos(arg), -height * w * w * scalar_sin(arg)};
    }
    case kTfTable: {
      if (t <= c[0]) return {c[1], 0.0, 0.0};
      const int last = points - 1;
      if (t >= c[2 * last]) return {c[2 * last + 1], 0.0, 0.0};
      const int k = table_segment(c, points, t);  // t_k <= t < t_{k+1}
      const double ta = c[2 * k], va = c[2 * k + 1], tb = c[2 * k + 2], vb = c[2 * k + 3];
      const double slope = (vb - va) / (tb - ta);
      return {va + slope * (t - ta), slope, 0.0};
    }
    case kTfIso8608Road: return evaluate_road_profile<C, TimeValue>(c, points, t);
    case kTfHaversineBump: {
      // (H/2)(1 - cos(2 pi tau)), tau = (t - t0)/duration (shared/notes/suspension-notes.md, "Discrete inputs").
      const double t0 = c[0], duration = c[1], half = 0.5 * c[2];
      if (t < t0 || t > t0 + duration) return {0.0, 0.0, 0.0};
      const double w = 2.0 * kPi / duration, arg = w * (t - t0);
      return {half * (1.0 - scalar_cos(arg)), half * w * scalar_sin(arg), half * w * w * scalar_cos(arg)};
    }
    case kTfSineSweep:
    case kTfVelocitySweep: {
      // Linear chirp: phase phi = 2 pi (f0 tau + (f1 - f0) tau^2 / (2 D)), tau = t - t0 on [0, D]. A constant-
      // velocity sweep scales the sine by 1 / phi' so that its rate's amplitude stays `velocity` (as four-post rigs
      // run); derivatives by the product rule with phi''' = 0.
      const double t0 = c[0], duration = c[1], scale = c[2], f0 = c[3], f1 = c[4];
      if (t < t0 || t > t0 + duration) return {0.0, 0.0, 0.0};
      const double tau = t - t0, slope = (f1 - f0) / duration;
      const double phase = 2.0 * kPi * (f0 * tau + 0.5 * slope * tau * tau);
      const double dphi = 2.0 * kPi * (f0 + slope * tau), ddphi = 2.0 * kPi * slope;
      const double s = scalar_sin(phase), co = scalar_cos(phase);
      const double ds = co * dphi, dds = -s * dphi * dphi + co * ddphi;
      if (kind == kTfSineSweep) return {scale * s, scale * ds, scale * dds};
      const double g = 1.0 / dphi, dg = -ddphi * g * g, ddg = 2.0 * ddphi * ddphi * g * g * g;
      return {scale * g * s, scale * (dg * s + g * ds), scale * (ddg * s + 2.0 * dg * ds + g * dds)};
    }
    case kTfCylinderBump: {
      // A rigid ring of radius R over a half-cylinder of radius r: while they touch, the wheel centre is R + r from
      // the cylinder's axis, so its lift is s - R with s = sqrt((R + r)^2 - x^2), x = speed (t - t0) - a the
      // centre's distance past the axis (a = duration speed / 2). Its slope is finite where contact starts
      // (a / R), unlike the bare half-circle's, which a point follower would meet as an infinite rate.
      const double t0 = c[0], duration = c[1], speed = c[2], reach = c[3], R = c[4];
      if (t < t0 || t > t0 + duration) return {0.0, 0.0, 0.0};
      // |x| <= a on the bump, so reach^2 - x^2 >= R^2; rounding at its ends (an integrator restarts exactly there)
      // may put x a hair beyond a, and the bound keeps the lift from dipping below zero there.
      const double x = speed * (t - t0 - 0.5 * duration);
      const double s = scalar_sqrt(std::fmax(reach * reach - x * x, R * R));
      return {s - R, -x * speed / s, -speed * speed * reach * reach / (s * s * s)};
    }
    default: return {0.0, 0.0, 0.0};
  }
}

// time_function_of_kind in line, its input and results passed as a call passes them: on the device an opaque move
// at each keeps nvcc from fusing a multiply on one side of it with an add on the other (fp-contract), which a call
// boundary rules out too, so that code compiled on one model gets the same bits as the generic kernels' calls.
template <class C>
MYRIAD_HD_INLINE TimeValue time_function_in_line(int kind, const C& c, int points, double t) {
#if defined(__CUDA_ARCH__)
  asm("mov.f64 %0, %0;" : "+d"(t));
#endif
  TimeValue v = time_function_of_kind(kind, c, points, t);
#if defined(__CUDA_ARCH__)
  asm("mov.f64 %0, %0;" : "+d"(v.value));
  asm("mov.f64 %0, %0;" : "+d"(v.rate));
  asm("mov.f64 %0, %0;" : "+d"(v.acceleration));
#endif
  return v;
}

// time_function_of_kind outlined on the device: every force and driver evaluation of the generic kernels reaches
// it, with a road's loop and the sweeps inside, and one compiled copy serves them all.
template <class C>
MYRIAD_HD_OUTLINE TimeValue evaluate_time_function(int kind, const C& c, int points, double t) {
  return time_function_of_kind(kind, c, points, t);
}

}  // namespace myriad
