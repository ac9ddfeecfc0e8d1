// libFuzzer target: arbitrary bytes as a parameter CSV. parse_parameter_csv either returns a table or throws
// std::runtime_error naming the line and column; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "ensemble/parameter_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)myriad::parse_parameter_csv(text, "fuzz.csv");
  } catch (const std::runtime_error&) {
    // Refused by name.
  }
  return 0;
}
