#pragma once
// The checks a run makes on its output paths before it computes anything, so that a long run never ends in
// "cannot write" and never destroys a device, a directory, an input or another output of the same run.
#include <string>
#include <vector>

namespace myriad {

// A path given on the command line and the flag or role that named it ("--out", "the model file").
struct NamedPath {
  std::string name;
  std::string path;
};

// For each output (empty paths are skipped): refuses, with std::invalid_argument naming the flag, the path and the
// reason, a path that is a directory, a device, a FIFO, a socket or (unless follow_symlinks) a symbolic link; whose
// directory does not exist or cannot be written (probed by creating and removing a file there); or that is the
// same file as one of `inputs` or another output (same inode, or the same absolute path). Returns the paths to
// write, in order: a symbolic link replaced by the file it points to when follow_symlinks. O(outputs x (outputs +
// inputs)) system calls.
std::vector<std::string> check_output_paths(const std::vector<NamedPath>& outputs,
                                            const std::vector<NamedPath>& inputs, bool follow_symlinks);

}  // namespace myriad
