#include "text_output.hpp"

#include <iostream>
#include <ostream>

#include "io/atomic_file.hpp"

namespace myriad::cli {

int print_or_write(const std::string& out, const std::string& text) {
  if (out.empty()) {
    std::cout << text;
    return 0;
  }
  write_file_atomically(out, [&](std::ostream& stream) { stream << text; });
  std::cout << "wrote " << out << '\n';
  return 0;
}

}  // namespace myriad::cli
