#pragma once
// The marginal distributions of study parameters, each given by its inverse CDF so a unit-cube design
// (Sobol', Latin hypercube) maps to parameter values by inversion, which keeps the design's stratification.
#include <vector>

namespace myriad::study {

enum class DistributionKind { uniform, normal, lognormal, truncated_normal, levels };

struct Distribution {
  DistributionKind kind = DistributionKind::uniform;
  double lower = 0.0, upper = 1.0;  // uniform bounds; truncated_normal's truncation bounds
  // normal and truncated_normal (of the untruncated normal); lognormal: mu and sigma of log(x)
  double mean = 0.0, sd = 1.0;
  std::vector<double> levels;  // levels: equally likely discrete values
};

// The standard normal CDF, via erfc so that both tails keep their relative accuracy (0.5 (1 + erf) would lose
// the lower tail), as far as the C library's erfc allows (glibc 2.36: within 3e-14 relative down to 1e-300).
double normal_cdf(double x);

// The inverse standard normal CDF, Wichura's AS241 (PPND16), within a few 1e-16 relative: p in [0,1], -inf at
// 0, +inf at 1; NaN outside or for NaN.
double normal_quantile(double p);

// The distribution's value at unit-cube coordinate u in [0, 1] (its inverse CDF); NaN for u outside [0, 1].
// levels: levels[min(floor(u*n), n-1)].
// truncated normal: mean + sd * Phi^-1(Phi(a) + u (Phi(b) - Phi(a))), a and b the standardized bounds,
// computed in the lower tail by symmetry when both bounds are above the mean so it stays accurate (and never
// leaves [lower, upper]). Throws std::invalid_argument for a distribution that has no inverse CDF: uniform or
// truncated bounds not ordered, a negative sd or sigma, no levels.
double quantile(const Distribution& d, double u);

}  // namespace myriad::study
