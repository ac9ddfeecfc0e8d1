#pragma once
// The models the CUDA kernel library holds kernels specialized on (kernels/model_kernels.cu), each with the
// one method its kernel runs: the acceptance models of issue 19's lean kernels. Their compiled models are the
// headers beside this one, written by `myriad codegen` (tests/generated_models_test.cpp keeps them equal to
// what the model files compile to). The host picks such a kernel for a run whose compiled model equals one of
// them byte for byte (backends/cuda_runner.hpp, model_kernel_for); parameters may differ, since they live in
// the instances' constants.

namespace myriad {

enum class ModelKernel : int {
  none = 0,
  quarter_car_dopri5,         // models/quarter_car.json, DOPRI5
  stiff_double_pendulum_rn4,  // models/stiff_double_pendulum.json, RN4
};

}  // namespace myriad
