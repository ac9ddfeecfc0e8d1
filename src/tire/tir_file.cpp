#include "tire/tir_file.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace myriad {
namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::string unquote(const std::string& s) {
  return s.size() >= 2 && s.front() == '\'' && s.back() == '\'' ? s.substr(1, s.size() - 2) : s;
}

}  // namespace

TirFileError::TirFileError(const std::string& file, int line, const std::string& reason)
    : std::runtime_error(file + ": " + (line > 0 ? "line " + std::to_string(line) + ": " : "") + reason),
      file_(file),
      line_(line),
      reason_(reason) {}

TirCoefficients parse_tir(const std::string& text, const std::string& name) {
  const char* const* names = tir_coefficient_names();
  std::map<std::string, int> wanted;
  for (int i = 0; i < kTirCount; ++i) wanted[names[i]] = i;
  TirCoefficients p{};
  std::array<int, kTirCount> seen_at{};
  std::istringstream in(text);
  std::string raw, section;
  for (int number = 1; std::getline(in, raw); ++number) {
    std::string line = raw;
    const auto comment = line.find_first_of("$!");
    if (comment != std::string::npos) line = line.substr(0, comment);
    line = trim(line);
    if (line.empty()) continue;
    if (line.front() == '[') {
      section = upper(trim(line.substr(1, line.find(']') == std::string::npos ? std::string::npos : line.find(']') - 1)));
      continue;
    }
    const auto equals = line.find('=');
    if (equals == std::string::npos) throw TirFileError(name, number, "expected KEY = value, got '" + trim(raw) + "'");
    const std::string key = upper(trim(line.substr(0, equals))), value = trim(line.substr(equals + 1));
    if (section == "UNITS") {
      const std::map<std::string, std::string> si = {{"LENGTH", "METER"}, {"FORCE", "NEWTON"}, {"ANGLE", "RADIAN"}};
      const auto unit = si.find(key);
      if (unit != si.end() && upper(unquote(value)) != unit->second)
        throw TirFileError(name, number, key + " is " + value + "; only SI files are read (" + unit->second +
                                             "), convert the coefficients first");
      continue;
    }
    const auto it = wanted.find(key);
    if (it == wanted.end()) continue;  // a coefficient these formulas do not use (rolling, overturning, ...)
    if (seen_at[static_cast<size_t>(it->second)] != 0)
      throw TirFileError(name, number, key + " is given twice (first on line " +
                                           std::to_string(seen_at[static_cast<size_t>(it->second)]) + ")");
    errno = 0;
    char* end = nullptr;
    const double x = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(x))
      throw TirFileError(name, number, key + " = '" + value + "' is not a finite number");
    p[static_cast<size_t>(it->second)] = x;
    seen_at[static_cast<size_t>(it->second)] = number;
  }
  for (int i = 0; i < kTirCount; ++i)
    if (seen_at[static_cast<size_t>(i)] == 0)
      throw TirFileError(name, 0, std::string("missing coefficient ") + names[i] +
                                      " (every coefficient of the implemented PAC2002 equations must be given)");
  for (int i : {static_cast<int>(kTirFnomin), static_cast<int>(kTirUnloadedRadius)})
    if (!(p[static_cast<size_t>(i)] > 0.0))
      throw TirFileError(name, seen_at[static_cast<size_t>(i)], std::string(names[i]) + " must be positive");
  return p;
}

TirCoefficients read_tir_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TirFileError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > (8u << 20)) throw TirFileError(path, 0, "larger than 8 MiB: not a .tir file");
  return parse_tir(text.str(), path);
}

}  // namespace myriad
