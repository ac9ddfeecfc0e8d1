#pragma once
// A study's progress on stderr (`myriad study`, `myriad simulate --out FILE.h5`): a line a second with
// instances done, chunk, rate and time left, or JSON lines for machines (one a second and one at each chunk's
// end).
#include <chrono>

#include "study/run_study.hpp"

namespace myriad::cli {

class StudyProgressPrinter {
 public:
  StudyProgressPrinter(bool json, bool quiet) : json_(json), quiet_(quiet) {}
  void operator()(const study::StudyProgress& p);

 private:
  bool json_, quiet_;
  long long last_chunks_ = -1;
  std::chrono::steady_clock::time_point next_{};
};

}  // namespace myriad::cli
