#include "ensemble/staged_runner.hpp"

#include <algorithm>
#include <chrono>

#include "ensemble/ensemble_kpis.hpp"
#include "ensemble/instance_blocks.hpp"
#include "ensemble/staged_cadence.hpp"
#include "linalg/dense_lu.hpp"

namespace myriad {

namespace {

using Clock = std::chrono::steady_clock;

// Instances per group that goes through the cycle together (the GPU's chunk, scaled down).
constexpr long long kStagedGroup = 64;

// One group of instances [begin, end) through the cycle until all have finished.
void run_group(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
               const std::vector<double>& times, long long begin, long long end, size_t scratch_doubles,
               EnsembleResult& result) {
  const long long count = end - begin;
  const int n_times = static_cast<int>(times.size());
  const size_t per_instance = times.size() * static_cast<size_t>(model.n_outputs);
  std::vector<double> scratch(scratch_doubles * static_cast<size_t>(count));
  std::vector<double> constants(static_cast<size_t>(model.n_constants) * count + 1);
  std::vector<double> q(static_cast<size_t>(model.nq) * count + 1), v(static_cast<size_t>(model.nv) * count + 1);
  const int ndof = iteration_matrix_order(model);
  std::vector<int> info(static_cast<size_t>(count), 0);
  for (long long j = 0; j < count; ++j) {
    const int i = static_cast<int>(begin + j);
    ensemble.gather_constants(i, constants.data() + j * model.n_constants);
    ensemble.gather_initial_state(i, q.data() + j * model.nq, v.data() + j * model.nv);
    begin_instance_external_lu(scratch.data() + j * scratch_doubles);
  }
  LinearRequest served = LinearRequest::none;
  for (long long launch = 0;; ++launch) {
    bool all_finished = true;
    for (long long j = 0; j < count; ++j) {
      const size_t i = static_cast<size_t>(begin + j);
      const double* k = constants.data() + j * model.n_constants;
      all_finished &= staged_advance_instance(model, k, q.data() + j * model.nq, v.data() + j * model.nv, spec,
                                              times.data(), n_times, scratch.data() + j * scratch_doubles,
                                              result.values.data() + per_instance * i, result.stats[i], served,
                                              info[static_cast<size_t>(j)]);
    }
    if (all_finished) break;
    // The batched operation, over the instances asking for it.
    served = staged_operation(spec.method, launch);
    if (served == LinearRequest::none) continue;
    for (long long j = 0; j < count; ++j) {
      void* slot = scratch.data() + j * scratch_doubles;
      if (staged_request(slot) != served) continue;
      IntegrationProgress& p = instance_progress(slot).integration;
      if (served == LinearRequest::factor)
        info[static_cast<size_t>(j)] = lu_factor(ndof, p.factor_matrix, p.factor_pivots) ? 0 : 1;
      else
        lu_solve(ndof, p.factor_matrix, p.factor_pivots, p.solve_vector);
    }
  }
  for (long long j = 0; j < count; ++j)
    result.status[static_cast<size_t>(begin + j)] = instance_progress(scratch.data() + j * scratch_doubles).status;
}

}  // namespace

EnsembleResult run_ensemble_staged_cpu(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                       const std::vector<double>& output_times, int threads) {
  const int n = ensemble.n_instances;
  EnsembleResult result = make_ensemble_result(n, output_times, model.n_outputs);
  result.threads = resolve_thread_count(threads, n);
  const size_t scratch_doubles =
      instance_scratch_layout(model, spec.method).bytes / sizeof(double) + 8;
  const auto start = Clock::now();
  const long long groups = (n + kStagedGroup - 1) / kStagedGroup;
  InstanceBlocks blocks(groups, 1);
  run_on_threads(result.threads, [&] {
    long long first = 0, last = 0;
    while (blocks.claim(first, last))
      for (long long g = first; g < last; ++g)
        run_group(model, ensemble, spec, output_times, g * kStagedGroup, std::min<long long>(n, (g + 1) * kStagedGroup),
                  scratch_doubles, result);
  });
  result.total_wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  finish_kpis(model, result);  // replayed from the kept rows
  return result;
}

}  // namespace myriad
