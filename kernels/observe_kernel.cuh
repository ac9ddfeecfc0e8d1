#pragma once
// The stepping API's cuda backend besides its step kernel (step_kernel.cuh): the inputs written into the device's
// constants table, and the output signals observed on the device, a thread per instance running the bodies in
// ensemble/device_instances.hpp. A file of its own, apart from the step loops: the forward dynamics it compiles
// take ptxas a fraction of the step kernel's time, and a change here leaves step_kernel.cu as it is.
#include <cuda_runtime.h>

#include "ensemble/device_instances.hpp"
#include "model/compiled_model.hpp"

namespace myriad::cuda {

struct ObserveParams {
  const CompiledModel* model;  // device copy
  const double* constants;     // SoA table [c * n + i]
  long long n;
  Method method;               // the scratch layout's method (instance_scratch_layout)
  const double* t;             // n
  const double* q;             // n x nq
  const double* v;             // n x nv
  double* out;                 // n x model.n_outputs
  unsigned char* scratch;      // n * scratch_bytes, unless thread_local_scratch
  unsigned long long scratch_bytes;  // step_scratch_bytes(model, method)
  bool thread_local_scratch;   // as StepParams: only with scratch_bytes <= kThreadLocalSlotBytes
};

// Launches the observation over the n instances; cudaErrorInvalidValue for thread-local scratch that does not fit.
cudaError_t launch_observe(const ObserveParams& params, int threads_per_block, cudaStream_t stream);

// Writes every instance's inputs u (n x n_inputs, device) into the constants table (n_slots slots, device).
cudaError_t launch_scatter_inputs(const FlatInputSlot* slots, int n_slots, const double* u, int n_inputs, long long n,
                                  double* constants, int threads_per_block, cudaStream_t stream);

}  // namespace myriad::cuda
