#pragma once
// `--param NAME=VALUE` flags (simulate, modes) as (name, value) pairs; whether each name is a parameter of the model
// is checked by the API (api::check_overrides).
#include <string>
#include <utility>
#include <vector>

namespace myriad::cli {

// Throws std::invalid_argument naming the flag and the reason (no '=', a value that is not a finite number). O(n).
std::vector<std::pair<std::string, double>> parse_overrides(const std::vector<std::string>& items);

}  // namespace myriad::cli
