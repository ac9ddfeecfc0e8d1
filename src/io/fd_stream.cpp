#include "io/fd_stream.hpp"

#include <unistd.h>

#include <cerrno>

namespace myriad {

FdStreamBuffer::FdStreamBuffer(int fd) : fd_(fd), buffer_(1 << 20) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

FdStreamBuffer::~FdStreamBuffer() { flush_buffer(); }

bool FdStreamBuffer::flush_buffer() {
  const char* at = pbase();
  while (at < pptr()) {
    const ssize_t written = ::write(fd_, at, static_cast<size_t>(pptr() - at));
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    at += written;
  }
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return true;
}

FdStreamBuffer::int_type FdStreamBuffer::overflow(int_type ch) {
  if (!flush_buffer()) return traits_type::eof();
  if (!traits_type::eq_int_type(ch, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(ch);
    pbump(1);
  }
  return traits_type::not_eof(ch);
}

int FdStreamBuffer::sync() { return flush_buffer() ? 0 : -1; }

}  // namespace myriad
