#pragma once
// Kernel entry point of the thread-per-instance ("fused") ensemble run: each thread advances one instance through
// advance_instance, the same host+device code the CPU backend runs, by a budget of step attempts per launch (or
// to the end); compact_live lists the instances still running for the next launch, so finished ones drop out.
// An instance that runs to its end in one launch and whose slot fits kThreadLocalSlotBytes keeps its scratch in
// the thread's local memory instead of global memory (SimulateParams::thread_local_scratch).
//
// Why: local memory is interleaved by the hardware, the 32-bit words at one offset of the 32 threads of a warp
// lying side by side, so a warp reading the same field of its 32 instances touches 8 sectors of 32 bytes for
// doubles, where slots laid one after another in global memory put each lane in a sector of its own (32 sectors,
// a quarter of each used): the structure-of-arrays layout, with no change to the per-instance code, which sees a
// pointer either way. Slots: ensemble/device_slot.hpp. The kernels' code: fused_kernels.cuh, compiled once for
// every method and model class (the generic interpreter) and once per method for tree models (tree_kernels.cuh).
#include <cuda_runtime.h>

#include "core/status.hpp"
#include "ensemble/run_spec.hpp"
#include "generated/model_kernels.hpp"
#include "model/compiled_model.hpp"

namespace myriad::cuda {

// The model classes a specialized kernel is compiled for (dynamics/model_class.hpp).
enum class KernelModelClass { any, axis_joints };

// The status slot of an instance that has not finished yet.
constexpr int kInstanceRunning = -1;

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
  unsigned char* scratch;          // count * scratch_bytes; an instance keeps its slot across launches
  unsigned long long scratch_bytes;  // one instance's slot: scratch, then initial q and v
  double* outputs;                 // count * n_output_times * n_outputs, instance-major
  int* status;                     // count: InstanceStatus once finished, kInstanceRunning before
  IntegratorStats* stats;          // count, zeroed before the first launch, added to by every launch
  // This launch: the chunk-local instances it advances (live[0 .. n_live), nullptr: 0 .. count), whether it is
  // their first, and the step attempts each may begin (< 0: to the end).
  const int* live;
  long long n_live;
  bool first_launch;
  long long step_budget;
  // Slots in the threads' local memory (scratch unused): only for one launch to the end (step_budget < 0, so
  // first_launch and no live list) with scratch_bytes <= kThreadLocalSlotBytes.
  bool thread_local_scratch = false;
  // The named KPIs' running states, count * n_kpis * kKpiStateDoubles, zeroed before the first launch and updated
  // from every output row in the kernel (kpi/kpi.hpp, the cpu backend's on-line code), so that a run keeping no
  // series copies back these states rather than the series (issue 18). nullptr: none kept.
  double* kpi_state = nullptr;
  // The kernel compiled for spec.method on tree models alone (tree_kernels.cuh) instead of the generic one: only
  // for a model without loops. Same results; a smaller stack. With it, the model class the kernel is compiled for:
  // axis_joints only for a model in AxisJointsClass (dynamics/model_class.hpp, model_in_class).
  bool specialized = false;
  KernelModelClass model_class = KernelModelClass::any;
  // ... or the kernel compiled for the model itself (model_kernels.cuh): only when *model equals its constant and
  // spec.method is its method (backends/cuda_runner.hpp, model_kernel_for).
  ModelKernel model_kernel = ModelKernel::none;
};

// Launches the fused kernel over params.n_live instances; cudaErrorInvalidValue for a thread-local run that breaks
// the conditions above.
cudaError_t launch_simulate(const SimulateParams& params, int threads_per_block, cudaStream_t stream);

// Writes the indices i in [0, count) with status[i] == kInstanceRunning, in increasing order, to live and returns
// how many there are (synchronizes with `stream`).
long long compact_live(const int* status, long long count, int* live, cudaStream_t stream);

}  // namespace myriad::cuda
