#include "backends/cuda_stepper.hpp"

#include <stdexcept>
#include <vector>

#include "backends/cuda_runner.hpp"
#include "ensemble/device_slot.hpp"
#include "ensemble/step_instance.hpp"

#ifdef MYRIAD_HAVE_CUDA
#include <cuda_runtime.h>

#include "backends/device_buffer.hpp"
#include "step_kernel.cuh"
#endif

namespace myriad {

#ifndef MYRIAD_HAVE_CUDA

struct CudaStepper::Impl {};

CudaStepper::CudaStepper(const CompiledModel& model, const RunSpec&, long long) { require_cuda_backend(model); }

void CudaStepper::set_constants(const double*) {}
void CudaStepper::advance(double, double*, double*, double*, int*) {}

#else

namespace {

constexpr int kThreadsPerBlock = 128;  // as the fused kernel's default (CudaRunOptions)

}  // namespace

struct CudaStepper::Impl {
  long long n = 0;
  int nq = 0, nv = 0, n_constants = 0;
  RunSpec spec;
  std::size_t scratch_bytes = 0;
  bool thread_local_scratch = false;
  cuda::DeviceArray<CompiledModel> model{1};
  cuda::DeviceArray<double> constants, t, q, v;
  cuda::DeviceArray<int> status;
  cuda::DeviceArray<unsigned char> scratch;
  std::vector<double> soa;  // the host side of the constants' transposition

  Impl(const CompiledModel& m, const RunSpec& s, long long count, std::size_t step_bytes, bool local)
      : n(count), nq(m.nq), nv(m.nv), n_constants(m.n_constants), spec(s), scratch_bytes(step_bytes),
        thread_local_scratch(local), constants(static_cast<std::size_t>(count) * m.n_constants),
        t(static_cast<std::size_t>(count)), q(static_cast<std::size_t>(count) * m.nq),
        v(static_cast<std::size_t>(count) * m.nv), status(static_cast<std::size_t>(count)),
        scratch(local ? 0 : static_cast<std::size_t>(count) * step_bytes) {}
};

CudaStepper::CudaStepper(const CompiledModel& model, const RunSpec& spec, long long n) {
  require_cuda_backend(model);
  if (model.constraints.m > 0)
    throw std::runtime_error(
        "cuda backend: stepping a model with closed loops is not available on the device (the end of a step "
        "would need the loop solve compiled into the step kernel; ensemble/step_instance.hpp); use backend 'cpu'");
  const std::size_t bytes = step_scratch_bytes(model, spec.method);
  impl_ = std::make_unique<Impl>(model, spec, n, bytes, bytes <= kThreadLocalSlotBytes);
  cuda::check(cudaMemcpy(impl_->model.pointer, &model, sizeof(CompiledModel), cudaMemcpyHostToDevice),
              "cudaMemcpy (model)");
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
  cuda::check(cudaMemcpy(s.constants.pointer, s.soa.data(), sizeof(double) * s.soa.size(), cudaMemcpyHostToDevice),
              "cudaMemcpy (constants)");
}

void CudaStepper::advance(double dt, double* t, double* q, double* v, int* status) {
  Impl& s = *impl_;
  const std::size_t n = static_cast<std::size_t>(s.n);
  const auto to_device = [](void* to, const void* from, std::size_t bytes, const char* what) {
    cuda::check(cudaMemcpy(to, from, bytes, cudaMemcpyHostToDevice), what);
  };
  const auto to_host = [](void* to, const void* from, std::size_t bytes, const char* what) {
    cuda::check(cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToHost), what);
  };
  to_device(s.t.pointer, t, sizeof(double) * n, "cudaMemcpy (t)");
  to_device(s.q.pointer, q, sizeof(double) * n * s.nq, "cudaMemcpy (q)");
  to_device(s.v.pointer, v, sizeof(double) * n * s.nv, "cudaMemcpy (v)");
  to_device(s.status.pointer, status, sizeof(int) * n, "cudaMemcpy (status)");
  const cuda::StepParams p{s.model.pointer, s.constants.pointer, s.n, s.spec, dt, s.t.pointer, s.q.pointer,
                           s.v.pointer, s.status.pointer, s.scratch.pointer, s.scratch_bytes,
                           s.thread_local_scratch};
  cuda::check(cuda::launch_step(p, kThreadsPerBlock, nullptr), "step kernel launch");
  cuda::check(cudaDeviceSynchronize(), "step kernel");
  to_host(t, s.t.pointer, sizeof(double) * n, "cudaMemcpy (t back)");
  to_host(q, s.q.pointer, sizeof(double) * n * s.nq, "cudaMemcpy (q back)");
  to_host(v, s.v.pointer, sizeof(double) * n * s.nv, "cudaMemcpy (v back)");
  to_host(status, s.status.pointer, sizeof(int) * n, "cudaMemcpy (status back)");
}

#endif

CudaStepper::~CudaStepper() = default;

}  // namespace myriad
