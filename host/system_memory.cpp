#include "system_memory.hpp"

#include <sys/resource.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace myriad::cli {
namespace {

// First number in a file ("max" and unreadable files give infinity: no limit).
double read_number(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return std::numeric_limits<double>::infinity();
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  return end != text.c_str() ? value : std::numeric_limits<double>::infinity();
}

// "Name:   1234 kB" from a /proc file, in bytes; infinity when absent.
double read_kilobytes_field(const std::string& path, const std::string& name) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(name + ":", 0) == 0) return std::strtod(line.c_str() + name.size() + 1, nullptr) * 1024.0;
  return std::numeric_limits<double>::infinity();
}

void take_smaller(AvailableMemory& memory, double bytes, const std::string& source) {
  if (bytes < memory.bytes) memory = {bytes, source};
}

}  // namespace

AvailableMemory available_memory() {
  AvailableMemory memory{std::numeric_limits<double>::infinity(), "no limit found"};
  take_smaller(memory, read_kilobytes_field("/proc/meminfo", "MemAvailable"), "MemAvailable in /proc/meminfo");
  const double v2_limit = read_number("/sys/fs/cgroup/memory.max");
  if (std::isfinite(v2_limit))
    take_smaller(memory, v2_limit - read_number("/sys/fs/cgroup/memory.current"), "the cgroup's memory.max");
  const double v1_limit = read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes");
  if (std::isfinite(v1_limit) && v1_limit < 1e18)  // v1 reports "no limit" as a huge number
    take_smaller(memory, v1_limit - read_number("/sys/fs/cgroup/memory/memory.usage_in_bytes"),
                 "the cgroup's memory.limit_in_bytes");
  rlimit address_space{};
  if (::getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY)
    take_smaller(memory,
                 static_cast<double>(address_space.rlim_cur) - read_kilobytes_field("/proc/self/status", "VmSize"),
                 "the address-space limit (ulimit -v)");
  if (memory.bytes < 0) memory.bytes = 0;
  return memory;
}

double parse_byte_size(const std::string& text, const std::string& flag) {
  const char* begin = text.c_str();
  char* end = nullptr;
  const double number = std::strtod(begin, &end);
  std::string unit(end);
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.front()))) unit.erase(0, 1);
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && unit.back() == 'B') unit.pop_back();
  if (unit.size() > 1 && unit.back() == 'I') unit.pop_back();
  const std::string units = "BKMGTP";
  const std::size_t power = unit.empty() ? 0 : units.find(unit);
  if (end == begin || unit.size() > 1 || power == std::string::npos || !std::isfinite(number) || !(number > 0))
    throw std::invalid_argument(flag + " '" + text +
                                "': expected a positive size in bytes, optionally with K, M, G or T (e.g. 8G)");
  return number * std::pow(1024.0, static_cast<double>(power));
}

}  // namespace myriad::cli
