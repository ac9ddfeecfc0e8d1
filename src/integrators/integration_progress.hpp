#pragma once
// Where an integration stands between two calls. Every integrate_* function in this folder has an overload that
// takes an IntegrationProgress: it keeps its loop-carried values (t, h, attempt count, retry state, next output,
// which buffer holds the start derivative) there instead of in locals, so that a call may stop after a budget
// of step attempts and a later call with the same progress, system, state and workspace carries on exactly where
// it stopped, bit for bit. The GPU runner uses this to launch a step budget at a time and drop finished instances
// from the next launch (compaction); the overloads without a progress run to the end in one call.
#include <cmath>

#include "core/hd.hpp"
#include "core/status.hpp"
#include "integrators/implicit_methods.hpp"
#include "integrators/step_control.hpp"

namespace myriad {

// Whether an integrator may hand its steps to the caller (IntegrationProgress::external_step): on the host, where
// the lane runner takes them; never in a kernel, whose integrators compile without that branch.
#ifdef __CUDA_ARCH__
constexpr bool kExternalSteps = false;
#else
constexpr bool kExternalSteps = true;
#endif

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
  // The seed 003 methods' past points (integrators/implicit_outputs.hpp): which workspace slots hold which.
  ImplicitHistory implicit_history;

  // An attempt in progress between its stages (RN4, ROS2-W with external_lu): the attempt's step, whether it is
  // the last, and how far its stages got (-1: the attempt has not begun its stages; see external_lu below).
  double h_try = 0.0;
  bool last = false;
  int stage = -1;

  // Linear algebra done by the caller (the staged GPU strategy: batched cuBLAS between per-phase kernels; the
  // warp strategy: a warp per instance). With external_lu set, RN4 and ROS2-W stop at each factorization of their
  // iteration matrix and each stage solve, leave `request`, the matrix (n x n row-major, in the workspace) in
  // factor_matrix and for a solve the right-hand side (n) in solve_vector, and return as if their budget were
  // used up. The caller factors factor_matrix in place with any LU with partial pivoting (lu_info 0 when it
  // succeeded), keeping its pivots in factor_pivots (n doubles of the workspace, in whatever encoding its solve
  // reads back: the integrator never looks at them, and ROS2-W keeps them with the factors across the attempts
  // that reuse them), or solves solve_vector in place with factor_matrix and factor_pivots; it leaves `request`
  // as it found it and calls again; the integrator takes the result and clears the request. lu_threshold: the
  // pivot magnitude at or below which the matrix counts as singular (dense_lu.hpp), checked on the factors'
  // diagonal when the factorization comes back. `stage` says how far the attempt got (RN4: the stage whose solve
  // is pending, 0 while the factorization is; ROS2-W: 0 factorization, 1 or 2 the stage; -1: no attempt stopped).
  enum class LinearRequest : int { none, factor, solve };
  bool external_lu = false;
  LinearRequest request = LinearRequest::none;
  double* factor_matrix = nullptr;
  double* factor_pivots = nullptr;
  double* solve_vector = nullptr;
  double lu_threshold = 0.0;
  int lu_info = 0;

  // A step taken by the caller (the lane runner, ensemble/lane_runner.hpp: several instances' steps at once on one
  // core). With external_step set, DOPRI5 and RK4 stop at each step attempt after their step control has opened
  // it, with stage 1, the attempt's t and h_try, and the step's arrays below, and return as if their budget were
  // used up. The caller takes DOPRI5's dopri5_step(t, h_try, step_y, step_k1) into step_y_new, step_error, step_k7
  // and step_work, or RK4's rk4_step_to_end(t, h_try, step_t_end, step_y, step_k1) into step_y_new, step_k7 and
  // step_work, with the instance's stats, sets step_evaluated to what it returned and calls again; the integrator
  // goes on from there (accept or reject, outputs, rebase) exactly as after its own call.
  bool external_step = false;
  bool step_evaluated = false;
  double step_t_end = 0.0;
  const double* step_y = nullptr;
  const double* step_k1 = nullptr;
  double* step_y_new = nullptr;
  double* step_error = nullptr;
  double* step_k7 = nullptr;
  double* step_work = nullptr;

  // RN4 with external_step hands over its two costly pieces instead (the lane runner takes them W instances at a
  // time): `handover` says which waits for the caller, with the integrator's work array (integrate_rn4's layout)
  // in step_work.
  //   rn4_stages: the attempt's rn4_stages(t, h_try, x = step_y, w = step_w, the linearization at the start of
  //     work, into step_y_new = (x_new, w_new) and step_error = (x_error, w_error), with the stage scratch after
  //     the linearization); the caller sets step_status to what it returned.
  //   rn4_linearization: rn4_linearize(step_t_end, x = step_y, w = step_w) into the linearization at the start of
  //     work, scratch after it; the caller sets step_evaluated to what it returned. step_err keeps the accepted
  //     attempt's error norm meanwhile; end_linearization says whether it is the step end's (before the outputs)
  //     or the next step start's (after the rebase).
  enum class Handover : int { none, rn4_stages, rn4_linearization };
  Handover handover = Handover::none;
  bool end_linearization = false;
  const double* step_w = nullptr;
  InstanceStatus step_status = InstanceStatus::ok;
  double step_err = 0.0;

  // Whether an attempt waits for the caller's step (external_step).
  MYRIAD_HD_INLINE bool step_pending() const {
    return kExternalSteps && external_step && phase != Phase::finished && (stage == 1 || handover != Handover::none);
  }

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

// Leaves an attempt's step to the caller (IntegrationProgress::external_step) with stage 1: its start t, size h
// and end time t_end, its state y and start derivative k1, and where the results go (error: DOPRI5's alone).
MYRIAD_HD_INLINE void hand_over_step(IntegrationProgress& progress, double t, double h, double t_end,
                                     const double* y, const double* k1, double* y_new, double* error, double* k7,
                                     double* work) {
  progress.stage = 1;
  progress.t = t;
  progress.h_try = h;
  progress.step_t_end = t_end;
  progress.step_y = y;
  progress.step_k1 = k1;
  progress.step_y_new = y_new;
  progress.step_error = error;
  progress.step_k7 = k7;
  progress.step_work = work;
}

// The checks that open an attempt of the adaptive integrators (DOPRI5, RN4, ROS2-W): h clipped to h_max, the
// minimum step (the status then says why the last attempt was rejected), max_steps, the call's budget. Returns
// true when the attempt may begin, with progress.h_try and progress.last set (a step within 1% of the end is
// stretched to it); false when the caller returns *result (finished, or ok and out of budget).
MYRIAD_HD_INLINE bool begin_adaptive_attempt(IntegrationProgress& progress, const StepControl& control, double t_end,
                                             InstanceStatus* result) {
  if (control.h_max > 0.0) progress.h = std::fmin(progress.h, control.h_max);
  if (!(progress.h >= minimum_step_size(control, progress.t))) {
    *result = progress.finish(progress.retry.underflow_status());
    return false;
  }
  if (progress.attempts >= control.max_steps) {
    *result = progress.finish(InstanceStatus::max_steps);
    return false;
  }
  if (!progress.take_attempt()) {
    *result = InstanceStatus::ok;
    return false;
  }
  ++progress.attempts;
  const double remaining = t_end - progress.t;
  progress.last = remaining <= 1.01 * progress.h;  // h <= h_max here, so stretching never exceeds 1.01 h_max
  progress.h_try = progress.last ? remaining : progress.h;
  return true;
}

}  // namespace myriad
