// Sobol' indices: the estimators of Saltelli et al. (2010) as SALib writes them, first order
// S1_j = mean(f_B (f_ABj - f_A)) / V and total ST_j = mean((f_A - f_ABj)^2) / (2 V), V the variance of f_A
// and f_B together, after SALib's normalisation y <- (y - mean) / sd over all rows.
#include "study/sobol_indices.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "study/distributions.hpp"
#include "study/splitmix64.hpp"

namespace myriad::study {
namespace {

// The outputs of the base rows `rows` (indices into 0..n-1, repeats allowed) split as SALib does.
struct Estimate {
  double s1 = 0.0, st = 0.0;
};

Estimate estimate(const std::vector<double>& y, const std::vector<long long>& rows, int p, int j) {
  const long long step = 2LL * p + 2;
  const double count = static_cast<double>(rows.size());
  // V: population variance of the A and B outputs of the rows taken.
  double mean = 0.0;
  for (long long i : rows) mean += y[i * step] + y[i * step + step - 1];
  mean /= 2.0 * count;
  double variance = 0.0, first = 0.0, total = 0.0;
  for (long long i : rows) {
    const double a = y[i * step], b = y[i * step + step - 1], ab = y[i * step + 1 + j];
    variance += (a - mean) * (a - mean) + (b - mean) * (b - mean);
    first += b * (ab - a);
    total += (a - ab) * (a - ab);
  }
  variance /= 2.0 * count;
  // SALib returns 0 for a constant output instead of 0 / 0.
  if (!(variance > std::numeric_limits<double>::epsilon())) return {};
  return {first / count / variance, 0.5 * total / count / variance};
}

double sample_sd(const std::vector<double>& v) {
  double mean = 0.0;
  for (double x : v) mean += x;
  mean /= static_cast<double>(v.size());
  double sum = 0.0;
  for (double x : v) sum += (x - mean) * (x - mean);
  return std::sqrt(sum / static_cast<double>(v.size() - 1));
}

}  // namespace

SobolIndices sobol_indices(const std::vector<double>& y_raw, long long n, int p, int resamples,
                           double confidence, std::uint64_t seed) {
  const long long step = 2LL * p + 2;
  if (n < 1 || p < 1 || static_cast<long long>(y_raw.size()) != n * step)
    throw std::invalid_argument("sobol_indices: " + std::to_string(y_raw.size()) +
                                " outputs, expected n (2p + 2) = " + std::to_string(n * step));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  SobolIndices out;
  out.s1.assign(p, nan);
  out.s1_conf.assign(p, nan);
  out.st.assign(p, nan);
  out.st_conf.assign(p, nan);
  for (double v : y_raw)
    if (!std::isfinite(v)) return out;
  // SALib's normalisation: centred, divided by the population standard deviation of every output.
  double mean = 0.0;
  for (double v : y_raw) mean += v;
  mean /= static_cast<double>(y_raw.size());
  double sum = 0.0;
  for (double v : y_raw) sum += (v - mean) * (v - mean);
  const double sd = std::sqrt(sum / static_cast<double>(y_raw.size()));
  std::vector<double> y(y_raw.size());
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = sd > 0 ? (y_raw[i] - mean) / sd : 0.0;

  std::vector<long long> all(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) all[static_cast<std::size_t>(i)] = i;
  for (int j = 0; j < p; ++j) {
    const Estimate e = estimate(y, all, p, j);
    out.s1[j] = e.s1;
    out.st[j] = e.st;
  }
  if (resamples < 2) return out;
  // One set of resampled rows serves every parameter, as in SALib (r = rng(N, size=(N, resamples))).
  const double z = normal_quantile(0.5 + confidence / 2.0);
  std::vector<std::vector<double>> s1(p), st(p);
  SplitMix64 generator(seed);
  std::vector<long long> rows(static_cast<std::size_t>(n));
  for (int r = 0; r < resamples; ++r) {
    for (long long& i : rows) i = static_cast<long long>(generator.below(static_cast<std::uint64_t>(n)));
    for (int j = 0; j < p; ++j) {
      const Estimate e = estimate(y, rows, p, j);
      s1[j].push_back(e.s1);
      st[j].push_back(e.st);
    }
  }
  for (int j = 0; j < p; ++j) {
    out.s1_conf[j] = z * sample_sd(s1[j]);
    out.st_conf[j] = z * sample_sd(st[j]);
  }
  return out;
}

}  // namespace myriad::study
