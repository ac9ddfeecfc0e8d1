#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "io/fd_stream.hpp"
#include "io/temporary_files.hpp"

namespace myriad {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int error) {
  throw std::runtime_error(path + ": " + what + ": " + std::strerror(error));
}

// Refuses to replace anything but a regular file (or nothing) at `path`.
void check_replaceable(const std::string& path) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) {
    if (errno == ENOENT) return;
    fail(path, "cannot inspect the output path", errno);
  }
  const std::string kind = special_file_kind(status.st_mode);
  if (!kind.empty())
    throw std::runtime_error(path + ": is " + kind + "; Myriad writes only regular files and will not replace it");
}

// A new file beside `path` that did not exist before: O_EXCL, so a file or symlink planted under the same name
// is never opened, and the name carries the process and a counter so concurrent writers do not collide.
// The name is registered for the signal handler BEFORE the file exists: registered after open(), a SIGTERM
// landing between the two left an orphaned temporary (seen in CI). Unlinking a name that does not exist yet is
// harmless, and a file that exists already under our pid's name can only be a dead namesake's leftover.
int create_temporary(const std::string& path, std::string& temporary, int& slot) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    temporary = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    slot = register_temporary_file(temporary);
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    const int error = errno;
    forget_temporary_file(slot);
    if (error != EEXIST) fail(path, "cannot write", error);
  }
  fail(path, "cannot create a temporary file beside it", EEXIST);
}

}  // namespace

std::string special_file_kind(unsigned mode) {
  switch (mode & S_IFMT) {
    case S_IFREG: return "";
    case S_IFDIR: return "a directory";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFIFO: return "a FIFO";
    case S_IFSOCK: return "a socket";
    case S_IFLNK: return "a symbolic link";
    default: return "not a regular file";
  }
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  check_replaceable(path);
  std::string temporary;
  int slot = -1;
  const int fd = create_temporary(path, temporary, slot);
  bool closed = false;
  try {
    {
      FdStreamBuffer buffer(fd);
      std::ostream out(&buffer);
      write(out);
      out.flush();
      if (!out) fail(path, "write failed", errno);
    }
    // On the disk before the rename: a crash after it then finds the whole file, never an empty one.
    if (::fsync(fd) != 0) fail(path, "write failed (fsync)", errno);
    closed = true;  // Linux releases the descriptor even when close() reports an error
    if (::close(fd) != 0) fail(path, "write failed (close)", errno);
    check_replaceable(path);  // again: the path may have changed while we wrote
    if (std::rename(temporary.c_str(), path.c_str()) != 0) fail(path, "cannot rename temporary file", errno);
    forget_temporary_file(slot);
  } catch (...) {
    if (!closed) ::close(fd);
    ::unlink(temporary.c_str());
    forget_temporary_file(slot);
    throw;
  }
}

}  // namespace myriad
