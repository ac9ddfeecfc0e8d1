#include "ensemble/parameter_table.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace myriad {
namespace {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return {};
  const size_t b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::stringstream ss(line);
  std::string field;
  while (std::getline(ss, field, ',')) fields.push_back(trim(field));
  if (!line.empty() && line.back() == ',') fields.push_back("");
  return fields;
}

[[noreturn]] void fail(const std::string& source, size_t line, const std::string& reason) {
  throw std::runtime_error(source + ":" + std::to_string(line) + ": " + reason);
}

}  // namespace

ParameterTable parse_parameter_csv(const std::string& text, const std::string& source) {
  ParameterTable table;
  table.source = source;
  std::stringstream in(text);
  std::string line;
  size_t line_number = 0;
  bool header = true;
  while (std::getline(in, line)) {
    ++line_number;
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    const std::vector<std::string> fields = split(line);
    if (header) {
      std::set<std::string> seen;
      for (size_t c = 0; c < fields.size(); ++c) {
        if (fields[c].empty()) fail(source, line_number, "column " + std::to_string(c + 1) + " has no name");
        if (!seen.insert(fields[c]).second) fail(source, line_number, "duplicate column '" + fields[c] + "'");
      }
      table.names = fields;
      header = false;
      continue;
    }
    if (fields.size() != table.names.size())
      fail(source, line_number,
           "expected " + std::to_string(table.names.size()) + " fields, got " + std::to_string(fields.size()));
    std::vector<double> row;
    for (size_t c = 0; c < fields.size(); ++c) {
      const char* begin = fields[c].c_str();
      char* end = nullptr;
      errno = 0;
      const double value = std::strtod(begin, &end);
      if (fields[c].empty() || *end != '\0' || errno == ERANGE || !std::isfinite(value))
        fail(source, line_number, "column '" + table.names[c] + "': '" + fields[c] + "' is not a finite number");
      row.push_back(value);
    }
    table.rows.push_back(std::move(row));
  }
  if (header) fail(source, line_number, "no header line");
  if (table.rows.empty()) fail(source, line_number, "no data rows");
  return table;
}

ParameterTable read_parameter_csv(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error(path + ": cannot open file: " + std::strerror(errno));
  std::stringstream buffer;
  buffer << file.rdbuf();
  return parse_parameter_csv(buffer.str(), path);
}

}  // namespace myriad
