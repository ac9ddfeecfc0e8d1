#include "io/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace myriad {

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const std::string temporary = path + ".tmp." + std::to_string(::getpid());
  try {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
    write(out);
    out.flush();
    if (!out) throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
    out.close();
    if (std::rename(temporary.c_str(), path.c_str()) != 0)
      throw std::runtime_error(path + ": cannot rename temporary file: " + std::strerror(errno));
  } catch (...) {
    std::remove(temporary.c_str());
    throw;
  }
}

}  // namespace myriad
