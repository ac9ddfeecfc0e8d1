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
#include "integrators/dopri5.hpp"
#include "integrators/rk4.hpp"
#include "integrators/ros2_w.hpp"
#include "integrators/rosenbrock_nystrom.hpp"
#include "loops/loop_ode.hpp"

namespace myriad {

// Records the model's output signals of one instance into out[time index][signal].
template <class K>
struct SignalRecorder {
  TreeOde<K>* ode;
  double* out;
  const double* output_times;

  MYRIAD_HD void operator()(int index, double t, const double* y) {
    const CompiledModel& model = *ode->model;
    chart_to_q(model, ode->base_q, y, ode->q);
    const double* v = y + model.nv;
    // The accelerations and kinematics at exactly this state; a singular state leaves qdd as computed.
    forward_dynamics(model, ode->constants, t, ode->q, v, ode->w, ode->qdd);
    for (int s = 0; s < model.n_outputs; ++s)
      out[index * model.n_outputs + s] = output_signal(model, ode->constants, t, ode->q, v, ode->qdd, ode->w, s);
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
    system->to_first_order(xw, xw + system->model->nv, y);
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

// Offsets (doubles, then bytes for the carved workspaces) of one instance's scratch.
struct InstanceScratchLayout {
  std::size_t base_q, q, qdd, y, xw, segment_times, work;  // in doubles
  std::size_t tree_offset, second_order_offset, bytes;  // in bytes
};

MYRIAD_HD inline int integrator_workspace_size(Method method, int nv) {
  switch (method) {
    case Method::rk4: return rk4_workspace_size(2 * nv);
    case Method::dopri5: return dopri5_workspace_size(2 * nv);
    case Method::rn4: return rn4_workspace_size(nv);
    case Method::ros2w: return ros2w_workspace_size(nv);
  }
  return 0;
}

MYRIAD_HD inline InstanceScratchLayout loop_instance_scratch_layout(const CompiledModel& model, Method method,
                                                                    int n_output_times);

MYRIAD_HD inline InstanceScratchLayout instance_scratch_layout(const CompiledModel& model, Method method,
                                                               int n_output_times) {
  if (model.constraints.m > 0) return loop_instance_scratch_layout(model, method, n_output_times);
  const std::size_t nq = static_cast<std::size_t>(model.nq), nv = static_cast<std::size_t>(model.nv);
  std::size_t tree_bytes = 0;
  carve_tree_workspace<double>(model, nullptr, &tree_bytes);
  InstanceScratchLayout l;
  std::size_t d = 0;
  l.base_q = d;
  d += nq;
  l.q = d;
  d += nq;
  l.qdd = d;
  d += nv;
  l.y = d;
  d += 2 * nv;
  l.xw = d;
  d += is_rosenbrock(method) ? 2 * nv : 0;
  l.segment_times = d;
  d += static_cast<std::size_t>(n_output_times) + 1;
  l.work = d;
  d += static_cast<std::size_t>(integrator_workspace_size(method, model.nv));
  l.tree_offset = d * sizeof(double);
  l.second_order_offset = l.tree_offset + (tree_bytes + 63) / 64 * 64;
  l.bytes = l.second_order_offset + (is_rosenbrock(method) ? tree_second_order_bytes(model) : 0);
  return l;
}

// Models with loops: y = (x_ind, v_ind), 2 ndof doubles, then the loop scratch in double (and in Dual for the
// Rosenbrock methods' Jacobians). tree_offset / second_order_offset hold those two scratch offsets.
MYRIAD_HD inline InstanceScratchLayout loop_instance_scratch_layout(const CompiledModel& model, Method method,
                                                                    int n_output_times) {
  const int ndof = model.constraints.n_independent;
  InstanceScratchLayout l{};
  std::size_t d = 0;
  l.y = d;
  d += 2 * static_cast<std::size_t>(ndof) + 1;
  l.segment_times = d;
  d += static_cast<std::size_t>(n_output_times) + 1;
  l.work = d;
  d += static_cast<std::size_t>(integrator_workspace_size(method, ndof) + 1);
  std::size_t loop_bytes = 0, dual_bytes = 0;
  carve_loop_scratch<double>(model, nullptr, &loop_bytes);
  if (is_rosenbrock(method)) carve_loop_scratch<JacobianDual>(model, nullptr, &dual_bytes);
  l.tree_offset = (d * sizeof(double) + 63) / 64 * 64;
  l.second_order_offset = l.tree_offset + (loop_bytes + 63) / 64 * 64;
  l.bytes = l.second_order_offset + dual_bytes;
  return l;
}

// Records the output signals of a loop model at the full state its LoopOde expands y into.
template <class K>
struct LoopSignalRecorder {
  LoopOde<K>* ode;
  double* out;

  MYRIAD_HD void operator()(int index, double t, const double* y) {
    const CompiledModel& model = *ode->model;
    ode->expand(t, y);  // a failure leaves the last values; the integrator reports the status
    for (int s = 0; s < model.n_outputs; ++s)
      out[index * model.n_outputs + s] =
          output_signal(model, ode->constants, t, ode->s.q, ode->s.v, ode->s.vdot, ode->s.tree, s);
  }
};

// Integrates the pieces between input breakpoints (dynamics/time_breakpoints.hpp) with one adaptive method;
// `integrate(t_begin, times, count, observer)` integrates the state it holds from t_begin to times[count - 1].
template <class K, class Observer, class Integrate>
MYRIAD_HD InstanceStatus integrate_piecewise(const CompiledModel& model, const K& k, double t0,
                                             const double* output_times, int n_output_times, double* segment_times,
                                             Observer& observer, Integrate&& integrate) {
  double t = t0;
  int first = 0;
  const double t_end = output_times[n_output_times - 1];
  while (first < n_output_times) {
    const double breakpoint = next_time_breakpoint(model, k, t, t_end);
    int last = first;
    while (last < n_output_times && output_times[last] <= breakpoint) ++last;
    int count = last - first;
    for (int i = 0; i < count; ++i) segment_times[i] = output_times[first + i];
    if (count == 0 || segment_times[count - 1] < breakpoint) segment_times[count] = breakpoint;
    const int n_times = (count == 0 || segment_times[count - 1] < breakpoint) ? count + 1 : count;
    SegmentObserver<Observer> segment{&observer, first, count};
    const InstanceStatus status = integrate(t, segment_times, n_times, segment);
    if (status != InstanceStatus::ok) return status;
    t = breakpoint;
    first = last;
  }
  return InstanceStatus::ok;
}

// One instance of a model with loops: the dependent coordinates of q_init and v_init are assembled first (a
// failure is projection_failed), then the state-space ODE over the independent coordinates is integrated.
// Zero-DOF (fully driven) models have nothing to integrate: every output is the kinematic solution at its time.
template <class K>
MYRIAD_HD InstanceStatus simulate_loop_instance(const CompiledModel& model, const K& k, const double* q_init,
                                                const double* v_init, const RunSpec& spec,
                                                const double* output_times, int n_output_times, void* scratch,
                                                double* outputs, IntegratorStats& stats) {
  const InstanceScratchLayout l = loop_instance_scratch_layout(model, spec.method, n_output_times);
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
  if (n_output_times <= 0) return InstanceStatus::ok;
  if (!ode.initialize(spec.t0, q_init, v_init, y)) return failed();
  LoopSignalRecorder<K> recorder{&ode, outputs};
  const int ndof = model.constraints.n_independent;
  if (ndof == 0) {
    for (int i = 0; i < n_output_times; ++i) {
      if (!ode.expand(output_times[i], y)) return failed();
      recorder(i, output_times[i], y);
    }
    return InstanceStatus::ok;
  }
  StepControl control = spec.control;
  control.max_steps = spec.max_steps;
  double* work = d + l.work;
  double* segment_times = d + l.segment_times;
  InstanceStatus status = InstanceStatus::ok;
  switch (spec.method) {
    case Method::rk4:
      status = integrate_rk4(ode, spec.t0, spec.h, y, output_times, n_output_times, recorder, work, stats,
                             spec.max_steps);
      break;
    case Method::dopri5:
      status = integrate_piecewise(model, k, spec.t0, output_times, n_output_times, segment_times, recorder,
                                   [&](double t, const double* times, int count, auto& observer) {
                                     return integrate_dopri5(ode, t, y, times, count, observer, control, work,
                                                             stats);
                                   });
      break;
    case Method::rn4:
    case Method::ros2w: {
      LoopSecondOrder<K> system{
          &ode, carve_loop_scratch<JacobianDual>(model, bytes + l.second_order_offset, nullptr), false, 0.0};
      const bool rn4 = spec.method == Method::rn4;
      double* x = y;
      double* w = y + ndof;
      status = integrate_piecewise(model, k, spec.t0, output_times, n_output_times, segment_times, recorder,
                                   [&](double t, const double* times, int count, auto& observer) {
                                     return rn4 ? integrate_rn4(system, t, x, w, times, count, observer, control,
                                                                work, stats)
                                                : integrate_ros2w(system, t, x, w, times, count, observer,
                                                                  control, work, stats);
                                   });
      break;
    }
  }
  if (status == InstanceStatus::non_finite && ode.failure != LoopFailure::none) return failed();
  return status;
}

// Integrates one instance. q_init (nq), v_init (nv): its initial state; outputs: n_outputs_times x n_signals.
// Adaptive methods integrate piecewise between the inputs' breakpoints; RK4 keeps its fixed grid. Returns the
// instance's status; stats counts its work. Cost: O(steps * n) (plus O(n^3) per step for Rosenbrock methods).
template <class K>
MYRIAD_HD InstanceStatus simulate_instance(const CompiledModel& model, const K& k, const double* q_init,
                                           const double* v_init, const RunSpec& spec, const double* output_times,
                                           int n_output_times, void* scratch, double* outputs,
                                           IntegratorStats& stats) {
#if defined(__CUDA_ARCH__) && !defined(MYRIAD_DEVICE_LOOPS)
  // Not compiled for the device unless asked for (CMake MYRIAD_DEVICE_LOOPS); the cuda runner refuses loop
  // models before launching, so this is never reached.
  if (model.constraints.m > 0) return InstanceStatus::non_finite;
#else
  if (model.constraints.m > 0)
    return simulate_loop_instance(model, k, q_init, v_init, spec, output_times, n_output_times, scratch, outputs,
                                  stats);
#endif
  const InstanceScratchLayout l = instance_scratch_layout(model, spec.method, n_output_times);
  double* d = static_cast<double*>(scratch);
  TreeOde<K> ode{&model, k, d + l.base_q, d + l.q, d + l.qdd,
                 carve_tree_workspace<double>(model, static_cast<unsigned char*>(scratch) + l.tree_offset, nullptr)};
  double* y = d + l.y;
  chart_from_q(model, q_init, ode.base_q, y);
  for (int i = 0; i < model.nv; ++i) y[model.nv + i] = v_init[i];
  SignalRecorder<K> recorder{&ode, outputs, output_times};
  if (n_output_times <= 0) return InstanceStatus::ok;
  StepControl control = spec.control;
  control.max_steps = spec.max_steps;
  double* work = d + l.work;
  double* segment_times = d + l.segment_times;
  switch (spec.method) {
    case Method::rk4:
      return integrate_rk4(ode, spec.t0, spec.h, y, output_times, n_output_times, recorder, work, stats,
                           spec.max_steps);
    case Method::dopri5:
      return integrate_piecewise(model, k, spec.t0, output_times, n_output_times, segment_times, recorder,
                                 [&](double t, const double* times, int count, auto& observer) {
                                   return integrate_dopri5(ode, t, y, times, count, observer, control, work, stats);
                                 });
    case Method::rn4:
    case Method::ros2w: {
      // Same chart base as the recorder's TreeOde, so (x, w) -> (x, u) conversions agree.
      TreeSecondOrder<K> system = make_tree_second_order(
          model, k, ode.base_q, static_cast<unsigned char*>(scratch) + l.second_order_offset);
      double* x = d + l.xw;
      double* w = x + model.nv;
      system.from_first_order(y, x, w);
      SecondOrderRecorder<K> adapter{&system, &recorder, y};
      const bool rn4 = spec.method == Method::rn4;
      return integrate_piecewise(model, k, spec.t0, output_times, n_output_times, segment_times, adapter,
                                 [&](double t, const double* times, int count, auto& observer) {
                                   return rn4 ? integrate_rn4(system, t, x, w, times, count, observer, control,
                                                              work, stats)
                                              : integrate_ros2w(system, t, x, w, times, count, observer, control,
                                                                work, stats);
                                 });
    }
  }
  return InstanceStatus::non_finite;
}

}  // namespace myriad
