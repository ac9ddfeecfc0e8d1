#pragma once
// The cuda backend of the stepping API (api::Simulator with backend "cuda"): the compiled model on the device once,
// the instances' constants as the structure-of-arrays table the kernels read, and per advance one launch of the
// step kernel (kernels/step_kernel.cuh), a thread per instance, each from its own t to t + dt. The host keeps the
// state (t, q, v, status): an advance copies it to the device and back, so every other call of the Simulator
// (observe, reset, get and set state) works on the host's copy exactly as on the cpu backend.
#include <memory>

#include "ensemble/run_spec.hpp"
#include "model/compiled_model.hpp"

namespace myriad {

class CudaStepper {
 public:
  // n instances of `model` stepped by `spec`. Throws std::runtime_error when the build has no CUDA, no device is
  // present (naming why), the build leaves loop models off the device (MYRIAD_DEVICE_LOOPS) and the model has
  // loops, or a CUDA call fails.
  CudaStepper(const CompiledModel& model, const RunSpec& spec, long long n);
  ~CudaStepper();
  CudaStepper(const CudaStepper&) = delete;
  CudaStepper& operator=(const CudaStepper&) = delete;

  // Copies the constants of every instance (row-major, n x model.n_constants) to the device's table.
  void set_constants(const double* row_major);

  // Advances every instance whose status is 0 by dt: t (n), q (n x nq), v (n x nv) and status (n) go to the device
  // and come back advanced (an instance that fails keeps its t, q, v and takes the failure's status). Synchronous.
  void advance(double dt, double* t, double* q, double* v, int* status);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace myriad
