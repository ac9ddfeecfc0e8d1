#include "parameter_overrides.hpp"

#include <cmath>
#include <stdexcept>

namespace myriad::cli {

std::vector<std::pair<std::string, double>> parse_overrides(const std::vector<std::string>& items) {
  std::vector<std::pair<std::string, double>> out;
  for (const std::string& item : items) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("--param '" + item + "': expected NAME=VALUE");
    const std::string text = item.substr(eq + 1);
    size_t used = 0;
    double value = 0.0;
    try {
      value = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size() || !std::isfinite(value))
      throw std::invalid_argument("--param '" + item + "': '" + text + "' is not a finite number");
    out.emplace_back(item.substr(0, eq), value);
  }
  return out;
}

}  // namespace myriad::cli
