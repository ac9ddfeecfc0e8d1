#pragma once
// How much memory this process may still take, for refusing a run before it starts, and the --max-memory value.
#include <string>

namespace myriad::cli {

struct AvailableMemory {
  double bytes = 0;    // the smallest of the limits below that applies; infinity when none could be read
  std::string source;  // which limit that is: "MemAvailable", "cgroup memory.max", "RLIMIT_AS"
};

// The smallest of: /proc/meminfo MemAvailable, the cgroup's limit less its usage (v2 memory.max, v1
// memory.limit_in_bytes), and the address-space limit (ulimit -v) less what the process already maps.
AvailableMemory available_memory();

// "8G", "512MiB", "1.5 GB", "2e9": bytes (K, M, G, T are powers of 1024, with or without "iB"/"B"). Throws
// std::invalid_argument naming `flag` and the reason.
double parse_byte_size(const std::string& text, const std::string& flag);

}  // namespace myriad::cli
