#include "backends/cuda_stepper.hpp"

#include <stdexcept>
#include <vector>

#include "backends/cuda_runner.hpp"
#include "ensemble/device_slot.hpp"
#include "ensemble/step_instance.hpp"

#ifdef MYRIAD_HAVE_CUDA
#include <cuda_runtime.h>

#include "backends/device_buffer.hpp"
#include "observe_kernel.cuh"
#include "step_kernel.cuh"
#endif

namespace myriad {

#ifndef MYRIAD_HAVE_CUDA

struct CudaStepper::Impl {};

CudaStepper::CudaStepper(const CompiledModel& model, const RunSpec& spec, long long,
                         const std::vector<FlatInputSlot>&, int) {
  require_cuda_backend(model, spec.method);
}

void CudaStepper::set_constants(const double*) {}
void CudaStepper::set_inputs(const double*) {}
void CudaStepper::upload_state(const double*, const double*, const double*, const int*) {}
void CudaStepper::download_state(double*, double*, double*, int*) const {}
void CudaStepper::download_status(int*) const {}
void CudaStepper::advance(double) {}
const double* CudaStepper::observe_on_device() { return nullptr; }
void CudaStepper::observe(double*) {}
int CudaStepper::device() const { return -1; }

#else

namespace {

constexpr int kThreadsPerBlock = 128;  // as the fused kernel's default (CudaRunOptions)

void to_device(void* to, const void* from, std::size_t bytes, const char* what) {
  cuda::check(cudaMemcpy(to, from, bytes, cudaMemcpyHostToDevice), what);
}

void to_host(void* to, const void* from, std::size_t bytes, const char* what) {
  cuda::check(cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToHost), what);
}

}  // namespace

struct CudaStepper::Impl {
  long long n = 0;
  int nq = 0, nv = 0, n_constants = 0, n_outputs = 0, n_inputs = 0, n_slots = 0, device = 0;
  RunSpec spec;
  std::size_t scratch_bytes = 0;
  bool thread_local_scratch = false;
  cuda::DeviceArray<CompiledModel> model{1};
  cuda::DeviceArray<double> constants, t, q, v, u, outputs;
  cuda::DeviceArray<int> status;
  cuda::DeviceArray<FlatInputSlot> slots;
  cuda::DeviceArray<unsigned char> scratch;
  std::vector<double> soa;  // the host side of the constants' transposition

  Impl(const CompiledModel& m, const RunSpec& s, long long count, int inputs, std::size_t n_slot,
       std::size_t step_bytes, bool local)
      : n(count), nq(m.nq), nv(m.nv), n_constants(m.n_constants), n_outputs(m.n_outputs), n_inputs(inputs),
        n_slots(static_cast<int>(n_slot)), spec(s), scratch_bytes(step_bytes), thread_local_scratch(local),
        constants(static_cast<std::size_t>(count) * m.n_constants), t(static_cast<std::size_t>(count)),
        q(static_cast<std::size_t>(count) * m.nq), v(static_cast<std::size_t>(count) * m.nv),
        u(static_cast<std::size_t>(count) * inputs), outputs(static_cast<std::size_t>(count) * m.n_outputs),
        status(static_cast<std::size_t>(count)), slots(n_slot),
        scratch(local ? 0 : static_cast<std::size_t>(count) * step_bytes) {}
};

CudaStepper::CudaStepper(const CompiledModel& model, const RunSpec& spec, long long n,
                         const std::vector<FlatInputSlot>& slots, int n_inputs) {
  require_cuda_backend(model, spec.method);
  if (spec.method == Method::implicit)
    throw std::runtime_error(
        "cuda backend: stepping with an implicit integrator is not available on the device (the step kernel is "
        "compiled without them: kernels/tree_implicit_kernel.cu runs whole runs only); use backend 'cpu'");
  if (model.constraints.m > 0)
    throw std::runtime_error(
        "cuda backend: stepping a model with closed loops is not available on the device (the end of a step "
        "would need the loop solve compiled into the step kernel; ensemble/step_instance.hpp); use backend 'cpu'");
  const std::size_t bytes = step_scratch_bytes(model, spec.method);
  impl_ = std::make_unique<Impl>(model, spec, n, n_inputs, slots.size(), bytes, bytes <= kThreadLocalSlotBytes);
  cuda::check(cudaGetDevice(&impl_->device), "cudaGetDevice");
  to_device(impl_->model.pointer, &model, sizeof(CompiledModel), "cudaMemcpy (model)");
  if (!slots.empty())
    to_device(impl_->slots.pointer, slots.data(), sizeof(FlatInputSlot) * slots.size(), "cudaMemcpy (input slots)");
  // A slot starts as zeros, as the cpu backend's scratch does (begin_instance writes what a step reads).
  if (!impl_->thread_local_scratch)
    cuda::check(cudaMemset(impl_->scratch.pointer, 0, static_cast<std::size_t>(n) * bytes), "cudaMemset (scratch)");
}

void CudaStepper::set_constants(const double* row_major) {
  Impl& s = *impl_;
  s.soa.resize(static_cast<std::size_t>(s.n) * s.n_constants);
  for (long long i = 0; i < s.n; ++i)
    for (int c = 0; c < s.n_constants; ++c)
      s.soa[static_cast<std::size_t>(c) * s.n + i] = row_major[i * s.n_constants + c];
  to_device(s.constants.pointer, s.soa.data(), sizeof(double) * s.soa.size(), "cudaMemcpy (constants)");
}

void CudaStepper::set_inputs(const double* u) {
  Impl& s = *impl_;
  if (s.n_inputs == 0) return;
  to_device(s.u.pointer, u, sizeof(double) * static_cast<std::size_t>(s.n) * s.n_inputs, "cudaMemcpy (inputs)");
  cuda::check(cuda::launch_scatter_inputs(s.slots.pointer, s.n_slots, s.u.pointer, s.n_inputs, s.n,
                                          s.constants.pointer, kThreadsPerBlock, nullptr),
              "input kernel launch");
}

void CudaStepper::upload_state(const double* t, const double* q, const double* v, const int* status) {
  const Impl& s = *impl_;
  const std::size_t n = static_cast<std::size_t>(s.n);
  to_device(s.t.pointer, t, sizeof(double) * n, "cudaMemcpy (t)");
  to_device(s.q.pointer, q, sizeof(double) * n * s.nq, "cudaMemcpy (q)");
  to_device(s.v.pointer, v, sizeof(double) * n * s.nv, "cudaMemcpy (v)");
  to_device(s.status.pointer, status, sizeof(int) * n, "cudaMemcpy (status)");
}

void CudaStepper::download_state(double* t, double* q, double* v, int* status) const {
  const Impl& s = *impl_;
  const std::size_t n = static_cast<std::size_t>(s.n);
  to_host(t, s.t.pointer, sizeof(double) * n, "cudaMemcpy (t back)");
  to_host(q, s.q.pointer, sizeof(double) * n * s.nq, "cudaMemcpy (q back)");
  to_host(v, s.v.pointer, sizeof(double) * n * s.nv, "cudaMemcpy (v back)");
  to_host(status, s.status.pointer, sizeof(int) * n, "cudaMemcpy (status back)");
}

void CudaStepper::download_status(int* status) const {
  to_host(status, impl_->status.pointer, sizeof(int) * static_cast<std::size_t>(impl_->n), "cudaMemcpy (status back)");
}

void CudaStepper::advance(double dt) {
  Impl& s = *impl_;
  const cuda::StepParams p{s.model.pointer, s.constants.pointer, s.n, s.spec, dt, s.t.pointer, s.q.pointer,
                           s.v.pointer, s.status.pointer, s.scratch.pointer, s.scratch_bytes,
                           s.thread_local_scratch};
  cuda::check(cuda::launch_step(p, kThreadsPerBlock, nullptr), "step kernel launch");
  cuda::check(cudaDeviceSynchronize(), "step kernel");
}

const double* CudaStepper::observe_on_device() {
  Impl& s = *impl_;
  const cuda::ObserveParams p{s.model.pointer, s.constants.pointer, s.n, s.spec.method, s.t.pointer, s.q.pointer,
                              s.v.pointer, s.outputs.pointer, s.scratch.pointer, s.scratch_bytes,
                              s.thread_local_scratch};
  cuda::check(cuda::launch_observe(p, kThreadsPerBlock, nullptr), "observe kernel launch");
  cuda::check(cudaDeviceSynchronize(), "observe kernel");
  return s.outputs.pointer;
}

void CudaStepper::observe(double* out) {
  const double* outputs = observe_on_device();
  to_host(out, outputs, sizeof(double) * static_cast<std::size_t>(impl_->n) * impl_->n_outputs,
          "cudaMemcpy (outputs back)");
}

int CudaStepper::device() const { return impl_->device; }

#endif

CudaStepper::~CudaStepper() = default;

}  // namespace myriad
