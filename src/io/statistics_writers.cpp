#include "io/statistics_writers.hpp"

#include <iomanip>
#include <stdexcept>

#include "io/atomic_file.hpp"

namespace myriad {

namespace {

void check_signal_names(const char* caller, const EnsembleStatistics& stats,
                        const std::vector<std::string>& signal_names) {
  if (signal_names.size() != static_cast<size_t>(stats.n_signals))
    throw std::invalid_argument(std::string(caller) + ": " + std::to_string(signal_names.size()) +
                                " signal names for " + std::to_string(stats.n_signals) + " signals");
}

}  // namespace

void write_summary_csv(const std::string& path, const EnsembleStatistics& stats,
                       const std::vector<double>& times, const std::vector<std::string>& signal_names) {
  check_signal_names("write_summary_csv", stats, signal_names);
  if (times.size() != static_cast<size_t>(stats.n_times))
    throw std::invalid_argument("write_summary_csv: " + std::to_string(times.size()) + " output times for " +
                                std::to_string(stats.n_times) + " in the statistics");
  write_file_atomically(path, [&](std::ostream& out) {
    out << "time,signal,count,mean,std,min,max\n" << std::setprecision(17);
    for (int k = 0; k < stats.n_times; ++k)
      for (int s = 0; s < stats.n_signals; ++s) {
        const size_t at =
            static_cast<size_t>(k) * static_cast<size_t>(stats.n_signals) + static_cast<size_t>(s);
        out << times[static_cast<size_t>(k)] << ',' << signal_names[static_cast<size_t>(s)] << ','
            << stats.count[at] << ',' << stats.mean[at] << ',' << stats.stddev[at] << ',' << stats.min[at]
            << ',' << stats.max[at] << '\n';
      }
  });
}

void write_kpi_csv(const std::string& path, const EnsembleStatistics& stats,
                   const std::vector<std::string>& signal_names) {
  check_signal_names("write_kpi_csv", stats, signal_names);
  write_file_atomically(path, [&](std::ostream& out) {
    out << "instance,signal,max_abs,rms,final\n" << std::setprecision(17);
    for (int i = 0; i < stats.n_instances; ++i)
      for (int s = 0; s < stats.n_signals; ++s) {
        const size_t at =
            static_cast<size_t>(i) * static_cast<size_t>(stats.n_signals) + static_cast<size_t>(s);
        out << i << ',' << signal_names[static_cast<size_t>(s)] << ',' << stats.kpi_max_abs[at] << ','
            << stats.kpi_rms[at] << ',' << stats.kpi_final[at] << '\n';
      }
  });
}

void write_named_kpi_csv(const std::string& path, long long n_instances, const std::vector<double>& kpis,
                         const std::vector<std::string>& names, const std::vector<std::string>& units) {
  const size_t k = names.size();
  if (units.size() != k || kpis.size() != static_cast<size_t>(n_instances) * k)
    throw std::invalid_argument("write_named_kpi_csv: " + std::to_string(kpis.size()) + " values, " +
                                std::to_string(k) + " names and " + std::to_string(units.size()) + " units for " +
                                std::to_string(n_instances) + " instances");
  write_file_atomically(path, [&](std::ostream& out) {
    out << "instance,kpi,value,unit\n" << std::setprecision(17);
    for (long long i = 0; i < n_instances; ++i)
      for (size_t j = 0; j < k; ++j)
        out << i << ',' << names[j] << ',' << kpis[static_cast<size_t>(i) * k + j] << ',' << units[j] << '\n';
  });
}

}  // namespace myriad
