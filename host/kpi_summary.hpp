#pragma once
// The KPI statistics `myriad simulate` prints for a model with named KPIs: per KPI, over the instances that got
// it, the count, mean, standard deviation and the 0, 5, 50, 95 and 100th percentiles, with the unit.
#include <ostream>
#include <string>
#include <vector>

namespace myriad::cli {

// kpis[i * K + j], K = names.size(); NaN entries (instances not ok) are left out.
void print_kpi_summary(std::ostream& out, const std::vector<double>& kpis, const std::vector<std::string>& names,
                       const std::vector<std::string>& units);

}  // namespace myriad::cli
