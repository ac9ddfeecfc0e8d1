#pragma once
// A subcommand's whole text output: to stdout, or to --out written atomically with "wrote PATH" on stdout.
#include <string>

namespace myriad::cli {

// Returns the exit status (0); throws what write_file_atomically throws (io/atomic_file.hpp).
int print_or_write(const std::string& out, const std::string& text);

}  // namespace myriad::cli
