#include "ensemble/instance_blocks.hpp"

namespace myriad {

int ensemble_block_size(long long instances, int threads) {
  return static_cast<int>(std::max<long long>(1, std::min<long long>(16, instances / (8 * std::max(1, threads)))));
}

int resolve_thread_count(int requested, long long instances) {
  const int available = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int threads = requested <= 0 ? available : requested;
  return static_cast<int>(std::max<long long>(1, std::min<long long>(threads, instances)));
}

}  // namespace myriad
