#pragma once
// The staged strategy's step: instead of each instance factoring its own Pi inside one kernel (the fused
// strategy), every instance is advanced to its next linear-algebra request (integrators/integration_progress.hpp),
// then one batched operation serves all of them, then they are advanced again. RN4 asks, every attempt, for one
// factorization and four stage solves, so the operations repeat in a fixed cycle of five: factor, solve, solve,
// solve, solve. An instance that leaves the cycle (a singular Pi rejects the attempt after its factorization; a
// failed stage evaluation ends it early) asks for its next factorization at once and waits for the cycle to come
// round to it. The cuda backend runs this with cuBLAS getrfBatched/getrsBatched between kernels; the cpu twin
// (ensemble/staged_runner.hpp) with lu_factor/lu_solve, and then agrees with the fused run bit for bit.
#include "ensemble/simulate_instance.hpp"

namespace myriad {

using LinearRequest = IntegrationProgress::LinearRequest;

constexpr int kStagedCycle = 5;

// The batched operation done after advance number `launch` (0, 1, ...).
MYRIAD_HD_INLINE LinearRequest staged_operation(long long launch) {
  return launch % kStagedCycle == 0 ? LinearRequest::factor : LinearRequest::solve;
}

// Readies an instance's scratch for a staged run.
MYRIAD_HD_INLINE void begin_staged_instance(void* scratch) {
  begin_instance(scratch);
  instance_progress(scratch).integration.external_lu = true;
}

// The request an instance is waiting on (none once finished).
MYRIAD_HD_INLINE LinearRequest staged_request(const void* scratch) {
  const InstanceProgress& progress = *static_cast<const InstanceProgress*>(scratch);
  return progress.finished ? LinearRequest::none : progress.integration.request;
}

// One instance's part of an advance after the batched operation `served`: an instance waiting on another
// operation stays put; one whose factorization was just served takes lu_info (0: factored) along. Returns true
// once the instance has finished.
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
  return advance_instance(model, k, q_init, v_init, spec, output_times, n_output_times, scratch, outputs, stats, -1);
}

}  // namespace myriad
