#include "progress_display.hpp"

#include <unistd.h>

#include <cstdio>

namespace myriad::cli {

using Clock = std::chrono::steady_clock;

ProgressDisplay::ProgressDisplay(bool enabled, long long instances, const RunProgress& progress)
    : instances_(instances), progress_(progress), phase_start_(Clock::now()) {
  if (!enabled) return;
  try {
    thread_ = std::thread([this] { run(); });
  } catch (const std::system_error&) {
    // No thread for the display: the run goes on without progress lines.
  }
}

ProgressDisplay::~ProgressDisplay() { stop(); }

void ProgressDisplay::writing(const std::string& path) {
  const std::lock_guard<std::mutex> lock(mutex_);
  file_ = path;
  phase_start_ = Clock::now();
}

void ProgressDisplay::stop() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::string ProgressDisplay::line(Clock::time_point now) {
  const bool writing = !file_.empty();
  const long long done = writing ? progress_.instances_written.load(std::memory_order_relaxed)
                                 : progress_.instances_done.load(std::memory_order_relaxed);
  const double elapsed = std::chrono::duration<double>(now - phase_start_).count();
  char text[512];
  int used = std::snprintf(text, sizeof text, "myriad: %s%s: %lld of %lld instances (%.1f%%), %.1f s",
                           writing ? "writing " : "computing", writing ? file_.c_str() : "", done, instances_,
                           instances_ > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(instances_) : 0.0,
                           elapsed);
  if (done > 0 && used > 0 && used < static_cast<int>(sizeof text)) {
    const double rate = static_cast<double>(done) / elapsed;
    std::snprintf(text + used, sizeof text - static_cast<size_t>(used), ", %.4g instances/s, about %.1f s left",
                  rate, static_cast<double>(instances_ - done) / rate);
  }
  return text;
}

void ProgressDisplay::run() {
  // A terminal gets one line rewritten in place; a pipe or a file gets one line a second.
  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  std::unique_lock<std::mutex> lock(mutex_);
  Clock::time_point next = Clock::now() + std::chrono::seconds(1);
  bool printed = false;
  while (!wake_.wait_until(lock, next, [this] { return stopped_; })) {
    const Clock::time_point now = Clock::now();
    const std::string text = line(now);
    std::fprintf(stderr, terminal ? "\r%s\033[K" : "%s\n", text.c_str());
    std::fflush(stderr);
    printed = true;
    // Deadlines a whole second apart, never behind the clock: a slow terminal cannot stretch the interval.
    next += std::chrono::seconds(1);
    if (next <= now) next = now + std::chrono::seconds(1);
  }
  if (terminal && printed) std::fputs("\n", stderr);
}

}  // namespace myriad::cli
