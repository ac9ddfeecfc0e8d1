#pragma once
// Text helpers shared by the file readers of several layers (.tir files in tire/, parameter tables in ensemble/):
// one definition in the layer both see, so that no two sources of a unity batch define the same helper.
#include <string>

namespace myriad {

// `s` without its leading and trailing spaces, tabs and carriage returns (a CRLF file's lines keep no '\r').
inline std::string trim_blanks(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

}  // namespace myriad
