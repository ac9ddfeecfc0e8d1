#include "model/profile_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "model/model_limits.hpp"
#include "model/number_text.hpp"

namespace myriad {
namespace {

constexpr std::size_t kMaxProfileBytes = 64u << 20;  // 100,000 points of generous text fit many times over

// Splits at commas, spaces and tabs.
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::string current;
  for (char ch : line) {
    if (ch == ',' || ch == ' ' || ch == '\t' || ch == '\r') {
      if (!current.empty()) out.push_back(current);
      current.clear();
    } else {
      current += ch;
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

bool parse_number(const std::string& text, double& value) {
  errno = 0;
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0' && errno != ERANGE;
}

}  // namespace

std::string resolve_beside(const std::string& model_file, const std::string& path) {
  const std::filesystem::path p(path);
  if (p.is_absolute()) return path;
  return (std::filesystem::path(model_file).parent_path() / p).string();
}

std::vector<std::array<Number, 2>> read_profile_file(const std::string& path, const JsonNode& node) {
  const auto fail = [&](const std::string& where, const std::string& reason) {
    node.fail("road profile '" + path + "'" + where + ": " + reason);
  };
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) fail("", std::string("cannot open: ") + std::strerror(errno));
  if (!S_ISREG(status.st_mode)) fail("", "not a regular file");
  if (static_cast<std::size_t>(status.st_size) > kMaxProfileBytes)
    fail("", std::to_string(status.st_size) + " bytes, more than the " + std::to_string(kMaxProfileBytes) +
                 " a profile may have");
  std::ifstream in(path);
  if (!in) fail("", std::string("cannot open: ") + std::strerror(errno));
  std::vector<std::array<Number, 2>> points;
  std::string line;
  bool header_allowed = true;
  for (long long number = 1; std::getline(in, line); ++number) {
    const std::vector<std::string> parts = fields(line);
    if (parts.empty() || parts[0][0] == '#') continue;
    const std::string where = " line " + std::to_string(number);
    double x = 0.0, z = 0.0;
    if (!parse_number(parts[0], x) && header_allowed) {
      header_allowed = false;  // a header line, once, before the data
      continue;
    }
    header_allowed = false;
    if (parts.size() != 2) fail(where, "expected 2 fields (distance, height), got " + std::to_string(parts.size()));
    if (!parse_number(parts[0], x) || !parse_number(parts[1], z))
      fail(where, "'" + line + "' is not two numbers");
    if (!std::isfinite(x) || !std::isfinite(z)) fail(where, "values must be finite");
    if (!points.empty() && !(x > points.back()[0].value))
      fail(where, "distances must be strictly increasing (" + number_text(x) + " follows " +
                      number_text(points.back()[0].value) + ")");
    if (points.size() >= kMaxJsonArrayElements)
      fail(where, "more than the " + std::to_string(kMaxJsonArrayElements) + " points a profile may have");
    points.push_back({literal_number(x), literal_number(z)});
  }
  if (points.size() < 2) fail("", "a profile needs at least 2 points, got " + std::to_string(points.size()));
  return points;
}

}  // namespace myriad
