#pragma once
// The CUDA ensemble run: compiled model copied to the device once, SoA tables of the ensemble copied once,
// instances run thread-per-instance in chunks that fit a device-memory budget, a step budget per launch with
// finished instances compacted out between launches, outputs copied back per chunk.
#include <string>
#include <vector>

#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_progress.hpp"
#include "ensemble/run_spec.hpp"
#include "generated/model_kernels.hpp"

namespace myriad {

// True when this build has CUDA and a device is present; `description` names the device or why there is none.
bool cuda_device_available(std::string* description);

// fused: a thread per instance runs its whole step loop, Pi's LU included (simulate_kernel.cuh). warp: the fused
// loop with a warp per instance, lane 0 integrating and the 32 lanes sharing Pi's LU and the stage solves
// (warp_kernel.cuh). shared_lu: the fused loop thread per instance, with the warp doing each lane's LU and solves
// together, one lane's after another (shared_lu_kernel.cuh). RK4 and DOPRI5, which have no Pi, run plain fused
// under both. staged: a kernel per phase over the instances with Pi factored by cuBLAS getrfBatched and the
// stages solved by getrsBatched, the cycle captured in a CUDA graph (staged_kernel.cuh; RK4 and DOPRI5 advance
// one attempt per kernel).
enum class GpuStrategy { fused, warp, shared_lu, staged };

// How the cuda backend runs an ensemble.
struct CudaRunOptions {
  GpuStrategy strategy = GpuStrategy::fused;
  size_t memory_budget_bytes = 0;  // device memory for one chunk of instances; 0: half the free memory
  // Step attempts an instance may begin per launch; between launches the finished instances leave the work
  // (compaction), so warps are refilled with live instances. <= 0: one launch runs every instance to the end.
  long long step_budget = 0;
  int threads_per_block = 128;
  // Where the fused kernel keeps an instance's scratch. automatic: in the thread's local memory (interleaved across
  // the warp by the hardware, so accesses coalesce) when the run has no step budget and the slot fits
  // kThreadLocalSlotBytes (ensemble/device_slot.hpp), else in global memory; global: always in global memory, one
  // instance's slot after another (to measure the difference; results are the same bit for bit).
  enum class Scratch { automatic, global } scratch = Scratch::automatic;
  // Which compiled copy of the step loops the fused kernel runs. specialized: on a model without loops, the kernel
  // compiled for the run's method on tree models alone (ensemble/step_loops.hpp; fewer registers, a smaller
  // stack); generic: always the interpreter of every method and model class (to measure the difference; results
  // are the same bit for bit). A model whose joints all turn or slide about one axis, with springs, dampers and
  // actuators alone (AxisJointsClass, dynamics/model_class.hpp: the quarter car, the pendulums), runs the kernel
  // compiled for that class too. Loop models, and the other strategies' kernels, always run generic code.
  // For a model the library has a kernel compiled on (generated/model_kernels.hpp: the quarter car with DOPRI5, the
  // stiff double pendulum with RN4), specialized runs that kernel, whose code has the model's topology folded in;
  // without_model runs the method's and class's kernel instead (to measure the difference; same results).
  enum class Kernel { specialized, without_model, generic } kernel = Kernel::specialized;
  // Counts the instances that have finished, after each launch (optional; not owned).
  RunProgress* progress = nullptr;
  // false: the series stay on the device. The fused kernel updates the model's named KPIs from every output row
  // (kpi_state, as the cpu backend does on line) and only those states come back; the other strategies copy the
  // series back for the KPIs (finish_kpis) and the caller drops them.
  bool keep_series = true;
};

// The kernel run_ensemble_cuda launches for these options, and where it keeps the instances' scratch.
struct CudaRunPlan {
  bool staged = false;  // staged strategy (Rosenbrock methods on a model without degrees of freedom run fused)
  GpuStrategy kernel = GpuStrategy::fused;  // else the strategy's kernel (RK4, DOPRI5 and 0-DOF models: fused)
  bool thread_local_scratch = false;        // slots in the threads' local memory (CudaRunOptions::scratch)
  bool specialized = false;                 // the fused kernel compiled for the method on trees (CudaRunOptions::kernel)
  bool axis_joints = false;                 // ... and for AxisJointsClass, the model being in it (model_class.hpp)
  ModelKernel model_kernel = ModelKernel::none;  // ... or the kernel compiled for the model itself (model_kernel_for)
};

// The kernel compiled for this model and method (generated/model_kernels.hpp) when `model` equals, byte for byte,
// the compiled model that kernel holds as a constant; else ModelKernel::none. O(size of CompiledModel).
ModelKernel model_kernel_for(const CompiledModel& model, Method method);

// Whether this build's kernels run `model` with `method`, device aside: loop models only with MYRIAD_DEVICE_LOOPS;
// the implicit methods (Method::implicit) on models without loops only, in their specialized fused kernel
// (kernels/tree_implicit_kernel.cu). When not, `why` (if given) says so, ending with the
// advice to use backend 'cpu'. O(1).
bool kernels_take(const CompiledModel& model, Method method, std::string* why = nullptr);

// Throws std::runtime_error naming why the cuda backend cannot run `model` with `method` here: the build has no
// CUDA, no device is present, or kernels_take says no.
void require_cuda_backend(const CompiledModel& model, Method method);

// Host logic, the same in builds without CUDA. O(n).
CudaRunPlan plan_cuda_run(const CompiledModel& model, Method method, const CudaRunOptions& options);

// Runs the ensemble on device 0. Results do not depend on the options (an instance advanced a budget at a time
// computes exactly what it computes in one go). Throws std::runtime_error when the build has no CUDA, no device
// is present, or a CUDA call fails (naming the call and the CUDA error); std::invalid_argument for
// threads_per_block outside 1..1024, or not a multiple of 32 with the warp and shared_lu strategies, and for the
// implicit methods with a strategy other than fused or the generic kernel.
EnsembleResult run_ensemble_cuda(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                 const std::vector<double>& output_times, const CudaRunOptions& options = {});

}  // namespace myriad
