// Chunk messages: a kind byte, then length-prefixed arrays.
#include "study/chunk_message.hpp"

#include <cstring>
#include <stdexcept>

namespace myriad::study {
namespace {

class Writer {
 public:
  explicit Writer(MessageKind kind) { bytes_.push_back(static_cast<unsigned char>(kind)); }
  template <class T>
  void value(const T& v) {
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  template <class T>
  void array(const std::vector<T>& v) {
    value(static_cast<long long>(v.size()));
    if (v.empty()) return;
    const auto* p = reinterpret_cast<const unsigned char*>(v.data());
    bytes_.insert(bytes_.end(), p, p + v.size() * sizeof(T));
  }
  std::vector<unsigned char> take() { return std::move(bytes_); }

 private:
  std::vector<unsigned char> bytes_;
};

class Reader {
 public:
  explicit Reader(const std::vector<unsigned char>& bytes) : bytes_(bytes) {}
  template <class T>
  T value() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return v;
  }
  template <class T>
  std::vector<T> array() {
    const long long n = value<long long>();
    if (n < 0 || static_cast<unsigned long long>(n) > (bytes_.size() - at_) / sizeof(T))
      throw std::runtime_error("a chunk message cut short");
    std::vector<T> v(static_cast<std::size_t>(n));
    if (n > 0)
      std::memcpy(v.data(), bytes_.data() + at_, v.size() * sizeof(T));  // data() may be null when empty
    at_ += v.size() * sizeof(T);
    return v;
  }

 private:
  void need(std::size_t n) const {
    if (bytes_.size() - at_ < n) throw std::runtime_error("a chunk message cut short");
  }
  const std::vector<unsigned char>& bytes_;
  std::size_t at_ = 1;  // past the kind byte
};

}  // namespace

MessageKind message_kind(const std::vector<unsigned char>& message) {
  if (message.empty()) throw std::runtime_error("an empty chunk message");
  const auto kind = static_cast<MessageKind>(message[0]);
  if (kind != MessageKind::chunk && kind != MessageKind::end && kind != MessageKind::failed)
    throw std::runtime_error("a message of unknown kind " + std::to_string(message[0]));
  return kind;
}

std::vector<unsigned char> pack_chunk(long long k, const ChunkRows& c) {
  Writer w(MessageKind::chunk);
  w.value(k);
  w.value(c.row0);
  w.value(c.rows);
  w.value(c.threads);
  w.array(std::vector<char>(c.backend.begin(), c.backend.end()));
  w.array(std::vector<char>(c.integrator.begin(), c.integrator.end()));
  w.array(c.status);
  w.array(c.failure_time);
  w.array(c.steps);
  w.array(c.rejected);
  w.array(c.function_evaluations);
  w.array(c.jacobian_evaluations);
  w.array(c.lu_factorizations);
  w.array(c.kpis);
  w.array(c.derived);
  w.array(c.series_times);
  w.value(static_cast<long long>(c.series.size()));
  for (const std::vector<double>& s : c.series) w.array(s);
  return w.take();
}

ChunkRows unpack_chunk(const std::vector<unsigned char>& message, long long& k) {
  if (message_kind(message) != MessageKind::chunk) throw std::runtime_error("not a chunk message");
  Reader r(message);
  ChunkRows c;
  k = r.value<long long>();
  c.row0 = r.value<long long>();
  c.rows = r.value<long long>();
  c.threads = r.value<int>();
  const std::vector<char> backend = r.array<char>(), integrator = r.array<char>();
  c.backend.assign(backend.begin(), backend.end());
  c.integrator.assign(integrator.begin(), integrator.end());
  c.status = r.array<std::int32_t>();
  c.failure_time = r.array<double>();
  c.steps = r.array<long long>();
  c.rejected = r.array<long long>();
  c.function_evaluations = r.array<long long>();
  c.jacobian_evaluations = r.array<long long>();
  c.lu_factorizations = r.array<long long>();
  c.kpis = r.array<double>();
  c.derived = r.array<double>();
  c.series_times = r.array<double>();
  const long long series = r.value<long long>();
  if (series < 0 || series > 1 << 20) throw std::runtime_error("a chunk message cut short");
  for (long long s = 0; s < series; ++s) c.series.push_back(r.array<double>());
  const std::size_t n = static_cast<std::size_t>(c.rows);
  if (c.status.size() != n || c.failure_time.size() != n || c.steps.size() != n)
    throw std::runtime_error("a chunk message whose arrays do not match its rows");
  return c;
}

std::vector<unsigned char> pack_end(bool stopped) {
  Writer w(MessageKind::end);
  w.value(static_cast<unsigned char>(stopped ? 1 : 0));
  return w.take();
}

bool unpack_end(const std::vector<unsigned char>& message) {
  Reader r(message);
  return r.value<unsigned char>() != 0;
}

std::vector<unsigned char> pack_failure(long long k, const std::string& reason) {
  Writer w(MessageKind::failed);
  w.value(k);
  w.array(std::vector<char>(reason.begin(), reason.end()));
  return w.take();
}

std::string unpack_failure(const std::vector<unsigned char>& message, long long& k) {
  Reader r(message);
  k = r.value<long long>();
  const std::vector<char> reason = r.array<char>();
  return std::string(reason.begin(), reason.end());
}

}  // namespace myriad::study
