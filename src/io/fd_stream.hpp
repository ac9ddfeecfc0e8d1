#pragma once
// An std::ostream over a POSIX file descriptor, so a file opened with the flags that make a write safe
// (O_EXCL | O_NOFOLLOW, atomic_file.cpp) can be written with the ordinary stream operators and then fsync()ed.
#include <ostream>
#include <streambuf>
#include <vector>

namespace myriad {

// Buffers 1 MiB and write()s it to `fd` (not owned: the caller closes it). A failed write sets errno and makes
// the stream bad; the caller checks the stream.
class FdStreamBuffer : public std::streambuf {
 public:
  explicit FdStreamBuffer(int fd);
  ~FdStreamBuffer() override;
  FdStreamBuffer(const FdStreamBuffer&) = delete;
  FdStreamBuffer& operator=(const FdStreamBuffer&) = delete;

 protected:
  int_type overflow(int_type ch) override;
  int sync() override;

 private:
  bool flush_buffer();

  int fd_;
  std::vector<char> buffer_;
};

}  // namespace myriad
