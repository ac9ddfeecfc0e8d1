// The ISO 2631-1 Wk filter (src/kpi/iso2631_wk.hpp) and the running comfort metrics (src/kpi/vibration_dose.hpp)
// against independent numbers: the transfer functions in complex arithmetic, the frequency response of the digital sections
// evaluated on the unit circle, a sine filtered in the time domain, and the closed-form RMS and VDV of a sine.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>

#include "kpi/iso2631_wk.hpp"
#include "kpi/vibration_dose.hpp"

namespace myriad {
namespace iso2631_wk_test {

constexpr double kPi = 3.141592653589793;
constexpr double kFrequencies[] = {0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 31.5};

double decibels(double ratio) { return 20.0 * std::log10(ratio); }

// |H(e^{j 2 pi f T})| of the filter's sections in series.
double digital_magnitude(const WkFilter& filter, double f, double T) {
  const std::complex<double> z1 = std::exp(std::complex<double>(0.0, -2.0 * kPi * f * T));  // z^-1
  std::complex<double> h = 1.0;
  for (const Biquad& q : filter.section)
    h *= (q.b0 + q.b1 * z1 + q.b2 * z1 * z1) / (1.0 + q.a1 * z1 + q.a2 * z1 * z1);
  return std::abs(h);
}

TEST(Iso2631Wk, ContinuousMagnitudeEqualsTheTransferFunctionsInComplexArithmetic) {
  // The four factors written again as complex rational functions of s = j w (ISO 8041's parameter table for Wk:
  // f1 0.4, f2 100, f3 = f4 12.5, Q4 0.63, f5 2.37, f6 3.35, Q5 = Q6 0.91, the upward step scaled by (w5/w6)^2).
  const double q12 = 1.0 / std::sqrt(2.0);
  for (double f = 0.1; f < 200.0; f *= 1.1) {
    const std::complex<double> s(0.0, 2.0 * kPi * f);
    const double w1 = 2 * kPi * 0.4, w2 = 2 * kPi * 100, w3 = 2 * kPi * 12.5, w4 = w3, w5 = 2 * kPi * 2.37,
                 w6 = 2 * kPi * 3.35;
    const std::complex<double> h = s * s / (s * s + w1 * s / q12 + w1 * w1) *
                                   (w2 * w2 / (s * s + w2 * s / q12 + w2 * w2)) *
                                   ((1.0 + s / w3) / (1.0 + s / (0.63 * w4) + s * s / (w4 * w4))) *
                                   ((1.0 + s / (0.91 * w5) + s * s / (w5 * w5)) /
                                    (1.0 + s / (0.91 * w6) + s * s / (w6 * w6)) * (w5 * w5 / (w6 * w6)));
    EXPECT_NEAR(wk_magnitude(f), std::abs(h), 1e-12 * std::abs(h)) << f << " Hz";
  }
  // ISO 2631-1's well-known anchors: 0.482 at 1 Hz, 1.036 at 8 Hz.
  EXPECT_NEAR(wk_magnitude(1.0), 0.482, 5e-4);
  EXPECT_NEAR(wk_magnitude(8.0), 1.036, 5e-4);
}

TEST(Iso2631Wk, DigitalFilterIsWithinATenthOfADecibelOfWkAtAKilohertz) {
  for (double rate : {1000.0, 2000.0}) {
    const WkFilter filter = make_wk_filter(1.0 / rate);
    double worst = 0.0;
    for (double f : kFrequencies) {
      const double error = std::abs(decibels(digital_magnitude(filter, f, 1.0 / rate) / wk_magnitude(f)));
      worst = std::fmax(worst, error);
      EXPECT_LT(error, 0.1) << f << " Hz at " << rate << " samples/s";
    }
    std::printf("  Wk digital vs continuous at %.0f samples/s: worst %.2e dB over 0.5-31.5 Hz\n", rate, worst);
  }
}

TEST(Iso2631Wk, ASineComesOutScaledByWkInTheTimeDomain) {
  // 10 s of an 8 Hz and a 1 Hz sine at 1 kHz; the RMS of the second half (transient gone) is A |Wk(f)| / sqrt 2.
  const double T = 1e-3;
  for (double f : {1.0, 8.0}) {
    WkFilter filter = make_wk_filter(T);
    VibrationDose dose;
    for (int n = 0; n < 10000; ++n) {
      const double y = filter.step(2.0 * std::sin(2.0 * kPi * f * n * T));
      if (n >= 5000) dose.add(y, T);
    }
    EXPECT_LT(std::abs(decibels(dose.rms() / (2.0 * wk_magnitude(f) / std::sqrt(2.0)))), 0.1) << f << " Hz";
  }
}

TEST(VibrationDose, RmsVdvAndCrestFactorOfASineMatchTheirClosedForms) {
  // a = A sin(2 pi f t) over 7 whole periods, 40 samples a period: RMS = A / sqrt 2, VDV = (3 A^4 D / 8)^(1/4),
  // crest factor sqrt 2 (a sample sits on each crest).
  const double A = 1.7, f = 2.5, D = 7.0 / f;
  const int samples = 7 * 40;
  const double dt = D / samples;
  VibrationDose dose;
  for (int n = 0; n < samples; ++n) dose.add(A * std::sin(2.0 * kPi * f * n * dt), dt);
  EXPECT_NEAR(dose.rms(), A / std::sqrt(2.0), 1e-6 * A);
  EXPECT_NEAR(dose.vdv(), std::pow(3.0 * A * A * A * A * D / 8.0, 0.25), 1e-6);
  EXPECT_NEAR(dose.crest_factor(), std::sqrt(2.0), 1e-6);
  EXPECT_NEAR(dose.duration, D, 1e-12);
}

}  // namespace iso2631_wk_test
}  // namespace myriad
