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
#include <vector>

#include "core/text.hpp"

namespace myriad {
namespace {

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

namespace {

// The KEY = value lines of a .tir text, keys upper case, with their line numbers; [UNITS] checked to be SI.
struct TirEntry {
  std::string section, key, value;
  int line;
};

std::vector<TirEntry> tir_entries(const std::string& text, const std::string& name) {
  std::vector<TirEntry> entries;
  std::istringstream in(text);
  std::string raw, section;
  for (int number = 1; std::getline(in, raw); ++number) {
    std::string line = raw;
    const auto comment = line.find_first_of("$!");
    if (comment != std::string::npos) line = line.substr(0, comment);
    line = trim_blanks(line);
    if (line.empty()) continue;
    if (line.front() == '[') {
      section = upper(trim_blanks(line.substr(1, line.find(']') == std::string::npos ? std::string::npos : line.find(']') - 1)));
      continue;
    }
    const auto equals = line.find('=');
    if (equals == std::string::npos) throw TirFileError(name, number, "expected KEY = value, got '" + trim_blanks(raw) + "'");
    TirEntry e{section, upper(trim_blanks(line.substr(0, equals))), trim_blanks(line.substr(equals + 1)), number};
    if (section == "UNITS") {
      const std::map<std::string, std::string> si = {{"LENGTH", "METER"}, {"FORCE", "NEWTON"}, {"ANGLE", "RADIAN"}};
      const auto unit = si.find(e.key);
      if (unit != si.end() && upper(unquote(e.value)) != unit->second)
        throw TirFileError(name, number, e.key + " is " + e.value + "; only SI files are read (" + unit->second +
                                             "), convert the coefficients first");
      continue;
    }
    entries.push_back(e);
  }
  return entries;
}

// The named numeric keys of `entries` into `values` (in `keys` order); each must be there once, a finite number.
void read_keys(const std::vector<TirEntry>& entries, const std::string& name, const std::vector<std::string>& keys,
               double* values, std::vector<int>& seen_at, const std::string& missing_note) {
  std::map<std::string, int> wanted;
  for (size_t i = 0; i < keys.size(); ++i) wanted[keys[i]] = static_cast<int>(i);
  seen_at.assign(keys.size(), 0);
  for (const TirEntry& e : entries) {
    const auto it = wanted.find(e.key);
    if (it == wanted.end()) continue;  // a coefficient these formulas do not use (rolling, overturning, ...)
    const size_t i = static_cast<size_t>(it->second);
    if (seen_at[i] != 0)
      throw TirFileError(name, e.line, e.key + " is given twice (first on line " + std::to_string(seen_at[i]) + ")");
    errno = 0;
    char* end = nullptr;
    const double x = std::strtod(e.value.c_str(), &end);
    if (e.value.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(x))
      throw TirFileError(name, e.line, e.key + " = '" + e.value + "' is not a finite number");
    values[i] = x;
    seen_at[i] = e.line;
  }
  for (size_t i = 0; i < keys.size(); ++i)
    if (seen_at[i] == 0) throw TirFileError(name, 0, "missing coefficient " + keys[i] + missing_note);
}

}  // namespace

TirCoefficients parse_tir(const std::string& text, const std::string& name) {
  const char* const* names = tir_coefficient_names();
  const std::vector<std::string> keys(names, names + kTirCount);
  TirCoefficients p{};
  std::vector<int> seen_at;
  read_keys(tir_entries(text, name), name, keys, p.data(), seen_at,
            " (every coefficient of the implemented PAC2002 equations must be given)");
  for (int i : {static_cast<int>(kTirFnomin), static_cast<int>(kTirUnloadedRadius)})
    if (!(p[static_cast<size_t>(i)] > 0.0))
      throw TirFileError(name, seen_at[static_cast<size_t>(i)], std::string(names[i]) + " must be positive");
  return p;
}

std::string tir_property_format(const std::string& text) {
  for (const TirEntry& e : tir_entries(text, ""))
    if (e.key == "PROPERTY_FILE_FORMAT") return upper(unquote(e.value));
  return "";
}

FialaParameters parse_fiala_tir(const std::string& text, const std::string& name) {
  const std::vector<std::string> keys = {"UNLOADED_RADIUS", "WIDTH", "CSLIP", "CALPHA", "UMIN", "UMAX"};
  double v[6] = {};
  std::vector<int> seen_at;
  read_keys(tir_entries(text, name), name, keys, v, seen_at, " (a FIALA file needs UNLOADED_RADIUS, WIDTH, CSLIP, "
                                                             "CALPHA, UMIN and UMAX)");
  for (size_t i = 0; i < keys.size(); ++i)
    if (!(v[i] > 0.0)) throw TirFileError(name, seen_at[i], keys[i] + " must be positive");
  if (v[4] > v[5]) throw TirFileError(name, seen_at[4], "UMIN must not exceed UMAX");
  return {v[0], v[1], v[2], v[3], v[4], v[5]};
}

std::string read_tir_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TirFileError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (text.str().size() > (8u << 20)) throw TirFileError(path, 0, "larger than 8 MiB: not a .tir file");
  return text.str();
}

TirCoefficients read_tir_file(const std::string& path) { return parse_tir(read_tir_text(path), path); }

}  // namespace myriad
