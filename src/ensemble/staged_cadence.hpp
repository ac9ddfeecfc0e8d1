#pragma once
// The staged strategy's step: instead of each instance factoring its own iteration matrix inside one kernel (the
// fused strategy), every instance is advanced to its next linear-algebra request (integrators/
// integration_progress.hpp), then one batched operation serves all of them, then they are advanced again. The
// operations repeat in a fixed cycle per method:
//   * RN4 asks, every attempt, for one factorization of Pi and four stage solves: factor, solve x 4.
//   * ROS2-W asks for a factorization of S only when its step size or Jacobian changed, and for two stage solves
//     every attempt: factor, solve x 2. An attempt that reuses its factors skips the factorization and waits for
//     the cycle's solves (its pivots stay in its workspace, IntegrationProgress::factor_pivots).
//   * RK4 and DOPRI5 have no iteration matrix: every advance is one step attempt of every live instance (the
//     lock-step baseline of per-phase kernels), with no batched operation in between.
// An instance that leaves the cycle (a singular matrix rejects the attempt after its factorization; a failed
// stage evaluation ends it early) asks for its next operation at once and waits for the cycle to come round to
// it. The cuda backend runs this with cuBLAS getrfBatched/getrsBatched between kernels; the cpu twin
// (ensemble/staged_runner.hpp) with lu_factor/lu_solve, and then agrees with the fused run bit for bit.
#include "ensemble/simulate_instance.hpp"

namespace myriad {

using LinearRequest = IntegrationProgress::LinearRequest;

// Whether the method's staged run has batched linear algebra (RN4, ROS2-W) or advances one attempt at a time.
MYRIAD_HD_INLINE bool staged_has_linear_algebra(Method method) {
  return method == Method::rn4 || method == Method::ros2w;
}

// Advances per turn of the method's cycle.
MYRIAD_HD_INLINE int staged_cycle_length(Method method) {
  return method == Method::rn4 ? 5 : method == Method::ros2w ? 3 : 1;
}

// The batched operation done after advance number `launch` (0, 1, ...) of a staged run.
MYRIAD_HD_INLINE LinearRequest staged_operation(Method method, long long launch) {
  if (!staged_has_linear_algebra(method)) return LinearRequest::none;
  return launch % staged_cycle_length(method) == 0 ? LinearRequest::factor : LinearRequest::solve;
}

// The request an instance is waiting on (none once finished).
MYRIAD_HD_INLINE LinearRequest staged_request(const void* scratch) {
  const InstanceProgress& progress = *static_cast<const InstanceProgress*>(scratch);
  return progress.finished ? LinearRequest::none : progress.integration.request;
}

// One instance's part of an advance after the batched operation `served`: an instance waiting on another
// operation stays put; one whose factorization was just served takes lu_info (0: factored) along. RN4 and
// ROS2-W then run to their next request, RK4 and DOPRI5 one step attempt. Returns true once the instance has
// finished.
template <class K>
MYRIAD_HD bool staged_advance_instance(const CompiledModel& model, const K& k, const double* q_init,
                                       const double* v_init, const RunSpec& spec, const double* output_times,
                                       int n_output_times, void* scratch, double* outputs, IntegratorStats& stats,
                                       LinearRequest served, int lu_info) {
  InstanceProgress& progress = instance_progress(scratch);
  if (progress.finished) return true;
  const LinearRequest waiting = progress.integration.request;
  if (waiting != LinearRequest::none && waiting != served) return false;
  if (waiting == LinearRequest::factor) progress.integration.lu_info = lu_info;
  const long long budget = staged_has_linear_algebra(spec.method) ? -1 : 1;
  return advance_instance(model, k, q_init, v_init, spec, output_times, n_output_times, scratch, outputs, stats,
                          budget);
}

}  // namespace myriad
