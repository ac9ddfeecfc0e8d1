#include "kpi_summary.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>

namespace myriad::cli {
namespace {

// Linear interpolation between order statistics (numpy's default percentile).
double percentile(const std::vector<double>& sorted, double p) {
  const double at = p / 100.0 * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(at)), hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (at - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

}  // namespace

void print_kpi_summary(std::ostream& out, const std::vector<double>& kpis, const std::vector<std::string>& names,
                       const std::vector<std::string>& units) {
  const size_t k = names.size();
  if (k == 0) return;
  const size_t n = kpis.size() / k;
  out << "KPIs over the instances (count, mean, std, min, p5, median, p95, max):\n" << std::setprecision(5);
  for (size_t j = 0; j < k; ++j) {
    std::vector<double> values;
    for (size_t i = 0; i < n; ++i)
      if (!std::isnan(kpis[i * k + j])) values.push_back(kpis[i * k + j]);
    out << "  " << std::left << std::setw(22) << names[j] << std::right << " [" << units[j] << "]  " << values.size();
    if (values.empty()) {
      out << "  (no instance finished ok)\n";
      continue;
    }
    std::sort(values.begin(), values.end());
    double mean = 0.0, spread = 0.0;
    for (double v : values) mean += v / static_cast<double>(values.size());
    for (double v : values) spread += (v - mean) * (v - mean);
    const double stddev = values.size() > 1 ? std::sqrt(spread / static_cast<double>(values.size() - 1)) : NAN;
    out << "  " << mean << "  " << stddev << "  " << values.front() << "  " << percentile(values, 5) << "  "
        << percentile(values, 50) << "  " << percentile(values, 95) << "  " << values.back() << '\n';
  }
}

}  // namespace myriad::cli
