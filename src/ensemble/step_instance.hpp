#pragma once
// One step of one instance for the stepping API (api::Simulator): integrate from (t, q, v) to t + dt with the
// run's method, inputs held constant (they are constants of the instance), and observe the output signals at a
// state. Host+device: the cpu backend calls it per instance, the cuda backend's step kernel per thread
// (step_strided_instance below; kernels/step_kernel.cuh). No allocation: the scratch is one caller-owned buffer of
// step_scratch_bytes(model, method).
//
// Integrator memory: none. Every step starts a fresh integration at (t, q, v): RK4 steps h from t (the last
// substep shortened to land on t + dt), the adaptive methods choose their first step size as at the start of a
// run. So an instance's whole state is (t, q, v, constants) and a restored state continues bit for bit.
#include "ensemble/observe_tree.hpp"
#include "ensemble/simulate_instance.hpp"
#include "ensemble/strided_constants.hpp"

namespace myriad {

// The state at the end of a finished advance_instance run with status ok whose last output time is t_end: full
// coordinates q (nq) and velocities v (nv), read from the instance's scratch. Tree models: y = (chart x, u) of the
// first-order methods, (x, w = x') of the Rosenbrock and implicit methods, over the chart base in the scratch; loop models: the
// independent coordinates, expanded to the full state by the loop solve at t_end (which also fills the dependent
// ones). Returns false when that expansion fails. O(n) (loops: a Newton solve).
template <class K>
MYRIAD_HD bool instance_end_state(const CompiledModel& model, const K& k, Method method, double t_end, void* scratch,
                                  double* q, double* v) {
  const InstanceScratchLayout l = instance_scratch_layout(model, method);
  double* d = static_cast<double*>(scratch);
  unsigned char* bytes = static_cast<unsigned char*>(scratch);
#ifdef __CUDA_ARCH__
  // Not compiled for the device: the expansion runs the loop dynamics (loop_accelerations), which would then be
  // compiled into the step kernel a second time beside advance_instance's own loop code: ptxas ran past 33 minutes
  // that way (stopped there; 2026-11-27, 2-core machine, step kernels then in simulate_kernel.cu, whose ptxas
  // takes 20.5 minutes without them). The cuda stepper refuses loop models before launching, so this is never
  // reached.
  if (model.constraints.m > 0) return false;
#else
  if (model.constraints.m > 0) {
    const InstanceProgress& progress = instance_progress(scratch);
    LoopOde<K> ode{&model, k, carve_loop_scratch<double>(model, bytes + l.tree_offset, nullptr), LoopFailure::none,
                   0.0, 0};
    ode.s.partition.view = progress.partition_view;
    if (!ode.expand(t_end, d + l.y)) return false;
    for (int i = 0; i < model.nq; ++i) q[i] = ode.s.q[i];
    for (int i = 0; i < model.nv; ++i) v[i] = ode.s.v[i];
    return true;
  }
#endif
  double* base_q = d + l.base_q;
  double* y = d + l.y;
  if (uses_second_order(method)) {
    TreeSecondOrder<K> system = make_tree_second_order(model, k, base_q, bytes + l.second_order_offset);
    double* x = d + l.xw;
    system.to_first_order(x, x + model.nv, y);
  }
  chart_to_q(model, base_q, y, q);
  for (int i = 0; i < model.nv; ++i) v[i] = y[model.nv + i];
  return true;
}

// Scratch bytes of one instance for step_instance and observe_instance: the integration's scratch, then the
// signals of the one output time (doubles). 64-byte multiple.
MYRIAD_HD inline std::size_t step_scratch_bytes(const CompiledModel& model, Method method) {
  const std::size_t integration = (instance_scratch_layout(model, method).bytes + 63) / 64 * 64;
  return integration + (static_cast<std::size_t>(model.n_outputs) * sizeof(double) + 63) / 64 * 64;
}

// The end of step_instance once advance_instance has finished the instance's run to t_end in `scratch`: its status,
// and when ok q and v from the scratch and t = t_end (t, q, v untouched otherwise). O(n) (loops: a Newton solve).
template <class K>
MYRIAD_HD InstanceStatus finish_step_instance(const CompiledModel& model, const K& k, Method method, double& t,
                                              double t_end, void* scratch, double* q, double* v) {
  const InstanceStatus status = instance_progress(scratch).status;
  if (status != InstanceStatus::ok) return status;
  // A loop model's expansion reads only the scratch, so q and v are untouched when it fails.
  if (!instance_end_state(model, k, method, t_end, scratch, q, v)) return InstanceStatus::projection_failed;
  t = t_end;
  return InstanceStatus::ok;
}

// Integrates one instance from (t, q, v) to t + dt (spec: method, h, control, max_steps; spec.t0 is ignored) with
// constants k. On success returns ok and advances t, q, v; on failure returns the status and leaves t, q, v as they
// were. stats counts the work. Cost: that of advance_instance over [t, t + dt].
template <class K>
MYRIAD_HD InstanceStatus step_instance(const CompiledModel& model, const K& k, const RunSpec& spec, double& t,
                                       double* q, double* v, double dt, void* scratch, IntegratorStats& stats) {
  RunSpec run = spec;
  run.t0 = t;
  const double t_end = t + dt;
  unsigned char* bytes = static_cast<unsigned char*>(scratch);
  double* signals =
      reinterpret_cast<double*>(bytes + (instance_scratch_layout(model, spec.method).bytes + 63) / 64 * 64);
  begin_instance(scratch);
  advance_instance(model, k, q, v, run, &t_end, 1, scratch, signals, stats, -1);
  return finish_step_instance(model, k, spec.method, t, t_end, scratch, q, v);
}

// What one thread of the cuda step kernel does for instance i of n, on the device's layout: the constants in the
// structure-of-arrays table (constants[c * n + i], as the fused kernels read them), t (n), q (n x nq), v (n x nv)
// and status (n, 0 = running) row-major as api::Simulator keeps them. An instance whose status is not 0 stays as
// it is. Host+device, so that a CPU test runs the kernel's body itself (tests/api/step_twin_test.cpp).
MYRIAD_HD inline void step_strided_instance(const CompiledModel& model, const double* constants, long long n,
                                            long long i, const RunSpec& spec, double dt, double* t, double* q,
                                            double* v, int* status, void* scratch) {
  if (status[i] != 0) return;
  IntegratorStats stats{};
  const StridedConstants k{constants + i, n};
  status[i] = static_cast<int>(
      step_instance(model, k, spec, t[i], q + i * model.nq, v + i * model.nv, dt, scratch, stats));
}

// The output signals (model.n_outputs) of one instance at (t, q, v): the accelerations from forward dynamics
// (loop models: the loop solve, which first assembles q and v onto the constraints) as SignalRecorder does.
// Returns false when the dynamics fail (a singular inertia, a failed assembly); `out` then holds NaN.
template <class K>
MYRIAD_HD bool observe_instance(const CompiledModel& model, const K& k, Method method, double t, const double* q,
                                const double* v, void* scratch, double* out) {
  if (model.constraints.m > 0) {
    const InstanceScratchLayout l = instance_scratch_layout(model, method);
    unsigned char* bytes = static_cast<unsigned char*>(scratch);
    LoopOde<K> ode{&model, k, carve_loop_scratch<double>(model, bytes + l.tree_offset, nullptr), LoopFailure::none,
                   0.0, 0};
    const bool ok = ode.initialize(t, q, v, static_cast<double*>(scratch) + l.y);
    if (ok)
      output_row(model, k, t, ode.s.q, ode.s.v, ode.s.vdot, ode.s.tree, out);
    else
      for (int s = 0; s < model.n_outputs; ++s) out[s] = quiet_nan();
    return ok;
  }
  return observe_tree_instance(model, k, method, t, q, v, scratch, out);
}

}  // namespace myriad
