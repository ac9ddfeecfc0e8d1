#pragma once
// Per-instance parameter values from a CSV file: a header of parameter names, then one row per instance.
#include <cstddef>
#include <string>
#include <vector>

namespace myriad {

struct ParameterTable {
  std::string source;                       // file name, for messages
  std::vector<std::string> names;           // columns
  std::vector<std::vector<double>> rows;    // rows[instance][column]
};

// Limits of a parameter file, checked before the rows are kept: a table the size of a billion-instance study is
// far past what one run can hold anyway (run_footprint.hpp), and the limits bound the memory a bad file takes.
constexpr std::size_t kMaxParameterFileBytes = std::size_t{1} << 30;  // 1 GiB: ~50 million rows of two values
constexpr std::size_t kMaxParameterColumns = 10000;                   // = the model format's parameter limit
constexpr std::size_t kMaxParameterRows = 2147483647;                 // instances are numbered by int

// The format: UTF-8 or ASCII text, an optional byte-order mark (spreadsheets write one), lines ending in LF or
// CRLF, blank lines and lines starting with '#' skipped, fields separated by commas and trimmed of spaces and tabs,
// a field optionally in double quotes ("" inside quotes is a quote). Throws std::runtime_error naming the file,
// the line and the column on malformed input (empty file, empty or duplicate column name, wrong field count, a
// field that is not a finite number, no data rows, a limit above exceeded). O(file size).
ParameterTable parse_parameter_csv(const std::string& text, const std::string& source);

// Reads and parses `path`; refuses a directory, a device (/dev/zero) or a socket, and a file or pipe longer than
// kMaxParameterFileBytes (a regular file by its size, before reading; a pipe without reading past the limit).
ParameterTable read_parameter_csv(const std::string& path);

}  // namespace myriad
