// CUDA thread-per-instance run against the CPU fast path. Skips, saying why, where no device is present.
#include <gtest/gtest.h>

#include <cmath>

#include "cuda_runner.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace {

using namespace testing;

TEST(CudaBackend, MatchesCpuOnRandomizedQuarterCarEnsemble) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  const Model model = load_model_file(model_path("quarter_car.json"));
  const auto compiled = compile(model);
  ParameterTable t;
  t.source = "generated";
  t.names = {"k_s", "c_s"};
  for (int i = 0; i < 256; ++i) t.rows.push_back({15000.0 + 97.0 * i, 800.0 + 12.5 * i});
  const Ensemble e = build_ensemble(model, *compiled, 0, &t, {});
  const std::vector<double> times = output_grid(0.0, 2.0, 0.01);
  for (const RunSpec& spec : {rk4(1e-3), dopri5(1e-8, 1e-10)}) {
    const EnsembleResult cpu = run_ensemble_cpu(*compiled, e, spec, times, 0);
    const EnsembleResult gpu = run_ensemble_cuda(*compiled, e, spec, times);
    const double tolerance = spec.method == Method::rk4 ? 1e-10 : 1e-7;
    for (int i = 0; i < e.n_instances; ++i) {
      ASSERT_EQ(gpu.status[static_cast<size_t>(i)], InstanceStatus::ok);
      if (spec.method == Method::rk4) EXPECT_EQ(gpu.stats[static_cast<size_t>(i)].steps, cpu.stats[static_cast<size_t>(i)].steps);
      for (int k = 0; k < cpu.n_times; ++k)
        for (int s = 0; s < cpu.n_signals; ++s) {
          const double a = cpu.value(i, k, s), b = gpu.value(i, k, s);
          EXPECT_LE(std::abs(a - b), tolerance * std::max(1.0, std::abs(a))) << "instance " << i << " signal " << s;
        }
    }
  }
}

}  // namespace
}  // namespace myriad
