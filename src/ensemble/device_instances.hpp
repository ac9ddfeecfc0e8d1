#pragma once
// What one thread of the cuda stepping backend's small kernels does for instance i of n (kernels/observe_kernel.cuh),
// on the device's layout: constants in the structure-of-arrays table (constants[c * n + i]); t (n), q (n x nq),
// v (n x nv), inputs u (n x A) and outputs (n x S) row-major, as api::Simulator keeps them. Host+device, so that a
// CPU test runs the kernels' bodies themselves (tests/api/device_instances_test.cpp).
#include "ensemble/observe_tree.hpp"
#include "ensemble/step_instance.hpp"
#include "ensemble/strided_constants.hpp"

namespace myriad {

// Where input `input` lands in an instance's constants: constant `constant` = gain * u (model/compile.hpp's
// InputSlot, flattened over the inputs).
struct FlatInputSlot {
  int input;
  int constant;
  double gain;
};

// Writes instance i's inputs (row i of u, n_inputs values) into its column of the constants table: the same
// products as the host's Simulator writes into its row-major copy, so the two tables hold the same bits.
MYRIAD_HD inline void scatter_strided_inputs(const FlatInputSlot* slots, int n_slots, const double* u, int n_inputs,
                                             long long n, long long i, double* constants) {
  for (int s = 0; s < n_slots; ++s)
    constants[static_cast<long long>(slots[s].constant) * n + i] = slots[s].gain * u[i * n_inputs + slots[s].input];
}

// Row i of the outputs (model.n_outputs) at instance i's (t, q, v), whatever its status (as observe on the cpu
// backend). On the device a loop model's row is NaN: the cuda stepper refuses loop models before any launch, and
// the loop solve stays out of the kernel (its compile time; see instance_end_state).
MYRIAD_HD inline void observe_strided_instance(const CompiledModel& model, const double* constants, long long n,
                                               long long i, Method method, const double* t, const double* q,
                                               const double* v, void* scratch, double* out) {
  const StridedConstants k{constants + i, n};
  double* row = out + i * model.n_outputs;
#ifdef __CUDA_ARCH__
  if (model.constraints.m > 0) {
    for (int s = 0; s < model.n_outputs; ++s) row[s] = quiet_nan();
    return;
  }
  observe_tree_instance(model, k, method, t[i], q + i * model.nq, v + i * model.nv, scratch, row);
#else
  observe_instance(model, k, method, t[i], q + i * model.nq, v + i * model.nv, scratch, row);
#endif
}

}  // namespace myriad
