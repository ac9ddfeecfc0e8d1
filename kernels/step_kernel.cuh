#pragma once
// Kernel entry point of the stepping API on the cuda backend (api::Simulator with backend "cuda"): each thread
// advances one instance from its own t to t + dt by step_strided_instance (ensemble/step_instance.hpp), the body
// the cpu backend's stepping runs per instance. A kernel file of its own (step_kernel.cu), so it compiles the step
// loops once more, beside simulate_kernel.cu: in that file, ptxas ran past 33 minutes (stopped there) against 23.5
// without the step kernels (2026-11-27, 2-core machine), and two files compile at once under make -j 2.
#include <cuda_runtime.h>

#include "ensemble/run_spec.hpp"
#include "model/compiled_model.hpp"

namespace myriad::cuda {

// Device buffers of n instances, laid out as step_strided_instance reads them.
struct StepParams {
  const CompiledModel* model;  // device copy
  const double* constants;     // SoA table [c * n + i]
  long long n;
  RunSpec spec;
  double dt;
  double* t;                        // n
  double* q;                        // n x nq
  double* v;                        // n x nv
  int* status;                      // n; 0 = running, else the InstanceStatus that stopped the instance
  unsigned char* scratch;           // n * scratch_bytes, unless thread_local_scratch
  unsigned long long scratch_bytes;  // step_scratch_bytes(model, spec.method)
  // The scratch in the threads' local memory (interleaved across a warp, as for the fused kernel's one-launch
  // runs): only with scratch_bytes <= kThreadLocalSlotBytes. A step starts its scratch afresh (begin_instance),
  // so nothing in it outlives the launch.
  bool thread_local_scratch;
};

// Launches the step kernel over the n instances; cudaErrorInvalidValue for thread-local scratch that does not fit.
cudaError_t launch_step(const StepParams& params, int threads_per_block, cudaStream_t stream);

}  // namespace myriad::cuda
