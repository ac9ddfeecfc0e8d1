#pragma once
// Where an integration stands between two calls. Every integrate_* function in this folder has an overload that
// takes an IntegrationProgress: it keeps its loop-carried values (t, h, attempt count, retry state, next output,
// which buffer holds the start derivative) there instead of in locals, so that a call may stop after a budget
// of step attempts and a later call with the same progress, system, state and workspace carries on exactly where
// it stopped, bit for bit. The GPU runner uses this to launch a step budget at a time and drop finished instances
// from the next launch (compaction); the overloads without a progress run to the end in one call.
#include "core/hd.hpp"
#include "core/status.hpp"
#include "integrators/step_control.hpp"

namespace myriad {

struct IntegrationProgress {
  enum class Phase : int { fresh, stepping, finished };
  Phase phase = Phase::fresh;
  InstanceStatus status = InstanceStatus::ok;  // the result, once finished
  long long budget = -1;  // step attempts this call may still begin; < 0: unlimited. Set by the caller per call.

  // Loop-carried values of the integrators (each uses the ones it needs).
  double t = 0.0, h = 0.0;
  long long attempts = 0;  // attempts so far (RK4: steps)
  int next_output = 0;
  RetryState retry;
  int singular_in_a_row = 0;
  bool swapped = false;  // RK4, DOPRI5: the start derivative is in the second of their two buffers
  // ROS2-W's reuse of its Jacobian and LU across attempts.
  bool have_jacobian = false, jacobian_at_start = false, have_factorization = false;
  double h_jacobian = 0.0, h_factorization = 0.0;

  MYRIAD_HD_INLINE bool finished() const { return phase == Phase::finished; }
  // Ends the integration with `result`, which it returns (the integrators write `return progress.finish(...)`).
  MYRIAD_HD_INLINE InstanceStatus finish(InstanceStatus result) {
    phase = Phase::finished;
    status = result;
    return result;
  }
  // Whether another attempt may begin in this call; counts it against the budget if so.
  MYRIAD_HD_INLINE bool take_attempt() {
    if (budget == 0) return false;
    if (budget > 0) --budget;
    return true;
  }
};

}  // namespace myriad
