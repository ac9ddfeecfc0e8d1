#pragma once
// Statistics of an ensemble's outputs: per output time and signal over the instances (count, mean, standard
// deviation, min, max), and per instance and signal over the output times (KPIs: max |x|, RMS, final value).
//
// Conventions
// * Only finite values count. An instance that failed contributes its values up to its failure (its
//   outputs read NaN after it); any other non-finite value (+-inf) is skipped the same way.
// * `stddev` is the SAMPLE standard deviation sqrt(M2 / (count - 1)) (Bessel's correction, as pandas, R and
//   MATLAB report it): NaN where count < 2. mean, min and max are NaN where count == 0.
// * KPIs: max_abs = max |x|, rms = sqrt(sum x^2 / n) over the instance's n finite samples (computed scaled by
//   max_abs, so it neither overflows nor underflows), final = the last finite sample; all NaN where n == 0.
//
// Determinism. The instances are cut into fixed tiles of kStatisticsTileInstances consecutive instances. Each
// tile's partial for a (time, signal) cell is a two-pass computation over the tile's instances in index order
// (sum -> tile mean, then the corrected sum of squared deviations about it); the tile partials are then
// merged by Chan's pairwise formula in a fixed bottom-up binary tree over the tile index. The order of every
// floating-point operation therefore depends only on (n_instances, n_times, n_signals): never on the thread
// count, the GPU's grid or the chunking (chunks start at multiples of the tile). KPIs are one sequential loop
// over the times of one instance. The CUDA twin (kernels/ensemble_statistics.cu) runs the same functions
// below, with explicitly rounded device arithmetic (no FMA contraction), so it performs the same operations
// in the same order.
#include <cfloat>
#include <cmath>
#include <cstddef>  // before ensemble_result.hpp, which uses size_t without including it
#include <limits>
#include <vector>

#include "core/hd.hpp"
#include "ensemble/ensemble_result.hpp"

namespace myriad {

struct EnsembleStatistics {
  int n_times = 0, n_signals = 0, n_instances = 0;
  // Per output time k and signal s, at [k * n_signals + s]; written by compute_statistics(_cuda).
  std::vector<int> count;        // instances with a finite value
  std::vector<double> mean;      // NaN where count == 0
  std::vector<double> stddev;    // sample standard deviation (n - 1); NaN where count < 2
  std::vector<double> min, max;  // NaN where count == 0
  // Per instance i and signal s, at [i * n_signals + s], over the output times; written by
  // compute_statistics(_cuda).
  std::vector<double> kpi_max_abs;  // max |x| over the finite samples; NaN if none
  std::vector<double> kpi_rms;      // sqrt(mean x^2) over the finite samples; NaN if none
  std::vector<double> kpi_final;    // last finite sample; NaN if none
};

// Statistics of `result` on the CPU. threads <= 0: all hardware threads. The result is bitwise identical for
// every thread count (see Determinism above). Cost O(n_instances * n_times * n_signals) time (each value
// is read twice), O((n_instances / kStatisticsTileInstances + 1) * n_times * n_signals) extra memory.
// Throws std::invalid_argument when result.values does not hold n_instances * n_times * n_signals values.
EnsembleStatistics compute_statistics(const EnsembleResult& result, int threads = 1);

// ---- the shared per-cell mathematics (host and device) ----

// Instances per tile of the (time, signal) reduction. Fixed: it shapes the combination order.
constexpr int kStatisticsTileInstances = 64;

// Number of tiles covering n instances.
MYRIAD_HD_INLINE long long statistics_tile_count(long long n_instances) {
  return (n_instances + kStatisticsTileInstances - 1) / kStatisticsTileInstances;
}

namespace statistics_detail {

// Correctly rounded operations that nvcc may not contract into FMAs, so device code rounds exactly as the
// host does (the host compiles ISO C++17, where GCC does not contract either).
MYRIAD_HD_INLINE double add(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
MYRIAD_HD_INLINE double sub(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}
MYRIAD_HD_INLINE double mul(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
MYRIAD_HD_INLINE double div(double a, double b) {
#ifdef __CUDA_ARCH__
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}
MYRIAD_HD_INLINE double square_root(double a) {
#ifdef __CUDA_ARCH__
  return __dsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}
MYRIAD_HD_INLINE bool is_finite(double x) { return std::fabs(x) <= DBL_MAX; }  // false for NaN and +-inf
// (numeric_limits' constexpr members are usable in device code: myriad_cuda compiles with
// --expt-relaxed-constexpr.)
MYRIAD_HD_INLINE double not_a_number() { return std::numeric_limits<double>::quiet_NaN(); }
MYRIAD_HD_INLINE double infinity() { return std::numeric_limits<double>::infinity(); }

}  // namespace statistics_detail

// Statistics of the finite values of one (time, signal) cell over a set of instances.
struct MomentPartial {
  double count;  // number of finite values (exact in a double up to 2^53)
  double mean;   // their mean; 0 when count == 0
  double m2;     // sum of squared deviations from `mean`
  double min;    // +inf when count == 0
  double max;    // -inf when count == 0
};

MYRIAD_HD_INLINE MomentPartial empty_moment_partial() {
  return {0.0, 0.0, 0.0, statistics_detail::infinity(), -statistics_detail::infinity()};
}

// First pass over a tile: count, sum, min and max of the finite values.
struct TileFirstPass {
  double count = 0.0, sum = 0.0, min = statistics_detail::infinity(), max = -statistics_detail::infinity();
};
MYRIAD_HD_INLINE void tile_first_pass_add(TileFirstPass& pass, double x) {
  if (!statistics_detail::is_finite(x)) return;
  pass.count = statistics_detail::add(pass.count, 1.0);
  pass.sum = statistics_detail::add(pass.sum, x);
  if (x < pass.min) pass.min = x;
  if (x > pass.max) pass.max = x;
}
// The first pass's mean (0 when it saw nothing): the shift of the second pass.
MYRIAD_HD_INLINE double tile_first_pass_mean(const TileFirstPass& pass) {
  return pass.count > 0.0 ? statistics_detail::div(pass.sum, pass.count) : 0.0;
}

// Second pass over the same tile: sums of d = x - shift and of d^2 over the finite values.
struct TileSecondPass {
  double sum = 0.0, sum_squares = 0.0;
};
MYRIAD_HD_INLINE void tile_second_pass_add(TileSecondPass& pass, double x, double shift) {
  if (!statistics_detail::is_finite(x)) return;
  const double d = statistics_detail::sub(x, shift);
  pass.sum = statistics_detail::add(pass.sum, d);
  pass.sum_squares = statistics_detail::add(pass.sum_squares, statistics_detail::mul(d, d));
}

// The tile's partial by the corrected two-pass formula: mean = shift + sum d / n, M2 = sum d^2 - (sum d)^2 /
// n (Chan, Golub and LeVeque 1983), which cancels the first-order effect of the rounding in the first-pass
// mean.
MYRIAD_HD_INLINE MomentPartial tile_moment_partial(const TileFirstPass& first, const TileSecondPass& second) {
  namespace d = statistics_detail;
  if (!(first.count > 0.0)) return empty_moment_partial();
  const double shift = tile_first_pass_mean(first);
  MomentPartial p;
  p.count = first.count;
  p.mean = d::add(shift, d::div(second.sum, first.count));
  const double m2 = d::sub(second.sum_squares, d::div(d::mul(second.sum, second.sum), first.count));
  p.m2 = m2 > 0.0 ? m2 : 0.0;
  p.min = first.min;
  p.max = first.max;
  return p;
}

// Chan's pairwise merge of two disjoint sets' partials: delta = mean_b - mean_a, mean = mean_a + delta n_b /
// n, M2 = M2_a + M2_b + delta^2 n_a n_b / n.
MYRIAD_HD_INLINE MomentPartial merge_moment_partials(const MomentPartial& a, const MomentPartial& b) {
  namespace d = statistics_detail;
  if (!(b.count > 0.0)) return a;
  if (!(a.count > 0.0)) return b;
  MomentPartial p;
  p.count = d::add(a.count, b.count);
  const double delta = d::sub(b.mean, a.mean);
  p.mean = d::add(a.mean, d::mul(delta, d::div(b.count, p.count)));
  p.m2 = d::add(d::add(a.m2, b.m2), d::mul(d::mul(delta, delta), d::div(d::mul(a.count, b.count), p.count)));
  p.min = b.min < a.min ? b.min : a.min;
  p.max = b.max > a.max ? b.max : a.max;
  return p;
}

// Merges partials[0], partials[stride], ... partials[(n_tiles - 1) * stride] in place, bottom-up pairwise:
// level by level (width 1, 2, 4, ...), tile j absorbs tile j + width for every j that is a multiple of 2 *
// width. The tree depends on n_tiles only. Returns the merged partial (empty if n_tiles == 0). O(n_tiles).
MYRIAD_HD_INLINE MomentPartial merge_tiles_in_place(MomentPartial* partials, long long stride,
                                                    long long n_tiles) {
  for (long long width = 1; width < n_tiles; width *= 2)
    for (long long j = 0; j + width < n_tiles; j += 2 * width)
      partials[j * stride] = merge_moment_partials(partials[j * stride], partials[(j + width) * stride]);
  return n_tiles > 0 ? partials[0] : empty_moment_partial();
}

// Count, mean, sample standard deviation, min and max of a merged partial, with the NaN conventions above.
MYRIAD_HD_INLINE void finish_moments(const MomentPartial& p, int* count, double* mean, double* stddev,
                                     double* min, double* max) {
  namespace d = statistics_detail;
  const bool any = p.count > 0.0;
  *count = static_cast<int>(p.count);
  *mean = any ? p.mean : d::not_a_number();
  *stddev = p.count > 1.0 ? d::square_root(d::div(p.m2, d::sub(p.count, 1.0))) : d::not_a_number();
  *min = any ? p.min : d::not_a_number();
  *max = any ? p.max : d::not_a_number();
}

// KPIs of one instance's signal: samples x[0], x[stride], ..., x[(n_times - 1) * stride] in time order. Two
// sequential passes: max |x|, count and last finite sample; then sum (x / max|x|)^2. O(n_times).
MYRIAD_HD_INLINE void instance_signal_kpis(const double* x, long long stride, int n_times, double* max_abs,
                                           double* rms, double* final_value) {
  namespace d = statistics_detail;
  double largest = 0.0, count = 0.0, last = d::not_a_number();
  for (int k = 0; k < n_times; ++k) {
    const double value = x[k * stride];
    if (!d::is_finite(value)) continue;
    const double magnitude = std::fabs(value);
    if (magnitude > largest) largest = magnitude;
    count = d::add(count, 1.0);
    last = value;
  }
  if (!(count > 0.0)) {
    *max_abs = *rms = *final_value = d::not_a_number();
    return;
  }
  *max_abs = largest;
  *final_value = last;
  if (!(largest > 0.0)) {
    *rms = 0.0;
    return;
  }
  double sum_squares = 0.0;
  for (int k = 0; k < n_times; ++k) {
    const double value = x[k * stride];
    if (!d::is_finite(value)) continue;
    const double scaled = d::div(value, largest);
    sum_squares = d::add(sum_squares, d::mul(scaled, scaled));
  }
  *rms = d::mul(largest, d::square_root(d::div(sum_squares, count)));
}

// compute_statistics chunk by chunk (the CLI's --summary beside a CSV --out written in chunks): each chunk's tile
// partials and its instances' KPIs as it arrives, the tree over the tiles at the end, so the series are never held
// whole. Chunks come in instance order and every chunk but the last holds a multiple of kStatisticsTileInstances
// instances, so each tile lies within one chunk: the result is compute_statistics's of the whole, bit for bit.
// Holds (n_instances / kStatisticsTileInstances + 1) x n_times x n_signals partials and the per-instance KPIs.
struct StatisticsStream {
  long long n_instances = 0, next_instance = 0;
  int n_times = 0, n_signals = 0;
  std::vector<MomentPartial> partials;  // [tile * cells + cell]
  EnsembleStatistics stats;             // the KPIs filled chunk by chunk; the moments by finish_statistics
};
StatisticsStream begin_statistics(long long n_instances, int n_times, int n_signals);
// The next `n_chunk` instances' values (n_chunk x n_times x n_signals, instance-major). Throws
// std::invalid_argument when the chunk would split a tile or run past the ensemble.
void add_statistics_chunk(StatisticsStream& stream, long long n_chunk, const double* values, int threads = 1);
// The statistics, once every instance has been added (std::invalid_argument otherwise).
EnsembleStatistics finish_statistics(StatisticsStream& stream, int threads = 1);

}  // namespace myriad
