#pragma once
// How far a run has got, for a progress display on another thread: the runners count finished instances into it
// (relaxed atomics: a display needs no ordering, and the counters cost nothing next to an instance's work).
#include <atomic>

namespace myriad {

struct RunProgress {
  // instances whose integration has ended (any status), written by the backends' runners
  std::atomic<long long> instances_done{0};
  // instances whose rows are in the output file, written by write_result_csv
  std::atomic<long long> instances_written{0};

  void finished(long long count = 1) { instances_done.fetch_add(count, std::memory_order_relaxed); }
  void wrote(long long count = 1) { instances_written.fetch_add(count, std::memory_order_relaxed); }
};

}  // namespace myriad
