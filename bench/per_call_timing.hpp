#pragma once
// The per-call timing loop that bench/tree_dynamics_per_call.cpp and its Pinocchio peer
// (bench/peers/pinocchio_tree_dynamics.cpp) share, so both libraries are timed the same way: every state
// called kPasses times in a row of states, the best of `repeats` such rounds, as mean nanoseconds a call.
#include <algorithm>
#include <chrono>

namespace myriad::bench {

template <class Call>
double best_ns_per_call(int repeats, int states, Call&& call) {
  constexpr int kPasses = 200;
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int pass = 0; pass < kPasses; ++pass)
      for (int s = 0; s < states; ++s) call(s);
    const double ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, ns / (static_cast<double>(kPasses) * states));
  }
  return best;
}

}  // namespace myriad::bench
