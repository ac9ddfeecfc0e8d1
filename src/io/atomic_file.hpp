#pragma once
// Writes a file under a temporary name and renames it into place when complete, so an interrupted run never
// leaves a file that looks complete, and never writes anything but a regular file.
#include <functional>
#include <ostream>
#include <string>

namespace myriad {

// Calls write(stream) on a new temporary file beside `path` (created exclusively, never through a symlink,
// registered for removal on SIGINT/SIGTERM: temporary_files.hpp), flushes it to the disk, then renames it to
// `path`. Refuses (std::runtime_error naming the path and the reason) when `path` exists and is not a regular file
// (a device such as /dev/null, a directory, a FIFO, a socket, a symlink): replacing those would destroy them.
// Throws std::runtime_error on any failure and removes the temporary; `path` is then untouched.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

// "a directory", "a character device", "a symbolic link", ... for the st_mode of lstat(); "" for a regular file.
std::string special_file_kind(unsigned mode);

}  // namespace myriad
