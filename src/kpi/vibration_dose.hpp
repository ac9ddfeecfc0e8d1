#pragma once
// Running ISO 2631-1 comfort metrics of one acceleration signal, updated sample by sample so that no time series
// has to be kept: the RMS a_w = sqrt(mean(a^2)), the vibration dose value VDV = (integral a^4 dt)^(1/4)
// (m/s^1.75) and the crest factor max|a| / a_w (ISO 2631-1 sec. 6.2-6.3: VDV is the measure when the crest factor
// is above 9). Feed it the Wk-weighted signal (kpi/iso2631_wk.hpp) for the standard's numbers. The integrals are
// rectangle sums over the samples, which over whole periods of a sampled sine are exact (for a^4, with more than
// four samples a period). Host+device, no allocation.
#include <cmath>

#include "core/hd.hpp"

namespace myriad {

struct VibrationDose {
  double sum_a2_dt = 0.0;  // integral of a^2 dt
  double sum_a4_dt = 0.0;  // integral of a^4 dt
  double duration = 0.0;   // integral of dt
  double peak = 0.0;       // max |a|

  // One sample a held over dt seconds.
  MYRIAD_HD_INLINE void add(double a, double dt) {
    const double a2 = a * a;
    sum_a2_dt += a2 * dt;
    sum_a4_dt += a2 * a2 * dt;
    duration += dt;
    peak = std::fmax(peak, std::fabs(a));
  }
  MYRIAD_HD_INLINE double rms() const { return duration > 0.0 ? std::sqrt(sum_a2_dt / duration) : 0.0; }
  MYRIAD_HD_INLINE double vdv() const { return std::sqrt(std::sqrt(sum_a4_dt)); }
  MYRIAD_HD_INLINE double crest_factor() const {
    const double r = rms();
    return r > 0.0 ? peak / r : 0.0;
  }
};

}  // namespace myriad
