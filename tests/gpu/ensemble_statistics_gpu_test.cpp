// CUDA ensemble statistics against the CPU twin. Skips, saying why, where no device is present.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include "backends/cuda_runner.hpp"
#include "backends/cuda_statistics.hpp"
#include "ensemble/ensemble_statistics.hpp"

namespace myriad {
namespace ensemble_statistics_gpu_test {

// n instances x n_times x n_signals of random values of different scales; every fifth instance fails at a
// random time (NaN after it) and a few values are +-inf.
EnsembleResult random_result(int n_instances, int n_times, int n_signals, unsigned seed) {
  EnsembleResult r;
  r.n_instances = n_instances;
  r.n_times = n_times;
  r.n_signals = n_signals;
  for (int k = 0; k < n_times; ++k) r.times.push_back(0.01 * k);
  r.values.assign(static_cast<size_t>(n_instances) * n_times * n_signals,
                  std::numeric_limits<double>::quiet_NaN());
  r.status.assign(static_cast<size_t>(n_instances), InstanceStatus::ok);
  r.stats.assign(static_cast<size_t>(n_instances), IntegratorStats{});
  r.wall_seconds.assign(static_cast<size_t>(n_instances), 0.0);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> failure_time(0, n_times - 1);
  for (int i = 0; i < n_instances; ++i) {
    const int fails_at = i % 5 == 2 ? failure_time(rng) : n_times;
    for (int k = 0; k < fails_at; ++k)
      for (int s = 0; s < n_signals; ++s)
        r.values[(static_cast<size_t>(i) * n_times + k) * n_signals + s] =
            i == 17 && k == 3 ? std::numeric_limits<double>::infinity()
                              : std::pow(10.0, 2 * s - 2) * (1.0 + s + normal(rng));
  }
  return r;
}

void expect_close(const std::vector<double>& cpu, const std::vector<double>& gpu, const char* what) {
  ASSERT_EQ(cpu.size(), gpu.size()) << what;
  for (size_t j = 0; j < cpu.size(); ++j) {
    if (std::isnan(cpu[j])) {
      EXPECT_TRUE(std::isnan(gpu[j])) << what << " [" << j << "]";
      continue;
    }
    EXPECT_LE(std::fabs(cpu[j] - gpu[j]), 1e-12 * std::fabs(cpu[j]))
        << what << " [" << j << "]: " << cpu[j] << " vs " << gpu[j];
  }
}

TEST(EnsembleStatisticsGpu, CudaMatchesCpuOnRandomResult) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  for (int n : {1, 64, 1000, 4099}) {
    SCOPED_TRACE("instances " + std::to_string(n));
    const EnsembleResult r = random_result(n, 51, 3, 99u + static_cast<unsigned>(n));
    const EnsembleStatistics cpu = compute_statistics(r, 4);
    const EnsembleStatistics gpu = compute_statistics_cuda(r);
    ASSERT_EQ(gpu.n_times, cpu.n_times);
    ASSERT_EQ(gpu.n_signals, cpu.n_signals);
    ASSERT_EQ(gpu.n_instances, cpu.n_instances);
    EXPECT_EQ(gpu.count, cpu.count);
    expect_close(cpu.mean, gpu.mean, "mean");
    expect_close(cpu.stddev, gpu.stddev, "stddev");
    expect_close(cpu.min, gpu.min, "min");
    expect_close(cpu.max, gpu.max, "max");
    expect_close(cpu.kpi_max_abs, gpu.kpi_max_abs, "kpi_max_abs");
    expect_close(cpu.kpi_rms, gpu.kpi_rms, "kpi_rms");
    expect_close(cpu.kpi_final, gpu.kpi_final, "kpi_final");
  }
}

TEST(EnsembleStatisticsGpu, WithoutADeviceTheCudaPathThrowsSayingWhy) {
  std::string device;
  if (cuda_device_available(&device)) GTEST_SKIP() << "a GPU is present: " << device;
  EnsembleResult r = random_result(3, 2, 1, 1u);
  try {
    compute_statistics_cuda(r);
    ADD_FAILURE() << "compute_statistics_cuda did not throw";
  } catch (const std::runtime_error& e) {
#ifndef MYRIAD_HAVE_CUDA
    EXPECT_NE(std::string(e.what()).find("no CUDA"), std::string::npos) << e.what();
#else
    EXPECT_NE(std::string(e.what()).find("compute_statistics_cuda"), std::string::npos) << e.what();
#endif
  }
}

}  // namespace ensemble_statistics_gpu_test
}  // namespace myriad
