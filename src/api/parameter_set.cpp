#include "api/parameter_set.hpp"

#include <cmath>
#include <set>
#include <stdexcept>
#include <string>

#include "api/run_options.hpp"

namespace myriad::api {

ParameterSet ParameterSet::from_csv(const std::string& path) {
  ParameterTable table = read_parameter_csv(path);
  ParameterSet set;
  set.source = table.source;
  set.names = std::move(table.names);
  set.rows = static_cast<long long>(table.rows.size());
  set.values.reserve(static_cast<size_t>(set.rows) * set.names.size());
  for (std::vector<double>& row : table.rows) {
    set.values.insert(set.values.end(), row.begin(), row.end());
    std::vector<double>().swap(row);  // the table's rows go as the flat copy grows
  }
  return set;
}

ParameterSet ParameterSet::from_array(std::vector<std::string> names, long long rows, const double* row_major) {
  if (names.empty()) throw std::invalid_argument("parameter array: no columns (give at least one parameter name)");
  if (names.size() > kMaxParameterColumns)
    throw std::invalid_argument("parameter array: " + std::to_string(names.size()) + " columns, more than the limit of " +
                                std::to_string(kMaxParameterColumns));
  if (rows < 1 || rows > static_cast<long long>(kMaxParameterRows))
    throw std::invalid_argument("parameter array: " + std::to_string(rows) + " rows; must be 1 .. " +
                                std::to_string(kMaxParameterRows));
  if (row_major == nullptr) throw std::invalid_argument("parameter array: no values (null data)");
  std::set<std::string> seen;
  for (size_t c = 0; c < names.size(); ++c) {
    if (names[c].empty())
      throw std::invalid_argument("parameter array: column " + std::to_string(c) + " has an empty name");
    if (!seen.insert(names[c]).second)
      throw std::invalid_argument("parameter array: column " + std::to_string(c) + ": duplicate name '" + names[c] +
                                  "'");
  }
  const size_t columns = names.size();
  ParameterSet set;
  set.source = "<array>";
  set.rows = rows;
  set.values.assign(row_major, row_major + static_cast<size_t>(rows) * columns);
  for (size_t k = 0; k < set.values.size(); ++k)
    if (!std::isfinite(set.values[k]))
      throw std::invalid_argument("parameter array: row " + std::to_string(k / columns) + ", column " +
                                  std::to_string(k % columns) + " ('" + names[k % columns] + "'): " +
                                  shown(set.values[k]) + " is not a finite number");
  set.names = std::move(names);
  return set;
}

ParameterTable to_parameter_table(const ParameterSet& set) {
  const size_t columns = set.names.size();
  if (set.rows < 0 || set.values.size() != static_cast<size_t>(set.rows) * columns)
    throw std::invalid_argument(set.source + ": " + std::to_string(set.values.size()) + " values for " +
                                std::to_string(set.rows) + " rows x " + std::to_string(columns) + " columns");
  ParameterTable table;
  table.source = set.source;
  table.names = set.names;
  table.rows.resize(static_cast<size_t>(set.rows));
  for (size_t i = 0; i < table.rows.size(); ++i)
    table.rows[i].assign(set.values.begin() + static_cast<std::ptrdiff_t>(i * columns),
                         set.values.begin() + static_cast<std::ptrdiff_t>((i + 1) * columns));
  return table;
}

}  // namespace myriad::api
