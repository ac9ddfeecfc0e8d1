#pragma once
// How far a run has got, for a progress display on another thread: the runners count finished instances into it
// (relaxed atomics: a display needs no ordering, and the counters cost nothing next to an instance's work). It
// also carries the caller's cancel flag: the runners stop handing out instances once it is set (between blocks of
// instances on the CPU backends, between launches on cuda), leaving the rest of the result as it was made.
#include <atomic>

namespace myriad {

struct RunProgress {
  // instances whose integration has ended (any status), written by the backends' runners
  std::atomic<long long> instances_done{0};
  // instances whose rows are in the output file, written by write_result_csv
  std::atomic<long long> instances_written{0};

  // set by the caller (api::SimulateRequest::cancel) to stop the run soon; null: the run cannot be cancelled
  const std::atomic<bool>* cancel = nullptr;

  bool cancelled() const { return cancel != nullptr && cancel->load(std::memory_order_relaxed); }
  void finished(long long count = 1) { instances_done.fetch_add(count, std::memory_order_relaxed); }
  void wrote(long long count = 1) { instances_written.fetch_add(count, std::memory_order_relaxed); }
};

}  // namespace myriad
