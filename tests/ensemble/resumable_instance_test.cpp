// An instance advanced a few step attempts at a time (what the GPU runner does between launches, dropping
// finished instances) must give exactly what one uninterrupted run gives: the same outputs bit for bit, the same
// work counters and the same status, for every shipped model and every method.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "ensemble/simulate_instance.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace {

using namespace testing;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same_stats(const IntegratorStats& a, const IntegratorStats& b, const std::string& where) {
  EXPECT_EQ(a.steps, b.steps) << where;
  EXPECT_EQ(a.rejected, b.rejected) << where;
  EXPECT_EQ(a.function_evaluations, b.function_evaluations) << where;
  EXPECT_EQ(a.jacobian_evaluations, b.jacobian_evaluations) << where;
  EXPECT_EQ(a.lu_factorizations, b.lu_factorizations) << where;
}

TEST(ResumableInstance, BudgetedCallsReproduceOneRunBitForBit) {
  int resumed_runs = 0;
  for (const std::string& file : shipped_model_files()) {
    const Model model = load_model_file(file);
    const auto compiled = compile(model);
    const Ensemble e = build_ensemble(model, *compiled, 2, nullptr, {});
    // A horizon long enough for several budgets and, on the quarter car, for its road input's breakpoints.
    const std::vector<double> times = output_grid(0.0, std::min(0.6, model.simulation.t_end), 0.05);
    const int n_times = static_cast<int>(times.size());
    for (Method method : {Method::rk4, Method::dopri5, Method::rn4, Method::ros2w}) {
      RunSpec spec;
      spec.method = method;
      spec.h = 1e-3;
      spec.control.rtol = 1e-6;
      spec.control.atol = 1e-8;
      spec.max_steps = 20000;
      const InstanceScratchLayout layout = instance_scratch_layout(*compiled, method);
      std::vector<double> scratch(layout.bytes / sizeof(double) + 1);
      std::vector<double> q(static_cast<size_t>(compiled->nq) + 1), v(static_cast<size_t>(compiled->nv) + 1);
      std::vector<double> constants(static_cast<size_t>(compiled->n_constants) + 1);
      const size_t n_values = times.size() * static_cast<size_t>(compiled->n_outputs);
      for (int i = 0; i < e.n_instances; ++i) {
        const std::string where = file + " " + std::to_string(static_cast<int>(method)) + " instance " + std::to_string(i);
        e.gather_initial_state(i, q.data(), v.data());
        e.gather_constants(i, constants.data());
        const double* k = constants.data();
        std::vector<double> whole(n_values, quiet_nan()), pieces(n_values, quiet_nan());
        IntegratorStats whole_stats, piece_stats;
        const InstanceStatus whole_status = simulate_instance(*compiled, k, q.data(), v.data(), spec, times.data(),
                                                              n_times, scratch.data(), whole.data(), whole_stats);
        std::fill(scratch.begin(), scratch.end(), 0.0);
        begin_instance(scratch.data());
        int calls = 0;
        while (!advance_instance(*compiled, k, q.data(), v.data(), spec, times.data(), n_times, scratch.data(),
                                 pieces.data(), piece_stats, 7)) {
          ASSERT_LT(++calls, 100000) << where;
        }
        EXPECT_EQ(instance_progress(scratch.data()).status, whole_status) << where;
        expect_same_stats(piece_stats, whole_stats, where);
        for (size_t j = 0; j < n_values; ++j)
          ASSERT_TRUE(same_bits(pieces[j], whole[j])) << where << " value " << j << ": " << pieces[j] << " vs " << whole[j];
        if (whole_stats.steps + whole_stats.rejected > 7) {
          EXPECT_GT(calls, 0) << where;  // the budget did stop it
          ++resumed_runs;
        }
      }
    }
  }
  EXPECT_GT(resumed_runs, 50);
}

// begin_instance leaves the same bytes in the whole reserved block whatever the scratch held before: the device
// copies the InstanceProgress by whole words, so a byte left over from earlier contents is an uninitialized read
// (compute-sanitizer initcheck reported the struct's padding on the H200). The host compiler happens to zero the
// padding (it copies a value-initialized temporary), so this checks the property on the whole block, whose tail
// beyond the struct the earlier member-wise assignment left unwritten (this test failed on it).
TEST(ResumableInstance, BeginInstanceWritesEveryByteOfTheProgressBlock) {
  const std::size_t bytes = instance_progress_doubles() * sizeof(double);
  ASSERT_GE(bytes, sizeof(InstanceProgress));
  std::vector<double> zeros(instance_progress_doubles(), 0.0), ones(instance_progress_doubles());
  std::memset(ones.data(), 0xFF, bytes);
  begin_instance(zeros.data());
  begin_instance(ones.data());
  EXPECT_EQ(std::memcmp(zeros.data(), ones.data(), bytes), 0);
  begin_instance_external_lu(ones.data());
  EXPECT_TRUE(instance_progress(ones.data()).integration.external_lu);
  EXPECT_FALSE(instance_progress(ones.data()).started);
}

}  // namespace
}  // namespace myriad
