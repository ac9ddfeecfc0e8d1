#pragma once
// How messages about a model show a number: the shortest form of six significant digits ("1e+300", "0.01",
// "-3"), as an ostream writes it by default.
#include <sstream>
#include <string>

namespace myriad {

inline std::string number_text(double value) {
  std::ostringstream s;
  s << value;
  return s.str();
}

}  // namespace myriad
