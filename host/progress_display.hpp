#pragma once
// Progress of a long run on stderr: from one second after the start, once a second, the phase (computing, or
// writing a file), instances done of the total, the rate and the time left. A thread of its own reads the
// runners' counters (ensemble/run_progress.hpp), so the computation never waits on the terminal.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "ensemble/run_progress.hpp"

namespace myriad::cli {

class ProgressDisplay {
 public:
  // Nothing is shown when !enabled (--quiet). `progress` must outlive the display.
  ProgressDisplay(bool enabled, long long instances, const RunProgress& progress);
  ~ProgressDisplay();
  ProgressDisplay(const ProgressDisplay&) = delete;
  ProgressDisplay& operator=(const ProgressDisplay&) = delete;

  // From now on the lines report instances written to `path` (RunProgress::instances_written).
  void writing(const std::string& path);
  // Ends the display thread (idempotent); no line is printed after it returns.
  void stop();

 private:
  void run();
  std::string line(std::chrono::steady_clock::time_point now);

  const long long instances_;
  const RunProgress& progress_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopped_ = false;
  std::string file_;  // empty while computing
  std::chrono::steady_clock::time_point phase_start_;
  std::thread thread_;
};

}  // namespace myriad::cli
