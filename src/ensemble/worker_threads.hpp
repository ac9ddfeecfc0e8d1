#pragma once
// Runs a fixed number of tasks on as many threads as the system will give, without ever aborting the process:
// when a thread cannot be created (a process or memory limit: std::system_error), the tasks left run on the calling
// thread; an exception thrown by a task is carried to the caller once every thread has been joined (a thread
// leaving with an exception, or a std::thread destroyed unjoined, would call std::terminate).
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace myriad {

// Calls task(t) once for every t in [0, count): task 0 on the calling thread, the others on new threads while they
// can be created, then the rest on the calling thread. Returns the number of threads that ran tasks (1 .. count).
// Rethrows the first exception a task threw, after all tasks have ended.
template <class Task>
int run_tasks_on_threads(int count, const Task& task) {
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto guarded = [&](int t) {
    try {
      task(t);
    } catch (...) {
      const std::lock_guard<std::mutex> lock(failure_mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(count > 1 ? static_cast<size_t>(count - 1) : 0);
  int next = 1;
  for (; next < count; ++next) {
    try {
      pool.emplace_back(guarded, next);
    } catch (const std::system_error&) {
      break;  // no more threads: the calling thread runs what is left
    }
  }
  guarded(0);
  for (int t = next; t < count; ++t) guarded(t);
  for (std::thread& thread : pool) thread.join();
  if (failure) std::rethrow_exception(failure);
  return static_cast<int>(pool.size()) + 1;
}

}  // namespace myriad
