#pragma once
// Named KPIs (docs/model-format.md, "KPIs") updated at every output time from the instance's output row, so a run
// needs to keep no time series to get them. Host+device: the per-instance recorders of ensemble/simulate_instance.hpp
// call kpi_update on the CPU and the GPU alike; kpi_value turns the running state into the number reported.
//
// Every sample counts the same (the output grid is uniform but for a possibly shorter last interval), so means are
// means over output times, and times are sample counts times the output interval T. Only samples at t >= `from`
// count; the Wk filter (kpi/iso2631_wk.hpp, bilinear with pre-warping at the sample interval T) runs from the
// first sample so that it has settled by `from`. ISO 2631-1 metrics as in kpi/vibration_dose.hpp.
#include <cmath>

#include "core/hd.hpp"
#include "kpi/iso2631_wk.hpp"
#include "model/compiled_model.hpp"

namespace myriad {

// Running state of one KPI of one instance. Trivially copyable; lives in a caller's double array
// (kKpiStateDoubles per KPI).
struct KpiState {
  double T;                  // sample interval (output grid spacing)
  double count, hits;        // samples counted, samples meeting the threshold
  double sum, sum2;          // of the scaled signal x
  double first, sum_change2; // x at the first output time, sum of (x - first)^2
  double min, max, peak;     // of x; peak = max |x|
  double w_sum2, w_sum4, w_peak;  // of the Wk-weighted x
  WkFilter wk;
};
constexpr int kKpiStateDoubles = static_cast<int>(sizeof(KpiState) / sizeof(double));
static_assert(sizeof(KpiState) % sizeof(double) == 0, "KpiState is stored as doubles");

MYRIAD_HD_INLINE KpiState& kpi_state(double* states, int kpi) {
  return *reinterpret_cast<KpiState*>(states + static_cast<long long>(kpi) * kKpiStateDoubles);
}
MYRIAD_HD_INLINE const KpiState& kpi_state(const double* states, int kpi) {
  return *reinterpret_cast<const KpiState*>(states + static_cast<long long>(kpi) * kKpiStateDoubles);
}

// Output time `index` (0, 1, ... in order) of the instance: row[s] is output s at time t. `output_times` is the
// run's grid (n_times >= 1), whose first interval sets T. Outlined on the device: every integrator's recorder
// reaches it, and one copy per kernel compiles faster than an inlined Wk filter in each.
template <class Row>
MYRIAD_HD_OUTLINE void kpi_update(const CompiledModel& model, double* states, int index, double t, const Row* row,
                                  const double* output_times, int n_times) {
  for (int j = 0; j < model.n_kpis; ++j) {
    const CompiledKpi& spec = model.kpis[j];
    KpiState& s = kpi_state(states, j);
    const double x = spec.scale * row[spec.output] + 0.0;  // + 0.0: a scaled zero reads 0, not -0
    if (index == 0) {
      s = KpiState{};
      s.T = n_times > 1 ? output_times[1] - output_times[0] : 0.0;
      s.first = x;
      s.min = INFINITY;
      s.max = -INFINITY;
      if (kpi_is_wk_weighted(spec.type) && s.T > 0.0) s.wk = make_wk_filter(s.T);
    }
    const double w = kpi_is_wk_weighted(spec.type) && s.T > 0.0 ? s.wk.step(x) : 0.0;
    if (!(t >= spec.from)) continue;
    s.count += 1.0;
    s.sum += x;
    s.sum2 += x * x;
    s.sum_change2 += (x - s.first) * (x - s.first);
    s.min = std::fmin(s.min, x);
    s.max = std::fmax(s.max, x);
    s.peak = std::fmax(s.peak, std::fabs(x));
    const bool at_least = spec.type == kKpiFractionAtLeast || spec.type == kKpiTimeAtLeast;
    if (at_least ? x >= spec.threshold : x <= spec.threshold) s.hits += 1.0;
    s.w_sum2 += w * w;
    s.w_sum4 += w * w * w * w;
    s.w_peak = std::fmax(s.w_peak, std::fabs(w));
  }
}

// The KPI's value from its state; NaN when no sample counted (a run that failed before `from`, or `from` past the
// end).
MYRIAD_HD_INLINE double kpi_value(const CompiledKpi& spec, const KpiState& s) {
  if (!(s.count > 0.0)) return NAN;
  const double n = s.count;
  switch (spec.type) {
    case kKpiMean: return s.sum / n;
    case kKpiRms: return std::sqrt(s.sum2 / n);
    case kKpiMin: return s.min;
    case kKpiMax: return s.max;
    case kKpiMaxAbs: return s.peak;
    case kKpiRmsChange: return std::sqrt(s.sum_change2 / n);
    case kKpiRmsChangeRelative: return std::sqrt(s.sum_change2 / n) / std::fabs(s.first);
    case kKpiFractionAtLeast:
    case kKpiFractionAtMost: return s.hits / n;
    case kKpiTimeAtLeast:
    case kKpiTimeAtMost: return s.hits * s.T;
    case kKpiWkRms: return std::sqrt(s.w_sum2 / n);
    case kKpiWkVdv: return std::sqrt(std::sqrt(s.w_sum4 * s.T));  // (integral a_w^4 dt)^(1/4), rectangle rule
    case kKpiWkCrestFactor: {
      const double rms = std::sqrt(s.w_sum2 / n);
      return rms > 0.0 ? s.w_peak / rms : NAN;
    }
    default: return NAN;
  }
}

}  // namespace myriad
