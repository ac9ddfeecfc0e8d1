// The absolute-coordinate engine's kernels (kernels/absolute_kernel.cu, rotation_matrix_kernel.cu) against the
// cpu backend: rp, re and rA on
// models that exercise drivers, moving RSDA anchors, TSDAs with acceleration outputs and a tire, many
// instances with their own parameters. The kernels run the cpu backend's integrate_absolute_instance and
// integrate_rotation_matrix_instance, so the
// differences are the device's rounding (fused multiply-adds) carried through Newton's tolerance: the same
// statuses, every signal within 1e-7 of max(1, |cpu value|). Skips, saying why, where no device is present;
// the layout it reads is held to the cpu backend bit for bit without one
// (tests/absolute/absolute_batch_test.cpp).
#include "backends/absolute_cuda.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "backends/absolute_backend.hpp"
#include "backends/cuda_runner.hpp"
#include "support/absolute_cases.hpp"

namespace myriad {
namespace {

TEST(AbsoluteCuda, RpReAndRAMatchTheCpuBackend) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  for (const testing::AbsoluteCase& c : testing::absolute_layout_cases()) {
    const testing::AbsoluteCaseRun run = testing::absolute_case_run(c, 64, 1.0);
    for (AbsoluteCoordinates coordinates : testing::kAbsoluteCoordinates) {
      const char* name = testing::coordinates_name(coordinates);
      const RunSpec spec = testing::absolute_case_spec(run, coordinates);
      const EnsembleResult cpu = run_ensemble_absolute(coordinates, run.model, *run.compiled, run.ensemble,
                                                       spec, run.times, 0, nullptr, true);
      CudaRunOptions options;
      options.memory_budget_bytes = 1u << 20;  // chunks of a few instances: the runner's loop over chunks too
      const EnsembleResult gpu = run_ensemble_absolute_cuda(coordinates, run.model, *run.compiled,
                                                            run.ensemble, spec, run.times, 0, options);
      double worst = 0.0;
      for (int i = 0; i < run.ensemble.n_instances; ++i) {
        const size_t index = static_cast<size_t>(i);
        ASSERT_EQ(cpu.status[index], InstanceStatus::ok) << c.file << " " << name << " instance " << i;
        ASSERT_EQ(gpu.status[index], cpu.status[index]) << c.file << " " << name << " instance " << i;
        for (int k = 0; k < cpu.n_times; ++k)
          for (int s = 0; s < cpu.n_signals; ++s) {
            const double a = cpu.value(i, k, s), b = gpu.value(i, k, s);
            worst = std::max(worst, std::abs(a - b) / std::max(1.0, std::abs(a)));
          }
      }
      EXPECT_LE(worst, 1e-7) << c.file << " " << name;
      std::printf("%s %s: %d instances, largest cuda - cpu difference %.2g of max(1, |value|)\n", c.file,
                  name, run.ensemble.n_instances, worst);
    }
  }
}

}  // namespace
}  // namespace myriad
