#pragma once
// First-order and total Sobol' indices from the outputs of a Saltelli design (Saltelli et al. 2010, the
// estimators SALib's sobol.analyze uses, on outputs centred and scaled as it does), with bootstrap confidence
// intervals.
#include <cstdint>
#include <vector>

namespace myriad::study {

struct SobolIndices {
  std::vector<double> s1, s1_conf, st, st_conf;  // P each; conf: the half-width of the confidence interval
};

// y: the model's output on the n (2p + 2) rows of saltelli_rows (SALib's order: A, AB_1..AB_p, BA_1..BA_p, B
// per base row). Any non-finite output makes every index NaN (a failed instance leaves no estimate). The
// intervals are z * sd(ddof 1) of `resamples` bootstrap estimates (base rows drawn with replacement by a
// generator seeded with `seed`), z the normal quantile of 0.5 + confidence / 2; resamples = 0 gives NaN
// intervals. O(n p resamples).
SobolIndices sobol_indices(const std::vector<double>& y, long long n, int p, int resamples, double confidence,
                           std::uint64_t seed);

}  // namespace myriad::study
