#pragma once
// The ISO 2631-1 frequency weighting Wk (vertical whole-body vibration) as a digital filter, and its continuous
// form for checking it. Wk = Hh Hl Ht Hs (shared/notes/suspension-notes.md, "Ride comfort"; the constants as in
// ISO 2631-1:1997 Annex A and Chrono's ChISO2631_1_Wk):
//   Hh(s) = s^2 / (s^2 + w1 s / Q1 + w1^2)                                 f1 = 0.4 Hz, Q1 = 1/sqrt(2)
//   Hl(s) = w2^2 / (s^2 + w2 s / Q2 + w2^2)                                f2 = 100 Hz, Q2 = 1/sqrt(2)
//   Ht(s) = (1 + s / w3) / (1 + s / (Q4 w4) + s^2 / w4^2)                 f3 = f4 = 12.5 Hz, Q4 = 0.63
//   Hs(s) = (s^2 + w5 s / Q5 + w5^2) / (s^2 + w6 s / Q6 + w6^2)            f5 = 2.37 Hz, f6 = 3.35 Hz, Q5 = Q6 = 0.91
// (|Wk| = 0.482 at 1 Hz, 1.036 at 8 Hz, as ISO 2631-1's table).
//
// Discretization: each section by the bilinear transform s = K (z - 1) / (z + 1) with frequency pre-warping,
// K = w_p / tan(w_p T / 2), at the section's own characteristic frequency (w1, w2, w4, sqrt(w5 w6)), so each
// section is exact there and the whole filter is within 0.02 dB of |Wk| from 0.5 to 31.5 Hz at a 1 kHz sample
// rate (0.005 dB at 2 kHz) (tests/kpi/iso2631_wk_test.cpp). The sample rate should be well above 100 Hz (f2); the KPI code samples at
// the run's output times. Host+device, no allocation.
#include <cmath>

#include "core/hd.hpp"

namespace myriad {

// One second-order section y = (b0 + b1 z^-1 + b2 z^-2) / (1 + a1 z^-1 + a2 z^-2) x, direct form II transposed.
struct Biquad {
  double b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0;
  double s1 = 0.0, s2 = 0.0;  // state

  MYRIAD_HD_INLINE double step(double x) {
    const double y = b0 * x + s1;
    s1 = b1 * x - a1 * y + s2;
    s2 = b2 * x - a2 * y;
    return y;
  }
};

// The bilinear transform of (n2 s^2 + n1 s + n0) / (d2 s^2 + d1 s + d0), pre-warped at w_p (rad/s), sample
// interval T (s).
MYRIAD_HD_INLINE Biquad bilinear_section(double n2, double n1, double n0, double d2, double d1, double d0, double w_p,
                                          double T) {
  const double K = w_p / std::tan(0.5 * w_p * T), K2 = K * K;
  const double B0 = n2 * K2 + n1 * K + n0, B1 = 2.0 * (n0 - n2 * K2), B2 = n2 * K2 - n1 * K + n0;
  const double A0 = d2 * K2 + d1 * K + d0, A1 = 2.0 * (d0 - d2 * K2), A2 = d2 * K2 - d1 * K + d0;
  Biquad q;
  q.b0 = B0 / A0;
  q.b1 = B1 / A0;
  q.b2 = B2 / A0;
  q.a1 = A1 / A0;
  q.a2 = A2 / A0;
  return q;
}

struct WkConstants {
  static constexpr double kTwoPi = 6.283185307179586;
  static constexpr double w1 = kTwoPi * 0.4, Q1 = 0.7071067811865476;
  static constexpr double w2 = kTwoPi * 100.0, Q2 = 0.7071067811865476;
  static constexpr double w3 = kTwoPi * 12.5, w4 = kTwoPi * 12.5, Q4 = 0.63;
  static constexpr double w5 = kTwoPi * 2.37, Q5 = 0.91, w6 = kTwoPi * 3.35, Q6 = 0.91;
};

// The Wk filter at sample interval T: four sections in series, zero initial state.
struct WkFilter {
  Biquad section[4];

  MYRIAD_HD_INLINE double step(double x) {
    for (Biquad& q : section) x = q.step(x);
    return x;
  }
};

MYRIAD_HD_INLINE WkFilter make_wk_filter(double T) {
  using C = WkConstants;
  WkFilter f;
  f.section[0] = bilinear_section(1.0, 0.0, 0.0, 1.0, C::w1 / C::Q1, C::w1 * C::w1, C::w1, T);
  f.section[1] = bilinear_section(0.0, 0.0, C::w2 * C::w2, 1.0, C::w2 / C::Q2, C::w2 * C::w2, C::w2, T);
  f.section[2] = bilinear_section(0.0, 1.0 / C::w3, 1.0, 1.0 / (C::w4 * C::w4), 1.0 / (C::Q4 * C::w4), 1.0, C::w4, T);
  f.section[3] = bilinear_section(1.0, C::w5 / C::Q5, C::w5 * C::w5, 1.0, C::w6 / C::Q6, C::w6 * C::w6,
                                  std::sqrt(C::w5 * C::w6), T);
  return f;
}

// |Wk(j 2 pi f)| of the continuous definition (for checks and documentation). Host+device.
MYRIAD_HD_INLINE double wk_magnitude(double f) {
  using C = WkConstants;
  const double w = C::kTwoPi * f;
  // |a + j b| of each factor, from the real and imaginary parts of numerator and denominator at s = j w.
  const auto ratio = [](double nr, double ni, double dr, double di) {
    return std::sqrt((nr * nr + ni * ni) / (dr * dr + di * di));
  };
  const double hh = ratio(-w * w, 0.0, C::w1 * C::w1 - w * w, w * C::w1 / C::Q1);
  const double hl = ratio(C::w2 * C::w2, 0.0, C::w2 * C::w2 - w * w, w * C::w2 / C::Q2);
  const double ht = ratio(1.0, w / C::w3, 1.0 - w * w / (C::w4 * C::w4), w / (C::Q4 * C::w4));
  const double hs = ratio(C::w5 * C::w5 - w * w, w * C::w5 / C::Q5, C::w6 * C::w6 - w * w, w * C::w6 / C::Q6);
  return hh * hl * ht * hs;
}

}  // namespace myriad
