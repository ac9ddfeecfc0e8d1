#pragma once
// Kernel entry point of the thread-per-instance ("fused") ensemble run: each thread integrates one instance
// through simulate_instance, the same host+device code the CPU backend runs.
#include <cuda_runtime.h>

#include "core/status.hpp"
#include "ensemble/run_spec.hpp"
#include "model/compiled_model.hpp"

namespace myriad::cuda {

// Device buffers of one chunk of instances [first, first + count) of an ensemble of `total` instances.
struct SimulateParams {
  const CompiledModel* model;      // device copy
  const double* constants;         // SoA table of all instances [c * total + i]
  const double* initial_q;         // SoA [j * total + i]
  const double* initial_v;         // SoA [j * total + i]
  const double* output_times;      // n_output_times
  int n_output_times;
  long long total;                 // instances in the SoA tables
  long long first, count;          // this chunk
  RunSpec spec;
  unsigned char* scratch;          // count * scratch_bytes
  unsigned long long scratch_bytes;
  double* outputs;                 // count * n_output_times * n_outputs, instance-major
  int* status;                     // count
  IntegratorStats* stats;          // count
};

cudaError_t launch_simulate(const SimulateParams& params, int threads_per_block, cudaStream_t stream);

}  // namespace myriad::cuda
