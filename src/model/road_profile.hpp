#pragma once
// An ISO 8608 random road as a time function (docs/model-format.md, "Roads"): the elevation under a wheel that
// runs at `speed` along a profile made of harmonics,
//   z(x) = w(x) sum_k A_k cos(Omega_k x + phi_k),   x = speed t + distance,
// with w the fade-in (0 before x = 0, a cubic smoothstep up to x = fade_in, 1 after; w = 1 when fade_in = 0).
// The harmonics' spatial frequencies, amplitudes and phases are packed per instance on the host
// (model/road_packing.cpp), so evaluating is O(harmonics) with no random draws; host+device, shared by the fast
// path, the CUDA kernels and the reference path.
#include "core/hd.hpp"
#include "core/scalar.hpp"

namespace myriad {

// Packed layout: [speed, distance, fade_in], then per harmonic [Omega_k (rad/m), A_k (m), phi_k (rad)].
enum RoadCoefficient : int { kRoadSpeed = 0, kRoadDistance = 1, kRoadFadeIn = 2, kRoadHeader = 3, kRoadStride = 3 };

// z, dz/dt, d^2z/dt^2 at t for `harmonics` packed harmonics. C is indexable by int yielding double.
template <class C, class Value>
MYRIAD_HD Value evaluate_road_profile(const C& c, int harmonics, double t) {
  const double speed = c[kRoadSpeed], fade = c[kRoadFadeIn];
  const double x = speed * t + c[kRoadDistance];
  double w = 1.0, dw = 0.0, ddw = 0.0;  // fade-in and its x-derivatives
  if (fade > 0.0) {
    const double u = x / fade;
    if (u <= 0.0) return Value{0.0, 0.0, 0.0};
    if (u < 1.0) {
      w = u * u * (3.0 - 2.0 * u);
      dw = 6.0 * u * (1.0 - u) / fade;
      ddw = (6.0 - 12.0 * u) / (fade * fade);
    }
  }
  double s = 0.0, ds = 0.0, dds = 0.0;  // the harmonic sum and its x-derivatives
  for (int k = 0; k < harmonics; ++k) {
    const int at = kRoadHeader + kRoadStride * k;
    const double omega = c[at], amplitude = c[at + 1];
    const double arg = omega * x + c[at + 2];
    const double sn = scalar_sin(arg), cs = scalar_cos(arg);
    s += amplitude * cs;
    ds -= amplitude * omega * sn;
    dds -= amplitude * omega * omega * cs;
  }
  // d/dt = speed d/dx; the product rule on w s.
  return Value{w * s, speed * (dw * s + w * ds), speed * speed * (ddw * s + 2.0 * dw * ds + w * dds)};
}

}  // namespace myriad
