#pragma once
// The output signals of one tree-model instance at (t, q, v): forward dynamics for the accelerations, then the
// output row, as SignalRecorder records them. Host+device: observe_instance (ensemble/step_instance.hpp) runs it
// for tree models, and the cuda backend's observe kernel (kernels/observe_kernel.cuh) for every instance, without
// the loop solve, which it leaves uncompiled there.
#include "ensemble/simulate_instance.hpp"

namespace myriad {

// Writes model.n_outputs signals to `out` from the tree part of an instance scratch laid out for `method`
// (instance_scratch_layout). Returns false when the dynamics fail (a singular inertia); `out` then holds NaN.
template <class K>
MYRIAD_HD bool observe_tree_instance(const CompiledModel& model, const K& k, Method method, double t, const double* q,
                                     const double* v, void* scratch, double* out) {
  const InstanceScratchLayout l = instance_scratch_layout(model, method);
  unsigned char* bytes = static_cast<unsigned char*>(scratch);
  TreeWorkspace<double> w = carve_tree_workspace<double>(model, bytes + l.tree_offset, nullptr);
  double* qdd = static_cast<double*>(scratch) + l.qdd;
  if (forward_dynamics(model, k, t, q, v, w, qdd)) {
    output_row(model, k, t, q, v, qdd, w, out);
    return true;
  }
  for (int s = 0; s < model.n_outputs; ++s) out[s] = quiet_nan();
  return false;
}

}  // namespace myriad
