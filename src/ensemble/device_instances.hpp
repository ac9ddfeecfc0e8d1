#pragma once
// What one thread of the cuda stepping backend's small kernels does for instance i of n (kernels/observe_kernel.cuh),
// on the device's layout: constants in the structure-of-arrays table (constants[c * n + i]); t (n), q (n x nq),
// v (n x nv), inputs u (n x A) and outputs (n x S) row-major, as api::Simulator keeps them. Host+device, so that a
// CPU test runs the kernels' bodies themselves (StepKernelTwin, tests/api/step_twin_test.cpp).
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

// Writes one instance's inputs (u_row: its n_inputs values) into its constants, constant c at constants[c * stride]:
// stride 1 for the host Simulator's row-major copy, n for the device's column of the structure-of-arrays table.
MYRIAD_HD inline void write_instance_inputs(const FlatInputSlot* slots, int n_slots, const double* u_row,
                                            double* constants, long long stride) {
  for (int s = 0; s < n_slots; ++s)
    constants[static_cast<long long>(slots[s].constant) * stride] = slots[s].gain * u_row[slots[s].input];
}

// Instance i's inputs (row i of u) into its column of the constants table (the input kernel's thread i).
MYRIAD_HD inline void scatter_strided_inputs(const FlatInputSlot* slots, int n_slots, const double* u, int n_inputs,
                                             long long n, long long i, double* constants) {
  write_instance_inputs(slots, n_slots, u + i * n_inputs, constants + i, n);
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
