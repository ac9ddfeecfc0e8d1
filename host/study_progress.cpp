// The progress line of a study, from the calling thread (the runner's progress callback).
#include "study_progress.hpp"

#include <cmath>
#include <iostream>
#include <sstream>
#include <string>

namespace myriad::cli {
namespace {

std::string duration_text(double seconds) {
  if (!std::isfinite(seconds)) return "?";
  const long long s = std::llround(seconds);
  std::ostringstream out;
  if (s >= 3600)
    out << s / 3600 << "h" << (s % 3600) / 60 << "m";
  else if (s >= 60)
    out << s / 60 << "m" << s % 60 << "s";
  else
    out << s << "s";
  return out.str();
}

}  // namespace

void StudyProgressPrinter::operator()(const study::StudyProgress& p) {
  const auto now = std::chrono::steady_clock::now();
  const bool chunk_end = p.chunks_done != last_chunks_;
  last_chunks_ = p.chunks_done;
  if (quiet_ || (now < next_ && !(json_ && chunk_end))) return;
  next_ = now + std::chrono::seconds(1);
  const double run = static_cast<double>(p.done - p.done_at_start);
  const double rate = p.seconds > 0 ? run / p.seconds : 0.0;
  const double eta = rate > 0 ? static_cast<double>(p.total - p.done) / rate : NAN;
  if (json_) {
    std::cerr << "{\"done\":" << p.done << ",\"total\":" << p.total << ",\"chunks_done\":" << p.chunks_done
              << ",\"chunks\":" << p.chunks << ",\"rate\":" << rate
              << ",\"eta_s\":" << (std::isfinite(eta) ? std::to_string(eta) : "null")
              << ",\"seconds\":" << p.seconds << "}\n";
  } else {
    std::cerr << "myriad: study: " << p.done << " of " << p.total << " instances ("
              << (p.total > 0 ? 100 * p.done / p.total : 100) << "%), chunk " << p.chunks_done << " of "
              << p.chunks << ", " << std::llround(rate) << " instances/s, about " << duration_text(eta)
              << " left\n";
  }
}

}  // namespace myriad::cli
