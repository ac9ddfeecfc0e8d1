#include "fused_kernels.cuh"
#include "generated/quarter_car.hpp"
#include "generated/stiff_double_pendulum.hpp"
#include "model_kernels.cuh"

namespace myriad::cuda {

namespace {

// The models as constants of the device code: model_of (dynamics/model_class.hpp) hands these to every
// function that reads the model, and the compiler propagates them into the calls it keeps out of line.
__device__ constexpr CompiledModel kQuarterCar = generated::quarter_car();
__device__ constexpr CompiledModel kStiffDoublePendulum = generated::stiff_double_pendulum();

struct QuarterCar {
  using model_class =
      ModelClass<joint_codes_of(generated::quarter_car()), force_codes_of(generated::quarter_car())>;
  __device__ static const CompiledModel& get() { return kQuarterCar; }
};

struct StiffDoublePendulum {
  using model_class = ModelClass<joint_codes_of(generated::stiff_double_pendulum()),
                                 force_codes_of(generated::stiff_double_pendulum())>;
  __device__ static const CompiledModel& get() { return kStiffDoublePendulum; }
};

}  // namespace

cudaError_t launch_model_kernel(const SimulateParams& params, int threads_per_block, cudaStream_t stream) {
  switch (params.model_kernel) {
    case ModelKernel::quarter_car_dopri5:
      if (params.spec.method != Method::dopri5) break;
      return fused::launch<TreeStepLoops<Method::dopri5>, fused::ModelKernelConstants<QuarterCar>>(
          params, threads_per_block, stream);
    case ModelKernel::stiff_double_pendulum_rn4:
      if (params.spec.method != Method::rn4) break;
      return fused::launch<TreeStepLoops<Method::rn4>, fused::ModelKernelConstants<StiffDoublePendulum>>(
          params, threads_per_block, stream);
    case ModelKernel::none:
      break;
  }
  return cudaErrorInvalidValue;
}

}  // namespace myriad::cuda
