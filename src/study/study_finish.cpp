// Statistics, Sobol indices and the KPI CSV from the results file.
#include "study/study_finish.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "io/atomic_file.hpp"
#include "myriad/myriad.hpp"
#include "study/sobol_indices.hpp"

namespace myriad::study {
namespace {

constexpr long long kReadRows = 4096;  // rows per read: bounded memory whatever N is

std::string number_text(double v) {
  if (std::isnan(v)) return "nan";
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

}  // namespace

void write_series_statistics(ResultsFile& file) {
  const ResultsLayout& l = file.layout();
  const std::size_t t = l.series_times.size();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t s = 0; s < l.series_signals.size(); ++s) {
    std::vector<double> count(t, 0.0), mean(t, 0.0), m2(t, 0.0), low(t, nan), high(t, nan);
    std::vector<double> rows;
    for (long long row0 = 0; row0 < l.instances; row0 += kReadRows) {
      const long long n = std::min(kReadRows, l.instances - row0);
      rows.resize(static_cast<std::size_t>(n) * t);
      file.read_series_rows(s, row0, n, rows.data());
      for (long long i = 0; i < n; ++i)
        for (std::size_t k = 0; k < t; ++k) {
          const double x = rows[static_cast<std::size_t>(i) * t + k];
          if (!std::isfinite(x)) continue;  // after an instance's failure
          count[k] += 1.0;
          const double delta = x - mean[k];
          mean[k] += delta / count[k];
          m2[k] += delta * (x - mean[k]);
          low[k] = std::isnan(low[k]) ? x : std::min(low[k], x);
          high[k] = std::isnan(high[k]) ? x : std::max(high[k], x);
        }
    }
    std::vector<double> sd(t, nan);
    for (std::size_t k = 0; k < t; ++k) {
      if (count[k] == 0.0) mean[k] = nan;
      if (count[k] > 1.0) sd[k] = std::sqrt(m2[k] / (count[k] - 1.0));
    }
    file.write_statistics(s, count, mean, sd, low, high);
  }
}

void write_sobol_indices(ResultsFile& file, const StudySpec& spec) {
  if (spec.sampler.kind != SamplerKind::saltelli) return;
  const ResultsLayout& l = file.layout();
  const std::size_t k_count = l.kpi_names.size();
  const int p = static_cast<int>(l.parameter_names.size());
  std::vector<std::vector<double>> columns(k_count);
  std::vector<double> rows;
  for (long long row0 = 0; row0 < l.instances; row0 += kReadRows) {
    const long long n = std::min(kReadRows, l.instances - row0);
    rows.resize(static_cast<std::size_t>(n) * k_count);
    file.read_kpi_rows(row0, n, rows.data());
    for (long long i = 0; i < n; ++i)
      for (std::size_t k = 0; k < k_count; ++k)
        columns[k].push_back(rows[static_cast<std::size_t>(i) * k_count + k]);
  }
  for (std::size_t k = 0; k < k_count; ++k) {
    const SobolIndices s = sobol_indices(columns[k], spec.sampler.samples, p, spec.bootstrap, spec.confidence,
                                         spec.sampler.seed);
    file.write_sobol(l.kpi_names[k], s.s1, s.s1_conf, s.st, s.st_conf, spec.bootstrap, spec.confidence);
  }
}

void write_kpi_csv(const ResultsFile& file, const std::string& path) {
  const ResultsLayout& l = file.layout();
  write_file_atomically(path, [&](std::ostream& out) {
    out << "instance,status";
    for (const std::string& name : l.parameter_names) out << ',' << name;
    for (const std::string& name : l.kpi_names) out << ',' << name;
    out << '\n';
    const std::size_t p = l.parameter_names.size(), k = l.kpi_names.size();
    std::vector<double> parameters, kpis;
    std::vector<std::int32_t> status;
    for (long long row0 = 0; row0 < l.instances; row0 += kReadRows) {
      const long long n = std::min(kReadRows, l.instances - row0);
      parameters.resize(static_cast<std::size_t>(n) * p);
      kpis.resize(static_cast<std::size_t>(n) * k);
      status.resize(static_cast<std::size_t>(n));
      file.read_parameters(row0, n, parameters.data());
      file.read_kpi_rows(row0, n, kpis.data());
      file.read_status_rows(row0, n, status.data());
      for (long long i = 0; i < n; ++i) {
        const std::size_t r = static_cast<std::size_t>(i);
        const int code = status[r];
        out << row0 + i << ',' << api::status_name(code);
        for (std::size_t c = 0; c < p; ++c) out << ',' << number_text(parameters[r * p + c]);
        for (std::size_t c = 0; c < k; ++c) out << ',' << number_text(kpis[r * k + c]);
        out << '\n';
      }
    }
  });
}

}  // namespace myriad::study
