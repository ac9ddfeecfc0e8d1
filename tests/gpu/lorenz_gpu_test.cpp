// The Lorenz calibration ensemble on the GPU against the CPU run of the same per-instance function. Skips,
// saying why, where no device is present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "backends/cuda_runner.hpp"
#include "backends/lorenz_cuda.hpp"

namespace myriad {
namespace lorenz_gpu_test {

template <class Real>
void expect_matches_cpu(double tolerance) {
  const LorenzSpec spec;
  const long long n = 4099;  // not a multiple of the block size
  const LorenzRun<Real> cpu = run_lorenz_cpu<Real>(spec, n, 0);
  // A small budget forces several chunks.
  const LorenzRun<Real> gpu = run_lorenz_cuda<Real>(spec, n, 128, 1000 * (4 * sizeof(Real) + sizeof(int)));
  for (long long i = 0; i < n; ++i) ASSERT_EQ(gpu.status[static_cast<size_t>(i)], InstanceStatus::ok) << i;
  for (size_t k = 0; k < cpu.final_state.size(); ++k) {
    const double a = cpu.final_state[k], b = gpu.final_state[k];
    // The device contracts a * b + c into fused multiply-adds, so the two differ by rounding only.
    EXPECT_LE(std::abs(a - b), tolerance * std::max(1.0, std::abs(a))) << "entry " << k;
  }
}

TEST(LorenzGpu, DoubleMatchesCpu) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  expect_matches_cpu<double>(1e-11);
}

TEST(LorenzGpu, FloatMatchesCpu) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  expect_matches_cpu<float>(2e-4);
}

}  // namespace lorenz_gpu_test
}  // namespace myriad
