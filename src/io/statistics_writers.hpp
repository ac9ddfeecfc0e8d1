#pragma once
// Files of the ensemble statistics (src/ensemble/ensemble_statistics.hpp): the per-(time, signal) summary and
// the per-(instance, signal) KPIs, as CSV with 17 significant digits. Both written atomically (temporary
// name, then rename). Missing values (count 0, or count < 2 for std) are written as `nan`, as in the result
// CSV.
#include <string>
#include <vector>

#include "ensemble/ensemble_statistics.hpp"

namespace myriad {

// Header `time,signal,count,mean,std,min,max`; one row per output time (outer) and signal (inner); `std` is
// the sample standard deviation. O(n_times * n_signals). Throws std::invalid_argument when times has not
// n_times entries or signal_names not n_signals, std::runtime_error (naming the path) when the file cannot be
// written.
void write_summary_csv(const std::string& path, const EnsembleStatistics& stats,
                       const std::vector<double>& times, const std::vector<std::string>& signal_names);

// Header `instance,signal,max_abs,rms,final`; one row per instance (outer) and signal (inner).
// O(n_instances * n_signals). Throws as write_summary_csv.
void write_kpi_csv(const std::string& path, const EnsembleStatistics& stats,
                   const std::vector<std::string>& signal_names);

// Header `instance,kpi,value,unit`: the model's named KPIs (kpi/kpi.hpp), kpis[i * K + j] for K = names.size(),
// one row per instance (outer) and KPI (inner); a KPI an instance did not get (status not ok) is `nan`.
// O(n_instances * K). Throws std::invalid_argument on mismatched sizes, std::runtime_error as write_summary_csv.
void write_named_kpi_csv(const std::string& path, long long n_instances, const std::vector<double>& kpis,
                         const std::vector<std::string>& names, const std::vector<std::string>& units);

}  // namespace myriad
