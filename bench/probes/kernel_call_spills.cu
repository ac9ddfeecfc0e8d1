// Probe kernels for issue 19's register point (bench/results/kernel_resources.md): what the quarter car's dynamics
// cost in registers when compiled on the model alone, and what a step loop pays for each value it holds across a
// call to them. bench/kernel_call_spills.py compiles this file with ptxas verbose at several register caps and
// tabulates the report; nothing launches these kernels. They call the library's own functions (TreeOde::derivative,
// dopri5_step, integrate_dopri5) on the model as the model kernels hold it (kernels/model_kernels.cu), nothing
// written for the probe.
#include "dynamics/model_class.hpp"
#include "dynamics/tree_ode.hpp"
#include "ensemble/simulate_instance.hpp"
#include "ensemble/strided_constants.hpp"
#include "generated/quarter_car.hpp"
#include "integrators/dopri5.hpp"

namespace myriad::probe {

__device__ constexpr CompiledModel kQuarterCar = generated::quarter_car();

struct QuarterCar {
  using model_class =
      ModelClass<joint_codes_of(generated::quarter_car()), force_codes_of(generated::quarter_car())>;
  __device__ static const CompiledModel& get() { return kQuarterCar; }
};

using Constants = ModelConstants<QuarterCar, StridedConstants>;
constexpr int kDimension = 2 * generated::quarter_car().nv;

// Instance i's first-order system over its slot of `slot_bytes` in `scratch` (the model kernels' layout).
__device__ TreeOde<Constants> instance_ode(const double* constants, long long total, unsigned char* scratch,
                                           long long slot_bytes, long long i) {
  const InstanceScratchLayout l = instance_scratch_layout(QuarterCar::get(), Method::dopri5);
  return tree_instance_ode(QuarterCar::get(), Constants{StridedConstants{constants + i, total}},
                           scratch + i * slot_bytes, l);
}

// The dynamics alone: one derivative per thread, the state read from and written to SoA tables.
__global__ void dynamics_kernel(const double* constants, long long total, unsigned char* scratch,
                                long long slot_bytes, const double* y, double* dydt) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= total) return;
  TreeOde<Constants> ode = instance_ode(constants, total, scratch, slot_bytes, i);
  double state[kDimension], rate[kDimension];
  for (int j = 0; j < kDimension; ++j) state[j] = y[j * total + i];
  ode.derivative(0.0, state, rate);
  for (int j = 0; j < kDimension; ++j) dydt[j * total + i] = rate[j];
}

// One DOPRI5 step (six calls of the dynamics, out of line) with the step's arrays in the thread's local memory,
// and `Held` doubles loaded before the step and used after it: the state a step loop keeps across the dynamics.
template <int Held>
__global__ void step_kernel(const double* constants, long long total, unsigned char* scratch, long long slot_bytes,
                            const double* y, double* out) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= total) return;
  TreeOde<Constants> ode = instance_ode(constants, total, scratch, slot_bytes, i);
  double state[kDimension], k1[kDimension], y_new[kDimension], error[kDimension], k7[kDimension];
  double work[6 * kDimension];
  double held[Held > 0 ? Held : 1];
  for (int j = 0; j < kDimension; ++j) state[j] = y[j * total + i];
  for (int j = 0; j < Held; ++j) held[j] = y[(kDimension + j) * total + i];
  IntegratorStats stats{};
  ode.derivative(0.0, state, k1);
  dopri5_step(ode, 0.0, 1e-3, state, k1, y_new, error, k7, work, stats);
  for (int j = 0; j < kDimension; ++j) out[j * total + i] = y_new[j] + error[j] + k7[j];
  for (int j = 0; j < Held; ++j) out[(kDimension + j) * total + i] = held[j] * held[(j + 1) % (Held > 0 ? Held : 1)];
}

// The observer of loop_kernel: writes each output row to a SoA table.
struct RowWriter {
  double* out;
  long long total, i;
  __device__ void operator()(int row, double, const double* y) {
    for (int j = 0; j < kDimension; ++j) out[(row * kDimension + j) * total + i] = y[j];
  }
};

// The whole adaptive loop (integrate_dopri5) on the quarter car, without advance_instance's layers (piecewise
// driver, signal recorder, KPIs): its y and workspace in global memory (`state`, 11 n doubles a thread), its
// progress and counters in global memory too, or (LocalProgress) copied into the thread's registers as
// advance_instance does on the device.
template <bool LocalProgress>
__global__ void loop_kernel(const double* constants, long long total, unsigned char* scratch, long long slot_bytes,
                            const double* y0, const double* times, int n_times, double* out, double* state,
                            IntegratorStats* all_stats, IntegrationProgress* all_progress) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= total) return;
  TreeOde<Constants> ode = instance_ode(constants, total, scratch, slot_bytes, i);
  double* y = state + i * 11 * kDimension;
  for (int j = 0; j < kDimension; ++j) y[j] = y0[j * total + i];
  RowWriter writer{out, total, i};
  StepControl control{};
  control.rtol = 1e-6;
  control.atol = 1e-6;
  if constexpr (LocalProgress) {
    IntegratorStats stats = all_stats[i];
    IntegrationProgress progress = all_progress[i];
    integrate_dopri5(ode, 0.0, y, times, n_times, writer, control, y + kDimension, stats, progress);
    all_stats[i] = stats;
    all_progress[i] = progress;
  } else {
    integrate_dopri5(ode, 0.0, y, times, n_times, writer, control, y + kDimension, all_stats[i], all_progress[i]);
  }
}

template __global__ void loop_kernel<false>(const double*, long long, unsigned char*, long long, const double*,
                                            const double*, int, double*, double*, IntegratorStats*,
                                            IntegrationProgress*);
template __global__ void loop_kernel<true>(const double*, long long, unsigned char*, long long, const double*,
                                           const double*, int, double*, double*, IntegratorStats*,
                                           IntegrationProgress*);
template __global__ void step_kernel<0>(const double*, long long, unsigned char*, long long, const double*, double*);
template __global__ void step_kernel<4>(const double*, long long, unsigned char*, long long, const double*, double*);
template __global__ void step_kernel<10>(const double*, long long, unsigned char*, long long, const double*, double*);
template __global__ void step_kernel<30>(const double*, long long, unsigned char*, long long, const double*, double*);

}  // namespace myriad::probe
