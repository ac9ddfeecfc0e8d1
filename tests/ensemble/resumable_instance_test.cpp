// An instance advanced a few step attempts at a time (what the GPU runner does between launches, dropping
// finished instances) must give exactly what one uninterrupted run gives: the same outputs bit for bit, the same
// work counters and the same status, for every shipped model and every method.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "ensemble/simulate_instance.hpp"
#include "integrators/implicit_coefficients.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace resumable_instance_test {

using namespace testing;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_same_stats(const IntegratorStats& a, const IntegratorStats& b, const std::string& where) {
  EXPECT_EQ(a.steps, b.steps) << where;
  EXPECT_EQ(a.rejected, b.rejected) << where;
  EXPECT_EQ(a.function_evaluations, b.function_evaluations) << where;
  EXPECT_EQ(a.jacobian_evaluations, b.jacobian_evaluations) << where;
  EXPECT_EQ(a.lu_factorizations, b.lu_factorizations) << where;
}

// One instance of a shipped model, ready to run: its compiled model, spec, output times, initial state and constants.
struct InstanceRun {
  std::string where;
  const CompiledModel* model;
  RunSpec spec;
  const std::vector<double>* times;
  std::vector<double> q, v, constants;
  std::size_t scratch_doubles, n_values;
  int n_times() const { return static_cast<int>(times->size()); }
};

// Calls body(run) for `instances` instances of every shipped model under every method, output times to t_max.
template <class Body>
void for_every_instance(int instances, double t_max, const Body& body) {
  for (const std::string& file : shipped_model_files_to_run()) {
    const Model model = load_model_file(file);
    const auto compiled = compile(model);
    const Ensemble e = build_ensemble(model, *compiled, instances, nullptr, {});
    const std::vector<double> times = output_grid(0.0, std::min(t_max, model.simulation.t_end), 0.05);
    for (Method method : {Method::rk4, Method::dopri5, Method::rn4, Method::ros2w, Method::implicit}) {
      InstanceRun run;
      run.model = compiled.get();
      run.spec.method = method;
      // LMS3 carries three past points between calls (the history in the progress, the points in the scratch)
      run.spec.implicit = implicit_scheme(ImplicitMethod::lms3, 0.6);
      run.spec.h = 1e-3;
      run.spec.control.rtol = 1e-6;
      run.spec.control.atol = 1e-8;
      run.spec.max_steps = 20000;
      run.times = &times;
      run.scratch_doubles = instance_scratch_layout(*compiled, method).bytes / sizeof(double) + 1;
      run.n_values = times.size() * static_cast<size_t>(compiled->n_outputs);
      run.q.resize(static_cast<size_t>(compiled->nq) + 1);
      run.v.resize(static_cast<size_t>(compiled->nv) + 1);
      run.constants.resize(static_cast<size_t>(compiled->n_constants) + 1);
      for (int i = 0; i < e.n_instances; ++i) {
        run.where = file + " method " + std::to_string(static_cast<int>(method)) + " instance " + std::to_string(i);
        e.gather_initial_state(i, run.q.data(), run.v.data());
        e.gather_constants(i, run.constants.data());
        body(run);
      }
    }
  }
}

// Advances `run` from `scratch` (begin_instance already called) `budget` attempts a call to its end; returns how
// many calls stopped short of it.
int advance_to_end(const InstanceRun& run, std::vector<double>& scratch, double* outputs, IntegratorStats& stats,
                   long long budget) {
  int calls = 0;
  while (!advance_instance(*run.model, run.constants.data(), run.q.data(), run.v.data(), run.spec, run.times->data(),
                           run.n_times(), scratch.data(), outputs, stats, budget)) {
    if (++calls >= 100000) {
      ADD_FAILURE() << run.where << ": not finished after " << calls << " calls";
      break;
    }
  }
  return calls;
}

TEST(ResumableInstance, BudgetedCallsReproduceOneRunBitForBit) {
  int resumed_runs = 0;
  // A horizon long enough for several budgets and, on the quarter car, for its road input's breakpoints.
  for_every_instance(2, 0.6, [&](const InstanceRun& run) {
    std::vector<double> scratch(run.scratch_doubles);
    std::vector<double> whole(run.n_values, quiet_nan()), pieces(run.n_values, quiet_nan());
    IntegratorStats whole_stats, piece_stats;
    const InstanceStatus whole_status =
        simulate_instance(*run.model, run.constants.data(), run.q.data(), run.v.data(), run.spec, run.times->data(),
                          run.n_times(), scratch.data(), whole.data(), whole_stats);
    std::fill(scratch.begin(), scratch.end(), 0.0);
    begin_instance(scratch.data());
    const int calls = advance_to_end(run, scratch, pieces.data(), piece_stats, 7);
    EXPECT_EQ(instance_progress(scratch.data()).status, whole_status) << run.where;
    expect_same_stats(piece_stats, whole_stats, run.where);
    for (size_t j = 0; j < run.n_values; ++j)
      ASSERT_TRUE(same_bits(pieces[j], whole[j])) << run.where << " value " << j << ": " << pieces[j] << " vs " << whole[j];
    if (whole_stats.steps + whole_stats.rejected > 7) {
      EXPECT_GT(calls, 0) << run.where;  // the budget did stop it
      ++resumed_runs;
    }
  });
  EXPECT_GT(resumed_runs, 50);
}

// What the scratch held before begin_instance must not matter: the device's slots in global memory are not
// cleared by the kernels (compute-sanitizer initcheck on the H100, 2026-11-26: uninitialized 8-byte reads in the
// budget, warp, shared-LU and staged kernels, whose slots lie in global memory). Each instance runs from a scratch
// of zeros, of NaNs (every byte 0xFF) and of large finite values (0x47...), a few attempts a call as the GPU does;
// outputs, counters and status must agree bit for bit.
TEST(ResumableInstance, WhatTheScratchHeldBeforeTheRunDoesNotMatter) {
  int runs = 0;
  for_every_instance(1, 0.3, [&](const InstanceRun& run) {
    std::vector<std::vector<double>> outputs;
    std::vector<IntegratorStats> stats;
    std::vector<InstanceStatus> status;
    for (unsigned char fill : {0x00, 0xFF, 0x47}) {
      std::vector<double> scratch(run.scratch_doubles);
      std::memset(scratch.data(), fill, scratch.size() * sizeof(double));
      begin_instance(scratch.data());
      outputs.emplace_back(run.n_values, 0.0);
      stats.emplace_back();
      advance_to_end(run, scratch, outputs.back().data(), stats.back(), 7);
      status.push_back(instance_progress(scratch.data()).status);
    }
    for (size_t r = 1; r < outputs.size(); ++r) {
      const std::string where = run.where + " fill " + std::to_string(r);
      EXPECT_EQ(status[r], status[0]) << where;
      expect_same_stats(stats[r], stats[0], where);
      for (size_t j = 0; j < run.n_values; ++j)
        ASSERT_TRUE(same_bits(outputs[r][j], outputs[0][j]))
            << where << " value " << j << ": " << outputs[r][j] << " vs " << outputs[0][j];
    }
    ++runs;
  });
  EXPECT_GT(runs, 40);
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

// advance_instance with the step loops of one method on tree models (ensemble/step_loops.hpp; what the
// specialized GPU kernels are built from), `budget` attempts a call, over constants k (a pointer, or
// ClassConstants for a model class's code); true once finished.
template <class S, class K>
bool advance_with(const InstanceRun& run, const K& k, std::vector<double>& scratch, double* outputs,
                  IntegratorStats& stats, long long budget) {
  return advance_instance<S>(*run.model, k, run.q.data(), run.v.data(), run.spec, run.times->data(), run.n_times(),
                             scratch.data(), outputs, stats, budget);
}

template <class K>
bool advance_tree_copy(Method copy, const InstanceRun& run, const K& k, std::vector<double>& scratch,
                       double* outputs, IntegratorStats& stats, long long budget) {
  switch (copy) {
    case Method::rk4: return advance_with<TreeStepLoops<Method::rk4>>(run, k, scratch, outputs, stats, budget);
    case Method::dopri5: return advance_with<TreeStepLoops<Method::dopri5>>(run, k, scratch, outputs, stats, budget);
    case Method::rn4: return advance_with<TreeStepLoops<Method::rn4>>(run, k, scratch, outputs, stats, budget);
    case Method::ros2w: return advance_with<TreeStepLoops<Method::ros2w>>(run, k, scratch, outputs, stats, budget);
    case Method::implicit:
      return advance_with<TreeStepLoops<Method::implicit>>(run, k, scratch, outputs, stats, budget);
  }
  return true;
}

// Runs `run` from zeroed scratch with its method's tree copy over constants k, 7 attempts a call, into outputs;
// returns the calls that stopped short of the end.
template <class K>
int run_tree_copy(const InstanceRun& run, const K& k, std::vector<double>& scratch, std::vector<double>& outputs,
                  IntegratorStats& stats) {
  std::fill(scratch.begin(), scratch.end(), 0.0);
  begin_instance(scratch.data());
  int calls = 0;
  while (!advance_tree_copy(run.spec.method, run, k, scratch, outputs.data(), stats, 7) && ++calls < 100000) {
  }
  return calls;
}

// Leaving the other methods and the loop solver out of the compiled code changes nothing a run computes: a tree
// model's instance advanced by its method's own copy, a few attempts a call, gives the generic copy's outputs,
// counters and status bit for bit. A copy given a run it does not hold (another method, a model with loops)
// finishes the instance on its first call as non_finite, having written no output.
TEST(ResumableInstance, EachMethodsTreeCopyOfTheStepLoopsReproducesTheGenericOneBitForBit) {
  int tree_runs = 0, loop_runs = 0, axis_runs = 0;
  for_every_instance(1, 0.6, [&](const InstanceRun& run) {
    const bool trees = run.model->constraints.m == 0;
    const double* constants = run.constants.data();
    std::vector<double> scratch(run.scratch_doubles);
    std::vector<double> generic(run.n_values, quiet_nan()), own(run.n_values, quiet_nan());
    IntegratorStats generic_stats, own_stats;
    const InstanceStatus generic_status =
        simulate_instance(*run.model, constants, run.q.data(), run.v.data(), run.spec, run.times->data(),
                          run.n_times(), scratch.data(), generic.data(), generic_stats);
    const int calls = run_tree_copy(run, constants, scratch, own, own_stats);
    if (trees) {
      ++tree_runs;
      EXPECT_EQ(instance_progress(scratch.data()).status, generic_status) << run.where;
      expect_same_stats(own_stats, generic_stats, run.where);
      for (size_t j = 0; j < run.n_values; ++j)
        ASSERT_TRUE(same_bits(own[j], generic[j])) << run.where << " value " << j << ": " << own[j] << " vs " << generic[j];
    } else {
      ++loop_runs;
      EXPECT_EQ(calls, 0) << run.where;
      EXPECT_EQ(instance_progress(scratch.data()).status, InstanceStatus::non_finite) << run.where;
      EXPECT_EQ(own_stats.steps + own_stats.rejected, 0) << run.where;
      for (double value : own) ASSERT_TRUE(std::isnan(value)) << run.where;
    }
    // The code of a model class (dynamics/model_class.hpp) on a model of that class: the same again.
    if (trees && model_in_class<AxisJointsClass>(*run.model)) {
      ++axis_runs;
      std::vector<double> classed(run.n_values, quiet_nan());
      IntegratorStats classed_stats;
      run_tree_copy(run, ClassConstants<AxisJointsClass, const double*>{constants}, scratch, classed, classed_stats);
      EXPECT_EQ(instance_progress(scratch.data()).status, generic_status) << run.where;
      expect_same_stats(classed_stats, generic_stats, run.where);
      for (size_t j = 0; j < run.n_values; ++j)
        ASSERT_TRUE(same_bits(classed[j], generic[j]))
            << run.where << " (axis joints) value " << j << ": " << classed[j] << " vs " << generic[j];
    }
    // Another method's copy.
    const Method other = run.spec.method == Method::dopri5 ? Method::rn4 : Method::dopri5;
    std::fill(scratch.begin(), scratch.end(), 0.0);
    begin_instance(scratch.data());
    std::vector<double> none(run.n_values, quiet_nan());
    IntegratorStats none_stats;
    EXPECT_TRUE(advance_tree_copy(other, run, constants, scratch, none.data(), none_stats, -1)) << run.where;
    EXPECT_EQ(instance_progress(scratch.data()).status, InstanceStatus::non_finite) << run.where;
    EXPECT_EQ(none_stats.steps + none_stats.rejected, 0) << run.where;
  });
  EXPECT_GT(tree_runs, 20);
  EXPECT_GT(loop_runs, 4);
  EXPECT_GE(axis_runs, 4 * 5);  // quarter cars and pendulums, every method
}

}  // namespace resumable_instance_test
}  // namespace myriad
