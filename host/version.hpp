#pragma once
// What `myriad --version` prints: the release and how this binary was built.
#include <string>

namespace myriad::cli {

constexpr const char* kMyriadVersion = "0.1.0";  // keep equal to project(... VERSION) in CMakeLists.txt

std::string version_text();

}  // namespace myriad::cli
