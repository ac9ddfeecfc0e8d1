#pragma once
// Kernels of the absolute-coordinate ensembles: rp and re (seed 002's index-3 DAE integrated by seed 003's
// implicit methods or backward Euler: a thread per instance runs integrate_absolute_instance,
// absolute/absolute_run.hpp) and rA (seed 002's backward Euler on SO(3): integrate_rotation_matrix_instance,
// absolute/rotation_matrix_run.hpp, in rotation_matrix_kernel.cu), the functions the cpu backend calls, over a
// batch laid out by backends/absolute_batch.hpp. Their own translation units: the absolute engine's Newton and
// dense LU stay out of the tree kernels.
#include <cuda_runtime.h>

#include "absolute/absolute_run.hpp"
#include "core/status.hpp"
#include "integrators/implicit_methods.hpp"

namespace myriad::cuda {

// One chunk of instances in device memory (every pointer a device address).
struct AbsoluteKernelParams {
  AbsoluteRunModel* models = nullptr;  // count; their RSDA anchors move as the instances run
  long long count = 0;
  double* starts = nullptr;  // count x ny: the starts, the last states reached on return
  int ny = 0;
  const double* times = nullptr;  // n_times output times
  int n_times = 0;
  double* rows = nullptr;  // count x n_times x row_size (absolute_row_size; rA: rotation_matrix_row_size)
  int row_size = 0;
  bool accelerations = false;  // rows carry q'' (rA: r'', omega-bar')
  double* work = nullptr;      // count x work_size
  long long work_size = 0;
  int* status = nullptr;   // in: ok for an instance to run (else left as it is); out: its InstanceStatus
  int* reached = nullptr;  // out: output rows written
  IntegratorStats* stats = nullptr;
  ImplicitScheme scheme;  // rp and re's method (rA has its own)
  ImplicitOptions options;
  double t0 = 0.0, h = 0.0;
  long long max_steps = 0;
};

cudaError_t launch_absolute_rp(const AbsoluteKernelParams& params, int threads_per_block,
                               cudaStream_t stream);
cudaError_t launch_absolute_re(const AbsoluteKernelParams& params, int threads_per_block,
                               cudaStream_t stream);
cudaError_t launch_absolute_ra(const AbsoluteKernelParams& params, int threads_per_block, cudaStream_t stream);

}  // namespace myriad::cuda
