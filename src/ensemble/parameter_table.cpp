#include "ensemble/parameter_table.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <unordered_set>

#include "core/text.hpp"

namespace myriad {
namespace {

[[noreturn]] void fail(const std::string& source, std::size_t line, const std::string& reason) {
  throw std::runtime_error(source + ":" + std::to_string(line) + ": " + reason);
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Printable form of a field for a message: at most 40 characters, control bytes as \xNN.
std::string shown(const std::string& field) {
  std::string out;
  for (std::size_t i = 0; i < field.size() && i < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(field[i]);
    if (c < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  return field.size() > 40 ? out + "..." : out;
}

// Splits one line into trimmed fields; a field in double quotes keeps its commas and spaces.
std::vector<std::string> split(const std::string& line, const std::string& source, std::size_t line_number) {
  std::vector<std::string> fields;
  std::size_t at = 0;
  for (;;) {
    while (at < line.size() && is_blank(line[at])) ++at;
    std::string field;
    if (at < line.size() && line[at] == '"') {
      for (++at;; ++at) {
        if (at >= line.size()) fail(source, line_number, "a quoted field is not closed (quotes cannot span lines)");
        if (line[at] == '"') {
          if (at + 1 < line.size() && line[at + 1] == '"') {
            field += '"';
            ++at;
            continue;
          }
          ++at;
          break;
        }
        field += line[at];
      }
      while (at < line.size() && is_blank(line[at])) ++at;
      if (at < line.size() && line[at] != ',')
        fail(source, line_number, "text after the closing quote of field " + std::to_string(fields.size() + 1));
    } else {
      const std::size_t comma = line.find(',', at);
      field = trim_blanks(line.substr(at, comma == std::string::npos ? std::string::npos : comma - at));
      at = comma == std::string::npos ? line.size() : comma;
    }
    fields.push_back(field);
    if (at >= line.size()) break;
    ++at;  // the comma
  }
  return fields;
}

double parse_value(const std::string& field, const std::string& column, const std::string& source,
                   std::size_t line_number) {
  const char* begin = field.c_str();
  char* end = nullptr;
  errno = 0;
  const double value = field.empty() ? 0.0 : std::strtod(begin, &end);
  // end must reach the field's end: a NUL inside the field would otherwise stop strtod early and pass.
  if (field.empty() || end != begin + field.size() || errno == ERANGE || !std::isfinite(value))
    fail(source, line_number, "column '" + column + "': '" + shown(field) + "' is not a finite number");
  return value;
}

}  // namespace

ParameterTable parse_parameter_csv(const std::string& text, const std::string& source) {
  ParameterTable table;
  table.source = source;
  std::size_t at = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // UTF-8 byte-order mark
  std::size_t line_number = 0;
  bool header = true;
  while (at < text.size()) {
    const std::size_t newline = text.find('\n', at);
    const std::string line = text.substr(at, newline == std::string::npos ? std::string::npos : newline - at);
    at = newline == std::string::npos ? text.size() : newline + 1;
    ++line_number;
    const std::string trimmed = trim_blanks(line);
    if (trimmed.empty() || trimmed[0] == '#') continue;
    std::vector<std::string> fields = split(line, source, line_number);
    if (header) {
      if (fields.size() > kMaxParameterColumns)
        fail(source, line_number, std::to_string(fields.size()) + " columns, more than the limit of " +
                                      std::to_string(kMaxParameterColumns));
      std::unordered_set<std::string> seen;
      for (std::size_t c = 0; c < fields.size(); ++c) {
        if (fields[c].empty()) fail(source, line_number, "column " + std::to_string(c + 1) + " has no name");
        if (!seen.insert(fields[c]).second)
          fail(source, line_number, "duplicate column '" + shown(fields[c]) + "'");
      }
      table.names = std::move(fields);
      header = false;
      continue;
    }
    if (fields.size() != table.names.size())
      fail(source, line_number,
           "expected " + std::to_string(table.names.size()) + " fields, got " + std::to_string(fields.size()));
    if (table.rows.size() >= kMaxParameterRows)
      fail(source, line_number, "more than " + std::to_string(kMaxParameterRows) + " rows");
    std::vector<double> row(fields.size());
    for (std::size_t c = 0; c < fields.size(); ++c) row[c] = parse_value(fields[c], table.names[c], source, line_number);
    table.rows.push_back(std::move(row));
  }
  if (header) fail(source, line_number, "no header line (the file is empty or holds only comments)");
  if (table.rows.empty()) fail(source, line_number, "no data rows");
  return table;
}

ParameterTable read_parameter_csv(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) throw std::runtime_error(path + ": cannot open file: " + std::strerror(errno));
  if (S_ISDIR(status.st_mode)) throw std::runtime_error(path + ": is a directory, not a parameter file (CSV)");
  // A device (/dev/zero) is no table; a pipe may be one (`--params <(generate)`), read up to the limit below.
  if (S_ISCHR(status.st_mode) || S_ISBLK(status.st_mode) || S_ISSOCK(status.st_mode))
    throw std::runtime_error(path + ": is a " + (S_ISSOCK(status.st_mode) ? "socket" : "device") +
                             ", not a parameter file (CSV)");
  if (S_ISREG(status.st_mode) && static_cast<std::size_t>(status.st_size) > kMaxParameterFileBytes)
    throw std::runtime_error(path + ": " + std::to_string(status.st_size) + " bytes, longer than the limit of " +
                             std::to_string(kMaxParameterFileBytes) + " bytes for a parameter file");
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) throw std::runtime_error(path + ": cannot open file: " + std::strerror(errno));
  std::string text;
  char buffer[65536];
  std::size_t count = 0;
  // Never more than the limit and one block: a device such as /dev/zero ends here instead of filling the memory.
  while (text.size() <= kMaxParameterFileBytes && (count = std::fread(buffer, 1, sizeof buffer, file)) > 0)
    text.append(buffer, count);
  const bool failed = std::ferror(file) != 0;
  const int read_errno = errno;
  std::fclose(file);
  if (failed) throw std::runtime_error(path + ": cannot read file: " + std::strerror(read_errno));
  if (text.size() > kMaxParameterFileBytes)
    throw std::runtime_error(path + ": longer than the limit of " + std::to_string(kMaxParameterFileBytes) +
                             " bytes for a parameter file");
  return parse_parameter_csv(text, path);
}

}  // namespace myriad
