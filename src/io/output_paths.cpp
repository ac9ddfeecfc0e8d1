#include "io/output_paths.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "io/atomic_file.hpp"

namespace myriad {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse(const NamedPath& output, const std::string& reason) {
  throw std::invalid_argument(output.name + " '" + output.path + "': " + reason);
}

std::string directory_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

// Creating (and removing) a file is the only test that holds for root, read-only mounts and ACLs alike.
void probe_writable_directory(const NamedPath& output, const std::string& directory) {
  struct stat status {};
  if (::stat(directory.c_str(), &status) != 0)
    refuse(output, "its directory '" + directory + "' " +
                       (errno == ENOENT ? std::string("does not exist") : std::strerror(errno)));
  if (!S_ISDIR(status.st_mode)) refuse(output, "'" + directory + "' is not a directory");
  const std::string probe = directory + "/.myriad-write-probe." + std::to_string(::getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) refuse(output, "cannot write in its directory '" + directory + "': " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

// The path to write for `output`: itself, or the file its symbolic link points to when that is asked for.
std::string resolve_output(const NamedPath& output, bool follow_symlinks) {
  if (output.path.back() == '/') refuse(output, "names a directory (give a file name)");
  struct stat status {};
  if (::lstat(output.path.c_str(), &status) != 0) {
    if (errno != ENOENT) refuse(output, std::strerror(errno));
    return output.path;
  }
  if (S_ISLNK(status.st_mode)) {
    if (!follow_symlinks)
      refuse(output, "is a symbolic link; Myriad replaces only regular files (give --follow-symlinks to write "
                     "the file it points to)");
    char target[PATH_MAX];
    if (::realpath(output.path.c_str(), target) == nullptr)
      refuse(output, std::string("is a symbolic link whose target cannot be resolved: ") + std::strerror(errno));
    const NamedPath resolved{output.name, target};
    if (::lstat(target, &status) == 0 && !special_file_kind(status.st_mode).empty())
      refuse(resolved, "is " + special_file_kind(status.st_mode) + "; Myriad writes only regular files");
    return target;
  }
  const std::string kind = special_file_kind(status.st_mode);
  if (!kind.empty())
    refuse(output, "is " + kind + "; Myriad writes only regular files and will not replace it (give the path of a "
                   "file to create or replace)");
  return output.path;
}

// Same file: the same inode when both exist, else the same absolute, normalized path.
bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code error;
  const fs::path ca = fs::weakly_canonical(fs::absolute(a), error);
  const fs::path cb = fs::weakly_canonical(fs::absolute(b), error);
  return ca.lexically_normal() == cb.lexically_normal();
}

}  // namespace

std::vector<std::string> check_output_paths(const std::vector<NamedPath>& outputs,
                                            const std::vector<NamedPath>& inputs, bool follow_symlinks) {
  std::vector<std::string> resolved(outputs.size());
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].path.empty()) continue;
    resolved[i] = resolve_output(outputs[i], follow_symlinks);
    probe_writable_directory(outputs[i], directory_of(resolved[i]));
    for (const NamedPath& input : inputs)
      if (!input.path.empty() && same_file(resolved[i], input.path))
        refuse(outputs[i], "is " + input.name + " ('" + input.path + "'); an output never replaces an input");
    for (std::size_t j = 0; j < i; ++j)
      if (!resolved[j].empty() && same_file(resolved[i], resolved[j]))
        refuse(outputs[i], "is the same file as " + outputs[j].name + " ('" + outputs[j].path +
                               "'); each output needs its own file");
  }
  return resolved;
}

}  // namespace myriad
