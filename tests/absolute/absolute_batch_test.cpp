// The cuda kernel's half of the absolute-coordinate engine without a device: the batch layout the kernel
// reads (backends/absolute_batch.hpp: models copied by value, their pointers placed at the batch's constants
// and drivers' coefficients, starts and rows side by side) run through the kernel's body on the CPU
// (run_absolute_batch_on_host: integrate_absolute_instance per instance, integrate_rotation_matrix_instance for
// rA) and recorded as the cuda runner
// records it, against the cpu backend (run_ensemble_absolute): the same statuses, counters, signals and KPIs
// bit for bit, on models that exercise each part of the layout (drivers' coefficients, RSDA anchors that
// move, tires, rows with accelerations, per-instance parameters).
#include "backends/absolute_batch.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/absolute_backend.hpp"
#include "ensemble/ensemble_kpis.hpp"
#include "ensemble/ensemble_result.hpp"
#include "integrators/implicit_coefficients.hpp"
#include "kpi/kpi.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"
#include "support/absolute_cases.hpp"

namespace myriad {
namespace {

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0; }

// The batch path over the whole ensemble in chunks of `chunk` instances, recorded into one result.
EnsembleResult run_in_batches(AbsoluteCoordinates coordinates, const Model& model,
                              const CompiledModel& compiled, const Ensemble& ensemble, const RunSpec& spec,
                              const std::vector<double>& times, int chunk) {
  const int n = ensemble.n_instances;
  EnsembleResult result = make_ensemble_result(n, times, compiled.n_outputs, true);
  result.kpi_state.assign(static_cast<size_t>(n) * static_cast<size_t>(compiled.n_kpis) * kKpiStateDoubles,
                          0.0);
  for (int first = 0; first < n; first += chunk) {
    const int count = std::min(chunk, n - first);
    AbsoluteBatch batch =
        prepare_absolute_batch(coordinates, model, compiled, ensemble, first, count, times, 2);
    const AbsoluteBatchRun run = run_absolute_batch_on_host(batch, compiled, spec, times);
    record_absolute_batch(batch, run, model, compiled, ensemble, times, 2, result);
  }
  finish_kpis(compiled, result);
  return result;
}

// A quarter of each device run's horizon (20 to 50 steps): about 1.5 s for the 24 runs.
TEST(AbsoluteBatch, KernelBodyOnTheHostEqualsTheCpuBackendBitForBit) {
  int compared = 0;
  for (const testing::AbsoluteCase& c : testing::absolute_layout_cases()) {
    const testing::AbsoluteCaseRun run = testing::absolute_case_run(c, 3, 0.25);
    for (AbsoluteCoordinates coordinates : testing::kAbsoluteCoordinates) {
      const char* name = testing::coordinates_name(coordinates);
      const RunSpec spec = testing::absolute_case_spec(run, coordinates);
      const EnsembleResult cpu = run_ensemble_absolute(coordinates, run.model, *run.compiled, run.ensemble,
                                                       spec, run.times, 2, nullptr, true);
      const EnsembleResult twin =
          run_in_batches(coordinates, run.model, *run.compiled, run.ensemble, spec, run.times, 2);
      ASSERT_EQ(cpu.values.size(), twin.values.size());
      for (int i = 0; i < run.ensemble.n_instances; ++i) {
        const size_t index = static_cast<size_t>(i);
        ASSERT_EQ(cpu.status[index], InstanceStatus::ok) << c.file << " " << name << " instance " << i;
        EXPECT_EQ(twin.status[index], cpu.status[index]) << c.file << " " << name;
        EXPECT_EQ(twin.stats[index].steps, cpu.stats[index].steps) << c.file << " " << name;
        EXPECT_EQ(twin.stats[index].function_evaluations, cpu.stats[index].function_evaluations) << c.file;
        EXPECT_EQ(twin.stats[index].lu_factorizations, cpu.stats[index].lu_factorizations) << c.file;
      }
      int differing = 0;
      for (size_t k = 0; k < cpu.values.size(); ++k)
        differing += same_bits(cpu.values[k], twin.values[k]) ? 0 : 1;
      EXPECT_EQ(differing, 0) << c.file << " " << name << ": values that differ from the cpu backend's";
      ASSERT_EQ(cpu.kpis.size(), twin.kpis.size());
      for (size_t k = 0; k < cpu.kpis.size(); ++k)
        EXPECT_TRUE(same_bits(cpu.kpis[k], twin.kpis[k])) << c.file << " " << name << " KPI " << k;
      // The run is not trivial: the instances' parameters moved their signals apart.
      double spread = 0.0;
      for (int k = 0; k < cpu.n_times; ++k)
        for (int s = 0; s < cpu.n_signals; ++s)
          spread =
              std::fmax(spread, std::abs(cpu.value(0, k, s) - cpu.value(run.ensemble.n_instances - 1, k, s)));
      EXPECT_GT(spread, 0.0) << c.file << " " << name;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 12);
}

// The layout's sizes: rows of y (and q'' where the outputs read accelerations; rA: its own state layout, and r'',
// omega-bar'), one workspace per instance, each model pointing at its own constants and coefficients once placed.
TEST(AbsoluteBatch, LayoutPlacesEachInstanceAtItsOwnConstants) {
  const Model model = load_model_file(std::string(MYRIAD_SOURCE_DIR) + "/models/loops/slider_crank.json");
  const auto compiled = compile(model);
  const Ensemble ensemble = testing::spread_parameter(model, *compiled, "crank_rate", 3);
  const std::vector<double> times = {0.0, 0.1};
  AbsoluteBatch batch =
      prepare_absolute_batch(AbsoluteCoordinates::rp, model, *compiled, ensemble, 1, 2, times, 1);
  EXPECT_EQ(batch.count, 2);
  EXPECT_EQ(batch.ny, 2 * 7 * static_cast<int>(batch.instances[0].mapping.bodies.size()));
  EXPECT_EQ(batch.row_size, batch.ny + (batch.accelerations ? batch.ny / 2 : 0));
  EXPECT_GT(batch.work_size, 0);
  ASSERT_FALSE(batch.coefficients.empty());
  const std::vector<double> constants(batch.constants.size(), 0.0),
      coefficients(batch.coefficients.size(), 0.0);
  place_absolute_batch(batch, compiled.get(), constants.data(), coefficients.data());
  EXPECT_EQ(batch.models[1].constants, constants.data() + batch.constant_stride);
  EXPECT_EQ(batch.models[1].drivers[0].coefficients,
            coefficients.data() + batch.driver_offsets[kMaxAbsoluteDrivers]);
  EXPECT_EQ(batch.models[0].compiled, compiled.get());
  // Instance 1's constants are its own (the spread parameter differs from instance 2's).
  std::vector<double> own(static_cast<size_t>(compiled->n_constants));
  ensemble.gather_constants(2, own.data());
  for (int c = 0; c < compiled->n_constants; ++c)
    EXPECT_EQ(batch.constants[static_cast<size_t>(batch.constant_stride + c)], own[static_cast<size_t>(c)]);
  const AbsoluteBatch ra = prepare_absolute_batch(AbsoluteCoordinates::rA, model, *compiled, ensemble, 0, 2, times, 1);
  const int bodies = static_cast<int>(ra.instances[0].mapping.bodies.size());
  EXPECT_EQ(ra.ny, kRotationMatrixBodyValues * bodies);
  EXPECT_EQ(ra.row_size, ra.ny + (ra.accelerations ? 6 * bodies : 0));
  EXPECT_EQ(ra.work_size, rotation_matrix_instance_workspace_size(*ra.instances[0].model));
  // Its start's orientation is a rotation matrix (A A^T = I).
  for (int b = 0; b < bodies; ++b) {
    const double* A = ra.starts.data() + kRotationMatrixBodyValues * b + 3;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        EXPECT_NEAR(A[3 * i] * A[3 * j] + A[3 * i + 1] * A[3 * j + 1] + A[3 * i + 2] * A[3 * j + 2],
                    i == j ? 1.0 : 0.0, 1e-14);
  }
}

}  // namespace
}  // namespace myriad
