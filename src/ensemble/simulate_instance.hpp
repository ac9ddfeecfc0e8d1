#pragma once
// One instance from its initial state to the last output time, recording every output signal at every output
// time. Host+device: the CPU backends call it per instance, a CUDA kernel per thread. No allocation: all scratch
// comes from one caller-owned buffer of instance_scratch_bytes().
#include <cstddef>

#include "core/status.hpp"
#include "dynamics/output_signals.hpp"
#include "dynamics/time_breakpoints.hpp"
#include "dynamics/tree_ode.hpp"
#include "dynamics/tree_second_order.hpp"
#include "ensemble/run_spec.hpp"
#include "ensemble/step_loops.hpp"
#include "integrators/dopri5.hpp"
#include "integrators/implicit_outputs.hpp"
#include "integrators/integration_progress.hpp"
#include "integrators/output_times.hpp"
#include "integrators/rk4.hpp"
#include "integrators/ros2_w.hpp"
#include "integrators/rosenbrock_nystrom.hpp"
#include "integrators/second_order_implicit.hpp"
#include "kpi/kpi.hpp"
#include "loops/loop_ode.hpp"

namespace myriad {

// Records the model's output signals of one instance into out[time index][signal], and updates its named KPIs
// (kpi/kpi.hpp) from each row when kpi_state (model.n_kpis x kKpiStateDoubles) is given.
template <class K>
struct SignalRecorder {
  TreeOde<K>* ode;
  double* out;
  const double* output_times;
  int n_times = 0;
  double* kpi_state = nullptr;

  MYRIAD_HD void operator()(int index, double t, const double* y) {
    const CompiledModel& model = ode->the_model();
    chart_to_q(model, ode->base_q, y, ode->q);
    const double* v = y + model.nv;
    // The kinematics at exactly this state, and the accelerations when a signal reads them (a singular state
    // leaves qdd as computed); the signals are the same either way, at the cost of a kinematics pass alone for
    // most models (an output at 1 kHz on the stiff pendulum's 2 s is 2001 of them against 761 evaluations), and
    // none where every signal is a joint coordinate or velocity.
    if (outputs_read_accelerations(model))
      forward_dynamics(model, ode->constants, t, ode->q, v, ode->w, ode->qdd);
    else if (outputs_read_kinematics(model))
      tree_kinematics(model, ode->constants, ode->q, v, ode->w);
    double* row = out + index * model.n_outputs;
    output_row(model, ode->constants, t, ode->q, v, ode->qdd, ode->w, row);
    if (kpi_state) kpi_update(model, kpi_state, index, t, row, output_times, n_times);
  }
};

// Rosenbrock methods integrate the second-order form (x, w = x') of dynamics/tree_second_order.hpp; their
// observer sees (x, w), which this adapter turns into the first-order state (x, u) the signal recorder reads.
template <class K>
struct SecondOrderRecorder {
  TreeSecondOrder<K>* system;
  SignalRecorder<K>* recorder;
  double* y;  // (x, u), 2 nv

  MYRIAD_HD void operator()(int index, double t, const double* xw) {
    system->to_first_order(xw, xw + system->the_model().nv, y);
    (*recorder)(index, t, y);
  }
};

// Hands outputs 0..count-1 of a segment to the run-wide observer as offset..offset+count-1; a segment's extra
// end point (a breakpoint that is not an output time) is not passed on.
template <class Inner>
struct SegmentObserver {
  Inner* inner;
  int offset, count;
  MYRIAD_HD void operator()(int index, double t, const double* y) {
    if (index < count) (*inner)(offset + index, t, y);
  }
};

MYRIAD_HD_INLINE bool is_rosenbrock(Method method) { return method == Method::rn4 || method == Method::ros2w; }

// The methods that integrate the second-order form (x, w = x') with its exact Jacobians: the Rosenbrock methods
// and the implicit ones (integrators/second_order_implicit.hpp).
MYRIAD_HD_INLINE bool uses_second_order(Method method) { return is_rosenbrock(method) || method == Method::implicit; }

// Whether this compilation runs the implicit methods: always on the host; on the device only where
// MYRIAD_DEVICE_IMPLICIT is defined (no kernel does yet: the cuda backends refuse Method::implicit before launching).
#if defined(__CUDA_ARCH__) && !defined(MYRIAD_DEVICE_IMPLICIT)
constexpr bool kImplicitCompiled = false;
#else
constexpr bool kImplicitCompiled = true;
#endif

// Where one instance's run stands between calls of advance_instance: at the start of the instance's scratch,
// with everything else a run keeps outside the scratch arrays (the piecewise loop over input breakpoints, the
// integrator's loop state, the loop ODE's partition state). Trivially copyable.
struct InstanceProgress {
  bool started = false, finished = false;
  InstanceStatus status = InstanceStatus::ok;  // once finished
  // integrate_piecewise: the segment in progress [segment_start, segment_end] with outputs first..end_index-1
  bool in_segment = false;
  double segment_start = 0.0, segment_end = 0.0;
  int first = 0, end_index = 0, count = 0, n_times = 0;
  IntegrationProgress integration;
  // Models with loops: the LoopOde / LoopSecondOrder members (the arrays they point into are in the scratch).
  LoopFailure loop_failure = LoopFailure::none;
  double partition_condition = 0.0;
  int repartitions = 0;
  PartitionView partition_view{};
  bool mass_cached = false;
  double cached_t = 0.0;

  MYRIAD_HD_INLINE void finish(InstanceStatus result) {
    finished = true;
    status = result;
  }
};

// Doubles reserved for the InstanceProgress at the start of every instance's scratch (64-byte aligned).
MYRIAD_HD_INLINE std::size_t instance_progress_doubles() {
  return (sizeof(InstanceProgress) + 63) / 64 * 64 / sizeof(double);
}

MYRIAD_HD_INLINE InstanceProgress& instance_progress(void* scratch) {
  return *static_cast<InstanceProgress*>(scratch);
}

// Readies an instance's scratch for its first advance_instance call. The whole reserved block is zeroed first,
// padding included: advance_instance copies the struct, whose whole-word reads take in the padding bytes a
// member-wise assignment never writes (compute-sanitizer initcheck on the H200, 2026-11-26: "uninitialized
// __global__ memory read of size 8" at the slot's first two words; ResumableInstance.BeginInstance* checks this).
MYRIAD_HD_INLINE void begin_instance(void* scratch) {
  unsigned long long* words = static_cast<unsigned long long*>(scratch);
  const std::size_t n_words = instance_progress_doubles();
  for (std::size_t i = 0; i < n_words; ++i) words[i] = 0;
  instance_progress(scratch) = InstanceProgress{};
}

// begin_instance for a run whose factorizations and solves are done by the caller (the staged and warp strategies;
// IntegrationProgress::external_lu).
MYRIAD_HD_INLINE void begin_instance_external_lu(void* scratch) {
  begin_instance(scratch);
  instance_progress(scratch).integration.external_lu = true;
}

// The order of the model's Rosenbrock iteration matrix: its degrees of freedom (a loop model's independent
// coordinates).
MYRIAD_HD_INLINE int iteration_matrix_order(const CompiledModel& model) {
  return model.constraints.m > 0 ? model.constraints.n_independent : model.nv;
}

// Offsets (doubles, then bytes for the carved workspaces) of one instance's scratch.
struct InstanceScratchLayout {
  std::size_t base_q, q, qdd, y, xw, work;  // in doubles
  std::size_t tree_offset, second_order_offset, bytes;  // in bytes
};

MYRIAD_HD inline int integrator_workspace_size(Method method, int nv) {
  switch (method) {
    case Method::rk4: return rk4_workspace_size(2 * nv);
    case Method::dopri5: return dopri5_workspace_size(2 * nv);
    case Method::rn4: return rn4_workspace_size(nv);
    case Method::ros2w: return ros2w_workspace_size(nv);
    case Method::implicit:  // on the second-order form (x, w): 2 nv variables, then the adapter's scratch
      return implicit_outputs_workspace_size(2 * nv, 0) + second_order_implicit_scratch_size(nv);
  }
  return 0;
}

MYRIAD_HD inline InstanceScratchLayout loop_instance_scratch_layout(const CompiledModel& model, Method method);

// The layout of an instance's scratch for `method`; its size does not depend on the number of output times.
MYRIAD_HD inline InstanceScratchLayout instance_scratch_layout(const CompiledModel& model, Method method) {
  if (model.constraints.m > 0) return loop_instance_scratch_layout(model, method);
  const std::size_t nq = static_cast<std::size_t>(model.nq), nv = static_cast<std::size_t>(model.nv);
  std::size_t tree_bytes = 0;
  carve_tree_workspace<double>(model, nullptr, &tree_bytes);
  InstanceScratchLayout l;
  std::size_t d = instance_progress_doubles();
  l.base_q = d;
  d += nq;
  l.q = d;
  d += nq;
  l.qdd = d;
  d += nv;
  l.y = d;
  d += 2 * nv;
  l.xw = d;
  d += uses_second_order(method) ? 2 * nv : 0;
  l.work = d;
  d += static_cast<std::size_t>(integrator_workspace_size(method, model.nv));
  l.tree_offset = d * sizeof(double);
  l.second_order_offset = l.tree_offset + (tree_bytes + 63) / 64 * 64;
  l.bytes = l.second_order_offset + (uses_second_order(method) ? tree_second_order_bytes(model) : 0);
  return l;
}

// A tree model's ODE over an instance's scratch (its chart base, coordinates and tree workspace).
template <class K>
MYRIAD_HD_INLINE TreeOde<K> tree_instance_ode(const CompiledModel& model, const K& k, void* scratch,
                                              const InstanceScratchLayout& l) {
  double* d = static_cast<double*>(scratch);
  unsigned char* bytes = static_cast<unsigned char*>(scratch);
  return TreeOde<K>{&model, k, d + l.base_q, d + l.q, d + l.qdd,
                    carve_tree_workspace<double>(model, bytes + l.tree_offset, nullptr)};
}

// A tree model's second-order form (the Rosenbrock methods') over an instance's scratch, on the chart base of its
// tree_instance_ode.
template <class K>
MYRIAD_HD_INLINE TreeSecondOrder<K> tree_instance_second_order(const CompiledModel& model, const K& k, void* scratch,
                                                               const InstanceScratchLayout& l) {
  double* d = static_cast<double*>(scratch);
  unsigned char* bytes = static_cast<unsigned char*>(scratch);
  return make_tree_second_order(model, k, d + l.base_q, bytes + l.second_order_offset);
}

// Models with loops: y = (x_ind, v_ind), 2 ndof doubles, then the loop scratch in double (and in Dual for the
// Rosenbrock methods' Jacobians). tree_offset / second_order_offset hold those two scratch offsets.
MYRIAD_HD inline InstanceScratchLayout loop_instance_scratch_layout(const CompiledModel& model, Method method) {
  const int ndof = model.constraints.n_independent;
  InstanceScratchLayout l{};
  std::size_t d = instance_progress_doubles();
  l.y = d;
  d += 2 * static_cast<std::size_t>(ndof) + 1;
  l.work = d;
  d += static_cast<std::size_t>(integrator_workspace_size(method, ndof) + 1);
  std::size_t loop_bytes = 0, dual_bytes = 0;
  carve_loop_scratch<double>(model, nullptr, &loop_bytes);
  if (uses_second_order(method)) carve_loop_scratch<JacobianDual>(model, nullptr, &dual_bytes);
  l.tree_offset = (d * sizeof(double) + 63) / 64 * 64;
  l.second_order_offset = l.tree_offset + (loop_bytes + 63) / 64 * 64;
  l.bytes = l.second_order_offset + dual_bytes;
  return l;
}

// Records the output signals of a loop model at the full state its LoopOde expands y into. With extrapolated rod
// inertia the signals are the exact equations' (rods exact) at the integrated state, and the evaluation stays out
// of the rod history: an output between two step ends is no state the integrator accepted (loops/rod_history.hpp),
// and the reference backend, whose recorder is a history-less LoopOde, reports the same.
template <class K>
struct LoopSignalRecorder {
  LoopOde<K>* ode;
  double* out;
  const double* output_times;
  int n_times = 0;
  double* kpi_state = nullptr;  // as SignalRecorder's

  MYRIAD_HD void operator()(int index, double t, const double* y) {
    const CompiledModel& model = *ode->model;
    const RodHistory rods = ode->s.rods;
    ode->s.rods = RodHistory{};
    ode->expand(t, y);  // a failure leaves the last values; the integrator reports the status
    ode->s.rods = rods;
    double* row = out + index * model.n_outputs;
    output_row(model, ode->constants, t, ode->s.q, ode->s.v, ode->s.vdot, ode->s.tree, row);
    if (kpi_state) kpi_update(model, kpi_state, index, t, row, output_times, n_times);
  }
};

// Integrates the pieces between input breakpoints (dynamics/time_breakpoints.hpp) with one adaptive method;
// `integrate(t_begin, times, count, observer, integration_progress)` integrates the state it holds from t_begin to
// times[count - 1], resumably (integrators/integration_progress.hpp); times is a SegmentTimes over output_times
// (integrators/output_times.hpp). Stops when the integration's budget is used up (progress.finished stays false)
// and carries on from there in a later call with the same progress; the budget left over from one segment passes
// to the next. When finished: progress.finished, progress.status.
template <class K, class Observer, class Integrate>
MYRIAD_HD void integrate_piecewise(const CompiledModel& model, const K& k, const double* output_times,
                                   int n_output_times, Observer& observer,
                                   Integrate&& integrate, InstanceProgress& progress) {
  const double t_end = output_times[n_output_times - 1];
  while (progress.first < n_output_times) {
    if (!progress.in_segment) {
      const double breakpoint = next_time_breakpoint(model, k, progress.segment_start, t_end);
      int last = progress.first;
      while (last < n_output_times && output_times[last] <= breakpoint) ++last;
      const int count = last - progress.first;
      const bool extra_end = count == 0 || output_times[last - 1] < breakpoint;
      progress.segment_end = breakpoint;
      progress.end_index = last;
      progress.count = count;
      progress.n_times = extra_end ? count + 1 : count;
      // A fresh integration for the segment; what the caller set for the run (budget left, who does the linear
      // algebra) carries over.
      const long long budget = progress.integration.budget;
      const bool external_lu = progress.integration.external_lu;
      const bool external_step = progress.integration.external_step;
      progress.integration = IntegrationProgress{};
      progress.integration.budget = budget;
      progress.integration.external_lu = external_lu;
      progress.integration.external_step = external_step;
      progress.in_segment = true;
    }
    SegmentObserver<Observer> segment{&observer, progress.first, progress.count};
    const SegmentTimes times{output_times + progress.first, progress.count, progress.segment_end};
    const InstanceStatus status =
        integrate(progress.segment_start, times, progress.n_times, segment, progress.integration);
    if (!progress.integration.finished()) return;
    if (status != InstanceStatus::ok) return progress.finish(status);
    progress.in_segment = false;
    progress.segment_start = progress.segment_end;
    progress.first = progress.end_index;
  }
  progress.finish(InstanceStatus::ok);
}

// In one call, to the end, with an integrate(t_begin, times, count, observer) that runs to the end of its segment
// (the reference path's integrations). Returns the status.
template <class K, class Observer, class Integrate>
MYRIAD_HD InstanceStatus integrate_piecewise(const CompiledModel& model, const K& k, double t0,
                                             const double* output_times, int n_output_times, Observer& observer,
                                             Integrate&& integrate) {
  InstanceProgress progress;
  progress.segment_start = t0;
  integrate_piecewise(model, k, output_times, n_output_times, observer,
                      [&](double t, const SegmentTimes& times, int count, auto& segment, IntegrationProgress& p) {
                        return p.finish(integrate(t, times, count, segment));
                      },
                      progress);
  return progress.status;
}

// Runs the step loop of one instance's integration for the budget in progress (RK4 without pieces: input
// breakpoints do not move its fixed grid; the adaptive methods piecewise). `first_order` and `second_order`
// are the model's two views of its dynamics; `first_observer` and `second_observer` hand their states
// to the signal recorder. A method the copy S leaves out finishes the instance as non_finite.
template <class S, class K, class FirstOrder, class SecondOrder, class FirstObserver, class SecondObserver>
MYRIAD_HD void run_integrator(const CompiledModel& model, const K& k, const RunSpec& spec, FirstOrder& first_order,
                              SecondOrder* second_order, double* y, double* x, double* w, const double* output_times,
                              int n_output_times, double* work, FirstObserver& first_observer,
                              SecondObserver& second_observer, IntegratorStats& stats, InstanceProgress& progress) {
  StepControl control = spec.control;
  control.max_steps = spec.max_steps;
  switch (spec.method) {
    case Method::rk4:
      if constexpr (S::takes(Method::rk4)) {
        const InstanceStatus status = integrate_rk4(first_order, spec.t0, spec.h, y, output_times, n_output_times,
                                                    first_observer, work, stats, spec.max_steps, progress.integration);
        if (progress.integration.finished()) progress.finish(status);
        return;
      }
      break;
    case Method::dopri5:
      if constexpr (S::takes(Method::dopri5)) {
        integrate_piecewise(model, k, output_times, n_output_times, first_observer,
                            [&](double t, const SegmentTimes& times, int count, auto& observer, IntegrationProgress& p) {
                              return integrate_dopri5(first_order, t, y, times, count, observer, control, work, stats,
                                                      p);
                            },
                            progress);
        return;
      }
      break;
    case Method::implicit:
      if constexpr (S::takes(Method::implicit) && kImplicitCompiled) {
        const int n = second_order->dimension();
        SecondOrderImplicitOde<SecondOrder> implicit{second_order,
                                                    work + implicit_outputs_workspace_size(2 * n, 0)};
        const InstanceStatus status = integrate_implicit_outputs(
            implicit, spec.implicit, spec.implicit_options, spec.t0, spec.h, x, output_times, n_output_times,
            second_observer, work, stats, spec.max_steps, progress.integration);
        if (progress.integration.finished()) progress.finish(status);
        return;
      }
      break;
    case Method::rn4:
    case Method::ros2w:
      if constexpr (S::rosenbrock) {
        if (!S::takes(spec.method)) break;
        const bool rn4 = spec.method == Method::rn4;
        integrate_piecewise(model, k, output_times, n_output_times, second_observer,
                            [&](double t, const SegmentTimes& times, int count, auto& observer, IntegrationProgress& p) {
                              if constexpr (S::takes(Method::rn4)) {
                                if (rn4 || !S::takes(Method::ros2w))
                                  return integrate_rn4(*second_order, t, x, w, times, count, observer, control, work,
                                                       stats, p);
                              }
                              if constexpr (S::takes(Method::ros2w))
                                return integrate_ros2w(*second_order, t, x, w, times, count, observer, control,
                                                       work, stats, p);
                              else
                                return InstanceStatus::non_finite;  // not reached: rn4 is the one method here
                            },
                            progress);
        return;
      }
      break;
  }
  progress.finish(InstanceStatus::non_finite);
}

// Advances one instance of a model with loops (see advance_instance). On the first call the dependent
// coordinates of q_init and v_init are assembled (a failure is projection_failed); then the state-space ODE over
// the independent coordinates is integrated. Zero-DOF (fully driven) models have nothing to integrate: every
// output is the kinematic solution at its time, all in the first call.
template <class S, class K>
MYRIAD_HD void advance_loop_instance(const CompiledModel& model, const K& k, const double* q_init,
                                     const double* v_init, const RunSpec& spec, const double* output_times,
                                     int n_output_times, void* scratch, double* outputs, IntegratorStats& stats,
                                     InstanceProgress& progress, double* kpi_state) {
  const InstanceScratchLayout l = loop_instance_scratch_layout(model, spec.method);
  double* d = static_cast<double*>(scratch);
  unsigned char* bytes = static_cast<unsigned char*>(scratch);
  LoopOde<K> ode{&model, k, carve_loop_scratch<double>(model, bytes + l.tree_offset, nullptr), LoopFailure::none, 0.0, 0};
  double* y = d + l.y;
  const auto failed = [&]() {
    return ode.failure == LoopFailure::projection ? InstanceStatus::projection_failed
                                                  : (ode.failure == LoopFailure::singular
                                                         ? InstanceStatus::singular_matrix
                                                         : InstanceStatus::non_finite);
  };
  LoopSignalRecorder<K> recorder{&ode, outputs, output_times, n_output_times, kpi_state};
  const int ndof = model.constraints.n_independent;
  if (!progress.started) {
    progress.started = true;
    progress.segment_start = spec.t0;
    if (n_output_times <= 0) return progress.finish(InstanceStatus::ok);
    if (!ode.initialize(spec.t0, q_init, v_init, y)) return progress.finish(failed());
    if (ndof == 0) {
      for (int i = 0; i < n_output_times; ++i) {
        if (!ode.expand(output_times[i], y)) return progress.finish(failed());
        recorder(i, output_times[i], y);
      }
      return progress.finish(InstanceStatus::ok);
    }
  } else {
    ode.failure = progress.loop_failure;
    ode.partition_condition = progress.partition_condition;
    ode.repartitions = progress.repartitions;
    ode.s.partition.view = progress.partition_view;
  }
  LoopSecondOrder<K> system{&ode, uses_second_order(spec.method) ? carve_loop_scratch<JacobianDual>(model, bytes + l.second_order_offset, nullptr) : LoopScratch<JacobianDual>{},
                            progress.mass_cached, progress.cached_t};
  run_integrator<S>(model, k, spec, ode, &system, y, y, y + ndof, output_times, n_output_times, d + l.work,
                    recorder, recorder, stats, progress);
  progress.loop_failure = ode.failure;
  progress.partition_condition = ode.partition_condition;
  progress.repartitions = ode.repartitions;
  progress.partition_view = ode.s.partition.view;
  progress.mass_cached = system.mass_cached;
  progress.cached_t = system.cached_t;
  if (progress.finished && progress.status == InstanceStatus::non_finite && ode.failure != LoopFailure::none)
    progress.status = failed();
}

// A tree model's instance as advance_instance works on it: its scratch layout and the first- and second-order
// systems over its scratch and constants (the second-order one only for the methods that use it). Views only
// (pointers and constants): a caller that advances an instance many times may build them once
// (ensemble/lane_runner.cpp: carving them on every call was ~5% of an RN4 run on 4 lanes). SecondOrder: whether
// the step loops that use them have a method of the second-order form (StepLoops::second_order).
template <class K, bool SecondOrder = true>
struct TreeInstanceViews {
  InstanceScratchLayout layout;
  TreeOde<K> ode;
  TreeSecondOrder<K> system;
  MYRIAD_HD_INLINE TreeSecondOrder<K>* second_order() { return &system; }
};

// For step loops of first-order methods only (RK4, DOPRI5): no second-order system, which on the device is 352 B
// of each thread's stack the DOPRI5 kernel compiled on the quarter car would otherwise hold unused.
template <class K>
struct TreeInstanceViews<K, false> {
  InstanceScratchLayout layout;
  TreeOde<K> ode;
  MYRIAD_HD_INLINE TreeSecondOrder<K>* second_order() { return nullptr; }
};

template <class S = AnyStepLoops, class K>
MYRIAD_HD_INLINE TreeInstanceViews<K, S::second_order> tree_instance_views(const CompiledModel& model, const K& k,
                                                                            void* scratch, Method method) {
  const InstanceScratchLayout l = instance_scratch_layout(model, method);
  if constexpr (S::second_order) {
    const TreeSecondOrder<K> system =
        uses_second_order(method) ? tree_instance_second_order(model, k, scratch, l) : TreeSecondOrder<K>{};
    return {l, tree_instance_ode(model, k, scratch, l), system};
  } else {
    return {l, tree_instance_ode(model, k, scratch, l)};
  }
}

// advance_instance on a tree model, through views built over the same scratch and constants (tree_instance_views
// for spec.method); progress: the scratch's InstanceProgress (or the device's copy of it), not finished.
template <class S = AnyStepLoops, class K>
MYRIAD_HD void advance_tree_instance(const CompiledModel& model, const K& k, const double* q_init,
                                     const double* v_init, const RunSpec& spec, const double* output_times,
                                     int n_output_times, void* scratch,
                                     TreeInstanceViews<K, S::second_order>& views, double* outputs,
                                     IntegratorStats& stats, InstanceProgress& progress, double* kpi_state) {
  const InstanceScratchLayout& l = views.layout;
  double* d = static_cast<double*>(scratch);
  TreeOde<K>& ode = views.ode;
  TreeSecondOrder<K>* system = views.second_order();  // null for first-order step loops, which never use it
  double* y = d + l.y;
  double* x = d + l.xw;
  double* w = x + model.nv;
  SignalRecorder<K> recorder{&ode, outputs, output_times, n_output_times, kpi_state};
  // Same chart base as the recorder's TreeOde, so (x, w) -> (x, u) conversions agree.
  const bool second_order = S::second_order && uses_second_order(spec.method);
  if constexpr (S::second_order) {
    // The implicit methods restart after a re-centring (integrators/implicit_outputs.hpp): re-centre only past
    // the first-order form's threshold. The chart base is in the scratch, so resumed calls see the same chart.
    system->rebase_threshold = spec.method == Method::implicit ? kChartRebaseThreshold : 0.0;
  }
  if (!progress.started) {
    progress.started = true;
    progress.segment_start = spec.t0;
    chart_from_q(model, q_init, ode.base_q, y);
    for (int i = 0; i < model.nv; ++i) y[model.nv + i] = v_init[i];
    if (n_output_times <= 0) {
      progress.finish(InstanceStatus::ok);
      return;
    }
    if constexpr (S::second_order) {
      if (second_order) system->from_first_order(y, x, w);
    }
  }
  SecondOrderRecorder<K> adapter{system, &recorder, y};
  run_integrator<S>(model, k, spec, ode, system, y, x, w, output_times, n_output_times, d + l.work, recorder,
                    adapter, stats, progress);
}

// Advances one instance by at most `budget` step attempts (< 0: to the end) from where the previous call left it
// (begin_instance before the first call). q_init (nq), v_init (nv): its initial state, read on the first call;
// outputs: n_outputs_times x n_signals, each written when the integration passes its time. Adaptive methods
// integrate piecewise between the inputs' breakpoints; RK4 keeps its fixed grid. Returns true once the instance
// has finished, with its status in instance_progress(scratch).status; stats counts its work (add across calls).
// Calls with a budget give the same results, bit for bit, as one call without. Cost: O(steps * n) (plus O(n^3)
// per step for Rosenbrock methods). S: the methods and model classes compiled in (ensemble/step_loops.hpp); a run
// it leaves out finishes as non_finite.
template <class S = AnyStepLoops, class K>
MYRIAD_HD bool advance_instance(const CompiledModel& given_model, const K& k, const double* q_init,
                                const double* v_init, const RunSpec& spec, const double* output_times,
                                int n_output_times, void* scratch, double* outputs, IntegratorStats& stats,
                                long long budget, double* kpi_state = nullptr) {
  const CompiledModel& model = model_of<K>(given_model);
  InstanceProgress& stored = instance_progress(scratch);
  if (stored.finished) return true;
#if defined(__CUDA_ARCH__)
  InstanceProgress progress = stored;  // a local copy: the step loops keep it in registers on the device
  const auto keep = [&] { stored = progress; };
#else
  // In place on the host: copying the struct in and out was ~45 ns a call, and the lane runner calls twice an RN4
  // step (perf, stiff pendulum on 4 lanes: rep movs in advance_instance, 3% of the run).
  InstanceProgress& progress = stored;
  const auto keep = [] {};
#endif
  progress.integration.budget = budget;
#if defined(__CUDA_ARCH__) && !defined(MYRIAD_DEVICE_LOOPS)
  // Not compiled for the device unless asked for (CMake MYRIAD_DEVICE_LOOPS); the cuda runner refuses loop
  // models before launching, so the branch below is never taken.
  constexpr bool loops = false;
#else
  constexpr bool loops = S::loops;
#endif
  if (model.constraints.m > 0) {
    if constexpr (loops) {
      advance_loop_instance<S>(model, k, q_init, v_init, spec, output_times, n_output_times, scratch, outputs,
                               stats, progress, kpi_state);
    } else {
      progress.finish(InstanceStatus::non_finite);
    }
    keep();
    return progress.finished;
  }
  TreeInstanceViews<K, S::second_order> views = tree_instance_views<S>(model, k, scratch, spec.method);
  advance_tree_instance<S>(model, k, q_init, v_init, spec, output_times, n_output_times, scratch, views, outputs,
                           stats, progress, kpi_state);
  keep();
  return progress.finished;
}

// Integrates one instance to the end in one call (advance_instance without a budget). Returns its status.
template <class K>
MYRIAD_HD InstanceStatus simulate_instance(const CompiledModel& model, const K& k, const double* q_init,
                                           const double* v_init, const RunSpec& spec, const double* output_times,
                                           int n_output_times, void* scratch, double* outputs,
                                           IntegratorStats& stats, double* kpi_state = nullptr) {
  begin_instance(scratch);
  advance_instance(model, k, q_init, v_init, spec, output_times, n_output_times, scratch, outputs, stats, -1,
                   kpi_state);
  return instance_progress(scratch).status;
}

}  // namespace myriad
