#pragma once
// Per-instance parameter values from a CSV file: a header of parameter names, then one row per instance.
#include <string>
#include <vector>

namespace myriad {

struct ParameterTable {
  std::string source;                       // file name, for messages
  std::vector<std::string> names;           // columns
  std::vector<std::vector<double>> rows;    // rows[instance][column]
};

// Throws std::runtime_error naming the file, line and column on malformed input (empty file, empty or duplicate
// column name, wrong field count, a field that is not a finite number, no data rows).
ParameterTable read_parameter_csv(const std::string& path);
ParameterTable parse_parameter_csv(const std::string& text, const std::string& source);

}  // namespace myriad
