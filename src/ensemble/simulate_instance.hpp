#pragma once
// One instance from its initial state to the last output time, recording every output signal at every output
// time. Host+device: the CPU backends call it per instance, a CUDA kernel per thread. No allocation: all scratch
// comes from one caller-owned buffer of instance_scratch_bytes().
#include <cstddef>

#include "core/status.hpp"
#include "dynamics/output_signals.hpp"
#include "dynamics/tree_ode.hpp"
#include "ensemble/run_spec.hpp"
#include "integrators/dopri5.hpp"
#include "integrators/rk4.hpp"

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

struct InstanceScratchLayout {
  std::size_t tree_offset, base_q, q, qdd, y, work, bytes;
};

MYRIAD_HD inline InstanceScratchLayout instance_scratch_layout(const CompiledModel& model, Method method) {
  const int n = 2 * model.nv;
  const std::size_t integrator_doubles =
      static_cast<std::size_t>(method == Method::rk4 ? rk4_workspace_size(n) : dopri5_workspace_size(n));
  std::size_t tree_bytes = 0;
  carve_tree_workspace<double>(model, nullptr, &tree_bytes);
  InstanceScratchLayout l;
  std::size_t d = 0;  // in doubles
  l.base_q = d;
  d += static_cast<std::size_t>(model.nq);
  l.q = d;
  d += static_cast<std::size_t>(model.nq);
  l.qdd = d;
  d += static_cast<std::size_t>(model.nv);
  l.y = d;
  d += static_cast<std::size_t>(n);
  l.work = d;
  d += integrator_doubles;
  l.tree_offset = d * sizeof(double);
  l.bytes = l.tree_offset + tree_bytes;
  return l;
}

// Integrates one instance. q_init (nq), v_init (nv): its initial state; outputs: n_outputs_times x n_signals.
// Returns the instance's status; stats counts its work. Cost: O(steps * n).
template <class K>
MYRIAD_HD InstanceStatus simulate_instance(const CompiledModel& model, const K& k, const double* q_init,
                                           const double* v_init, const RunSpec& spec, const double* output_times,
                                           int n_output_times, void* scratch, double* outputs,
                                           IntegratorStats& stats) {
  const InstanceScratchLayout l = instance_scratch_layout(model, spec.method);
  double* d = static_cast<double*>(scratch);
  TreeOde<K> ode{&model, k, d + l.base_q, d + l.q, d + l.qdd,
                 carve_tree_workspace<double>(model, static_cast<unsigned char*>(scratch) + l.tree_offset, nullptr)};
  double* y = d + l.y;
  chart_from_q(model, q_init, ode.base_q, y);
  for (int i = 0; i < model.nv; ++i) y[model.nv + i] = v_init[i];
  SignalRecorder<K> recorder{&ode, outputs, output_times};
  if (spec.method == Method::rk4)
    return integrate_rk4(ode, spec.t0, spec.h, y, output_times, n_output_times, recorder, d + l.work, stats,
                         spec.max_steps);
  StepControl control = spec.control;
  control.max_steps = spec.max_steps;
  return integrate_dopri5(ode, spec.t0, y, output_times, n_output_times, recorder, control, d + l.work, stats);
}

}  // namespace myriad
