#pragma once
// How the CPU backends spread instances over threads: every thread takes the next block of instances from one
// shared counter until none are left. Instances differ in cost (stiff parameter rows take more steps), so a
// static split would leave threads idle; each instance is computed alone, so results do not depend on which
// thread ran it.
#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "ensemble/worker_threads.hpp"

namespace myriad {

// Instances per hand-out: up to 16 amortize the counter; small ensembles get at least 8 blocks a thread
// (N = 10 on 2 threads: blocks of 1). O(1).
int ensemble_block_size(long long instances, int threads);

// The shared counter. claim() hands out [begin, end) until the instances are used up; thread-safe.
class InstanceBlocks {
 public:
  InstanceBlocks(long long instances, long long block) : instances_(instances), block_(block) {}
  bool claim(long long& begin, long long& end) {
    begin = next_.fetch_add(block_);
    if (begin >= instances_) return false;
    end = std::min(begin + block_, instances_);
    return true;
  }

 private:
  std::atomic<long long> next_{0};
  long long instances_, block_;
};

// Calls worker() once on each of `threads` threads (on the calling thread alone when threads <= 1) and waits for
// all of them. Each worker sets up its own scratch and then claims blocks until none are left, so when the system
// gives fewer threads (worker_threads.hpp) the ones that run take every block and the results are the same.
// Returns the number of threads that ran.
template <class Worker>
int run_on_threads(int threads, Worker&& worker) {
  if (threads <= 1) {
    worker();
    return 1;
  }
  return run_tasks_on_threads(threads, [&worker](int) { worker(); });
}

// The thread count a CPU backend uses for `instances` instances when asked for `requested` (<= 0: all hardware
// threads): never more threads than instances, at least one.
int resolve_thread_count(int requested, long long instances);

}  // namespace myriad
