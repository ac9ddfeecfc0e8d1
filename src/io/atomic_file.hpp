#pragma once
// Writes a file under a temporary name and renames it into place when complete, so an interrupted run never
// leaves a file that looks complete.
#include <functional>
#include <ostream>
#include <string>

namespace myriad {

// Calls write(stream) on a temporary file beside `path`, then renames it to `path`. Throws std::runtime_error
// (naming the path and the reason) and removes the temporary on any failure.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace myriad
