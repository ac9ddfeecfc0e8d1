#pragma once
// The cuda backend of the stepping API (api::Simulator with backend "cuda"): the compiled model on the device once,
// the instances' constants as the structure-of-arrays table the kernels read, and the state (t, q, v, status) kept
// on the device between calls. An advance is one launch of the step kernel (kernels/step_kernel.cuh), a thread
// per instance, each from its own t to t + dt; new inputs are one copy of u (n x A) and a launch that writes them
// into the constants table; observe runs on the device (kernels/observe_kernel.cuh) and leaves the outputs there.
// The Simulator copies the state to and from the host only when a call on the host needs it (reset, get and set
// state, times, status).
#include <memory>
#include <vector>

#include "ensemble/device_instances.hpp"
#include "ensemble/run_spec.hpp"
#include "model/compiled_model.hpp"

namespace myriad {

class CudaStepper {
 public:
  // n instances of `model` stepped by `spec`; `slots` say where the n_inputs inputs land in an instance's constants.
  // Throws std::runtime_error when the build has no CUDA, no device is present (naming why), the model has loops,
  // or a CUDA call fails.
  CudaStepper(const CompiledModel& model, const RunSpec& spec, long long n, const std::vector<FlatInputSlot>& slots,
              int n_inputs);
  ~CudaStepper();
  CudaStepper(const CudaStepper&) = delete;
  CudaStepper& operator=(const CudaStepper&) = delete;

  // Copies the constants of every instance (row-major, n x model.n_constants) to the device's table.
  void set_constants(const double* row_major);
  // Copies the inputs (row-major, n x n_inputs) to the device and writes them into its constants table.
  void set_inputs(const double* u);

  // The state of every instance: t (n), q (n x nq), v (n x nv), status (n), row-major, to or from the device.
  void upload_state(const double* t, const double* q, const double* v, const int* status);
  void download_state(double* t, double* q, double* v, int* status) const;
  void download_status(int* status) const;  // the status alone (n), what an environment reads every step

  // Advances every instance on the device whose status is 0 by dt (an instance that fails keeps its t, q, v and
  // takes the failure's status). Returns when the device has finished.
  void advance(double dt);

  // The output signals of every instance at its device state: n x n_outputs row-major in device memory the stepper
  // owns, valid until the next observe or the stepper's end. Returns when the device has finished.
  const double* observe_on_device();
  // The same, copied to `out` on the host.
  void observe(double* out);

  int device() const;  // the CUDA device ordinal the stepper's memory lives on

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace myriad
