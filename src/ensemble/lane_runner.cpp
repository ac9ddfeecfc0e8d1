#include "ensemble/lane_runner.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

#include "dynamics/lane_tree_ode.hpp"
#include "ensemble/cpu_runner.hpp"
#include "ensemble/ensemble_kpis.hpp"
#include "ensemble/instance_blocks.hpp"
#include "ensemble/simulate_instance.hpp"

namespace myriad {

bool valid_lane_count(int lanes) { return lanes == 1 || lanes == 2 || lanes == 4 || lanes == 8; }

const char* lane_instruction_set() {
#if defined(__AVX2__)
  return "AVX2";
#else
  return "SSE2";
#endif
}

bool lanes_supported(const CompiledModel& model, const RunSpec& spec) {
  if (spec.method != Method::dopri5 || model.constraints.m > 0 || model.nv <= 0) return false;
  for (int e = 0; e < model.n_forces; ++e) {
    const int type = model.forces[e].type;
    if (type == 3 || type == 4) return false;  // bushing, tire: no lane form (force_elements.hpp)
  }
  return true;
}

namespace {

using Clock = std::chrono::steady_clock;

// One lane: the instance in it (-1: none) with its own scratch, constants and initial state.
struct LaneSlot {
  long long instance = -1;
  std::vector<double> scratch, constants, q, v, rows;
  double* outputs = nullptr;
  double* kpi_state = nullptr;
  Clock::time_point start;
};

// A thread's lanes and the arrays of their joint step.
template <int W>
struct LaneGroup {
  const CompiledModel& model;
  InstanceScratchLayout layout;
  int n;  // state dimension, 2 nv
  LaneSlot slots[W];
  std::vector<Lanes<W>> columns, q, state, tree;
  std::vector<double> y_lane, q_lane, rate_lane;
  LaneTreeOde<W> ode;

  LaneGroup(const CompiledModel& m, const RunSpec& spec)
      : model(m), layout(instance_scratch_layout(m, spec.method)), n(2 * m.nv) {
    std::size_t tree_bytes = 0;
    carve_tree_workspace<Lanes<W>>(model, nullptr, &tree_bytes);
    columns.resize(static_cast<std::size_t>(model.n_constants) + 1);
    q.resize(static_cast<std::size_t>(model.nq) + 1);
    state.resize(static_cast<std::size_t>(11 * n));  // t-less step arrays: y, k1, y_new, error, k7, work (6n)
    tree.resize(tree_bytes / sizeof(Lanes<W>) + 2);
    y_lane.resize(static_cast<std::size_t>(n) + 1);
    q_lane.resize(static_cast<std::size_t>(model.nq) + 1);
    rate_lane.resize(static_cast<std::size_t>(model.nv) + 1);
    ode.model = &model;
    ode.constants.columns = columns.data();
    ode.y_lane = y_lane.data();
    ode.q_lane = q_lane.data();
    ode.rate_lane = rate_lane.data();
    ode.q = q.data();
    ode.w = carve_tree_workspace<Lanes<W>>(model, tree.data(), nullptr);
    for (LaneSlot& s : slots) {
      s.scratch.assign(layout.bytes / sizeof(double) + 1, 0.0);
      s.constants.assign(static_cast<std::size_t>(model.n_constants) + 1, 0.0);
      s.q.assign(static_cast<std::size_t>(model.nq) + 1, 0.0);
      s.v.assign(static_cast<std::size_t>(model.nv) + 1, 0.0);
    }
  }

  IntegrationProgress& integration(int j) { return instance_progress(slots[j].scratch.data()).integration; }

  // Lane j computes with lane `from`'s constants, chart base and state (from == j: its own).
  void load_lane(int j, int from) {
    LaneSlot& s = slots[from];
    for (int c = 0; c < model.n_constants; ++c) columns[c].set(j, s.constants[c]);
    ode.constants.rows[j] = s.constants.data();
    ode.base_q[j] = s.scratch.data() + layout.base_q;
  }

  // Takes the pending DOPRI5 steps of the lanes in `pending` (count > 0) together; lanes without one repeat the
  // first pending lane's step and their results are dropped. A group whose evaluation fails anywhere takes each
  // pending step again alone, so a failing instance gets its scalar outcome and its lane mates theirs.
  void take_steps(const int* pending, int count, bool* is_pending, std::vector<IntegratorStats>& stats) {
    Lanes<W>* y = state.data();
    Lanes<W>* k1 = y + n;
    Lanes<W>* y_new = k1 + n;
    Lanes<W>* error = y_new + n;
    Lanes<W>* k7 = error + n;
    Lanes<W>* work = k7 + n;
    Lanes<W> t, h;
    for (int j = 0; j < W; ++j) {
      const int from = is_pending[j] ? j : pending[0];
      if (!is_pending[j]) load_lane(j, from);
      const IntegrationProgress& p = integration(from);
      t.set(j, p.t);
      h.set(j, p.h_try);
      for (int i = 0; i < n; ++i) {
        y[i].set(j, p.step_y[i]);
        k1[i].set(j, p.step_k1[i]);
      }
    }
    IntegratorStats group_stats;
    const bool evaluated = dopri5_step(ode, t, h, y, k1, y_new, error, k7, work, group_stats);
    for (int c = 0; c < count; ++c) {
      const int j = pending[c];
      IntegrationProgress& p = integration(j);
      IntegratorStats& own = stats[static_cast<std::size_t>(slots[j].instance)];
      if (evaluated) {
        for (int i = 0; i < n; ++i) {
          p.step_y_new[i] = y_new[i][j];
          p.step_error[i] = error[i][j];
          p.step_k7[i] = k7[i][j];
        }
        for (int i = 0; i < 6 * n; ++i) p.step_work[i] = work[i][j];
        own.function_evaluations += 6;
      } else {
        TreeOde<const double*> alone =
            tree_instance_ode(model, static_cast<const double*>(slots[j].constants.data()),
                              slots[j].scratch.data(), layout);
        p.step_evaluated = dopri5_step(alone, p.t, p.h_try, p.step_y, p.step_k1, p.step_y_new, p.step_error,
                                       p.step_k7, p.step_work, own);
        continue;
      }
      p.step_evaluated = true;
    }
  }
};

template <int W>
void run_lane_worker(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                     const std::vector<double>& times, InstanceBlocks& blocks, EnsembleResult& result,
                     RunProgress* progress) {
  LaneGroup<W> group(model, spec);
  const int n_times = static_cast<int>(times.size());
  const std::size_t per_instance = times.size() * static_cast<std::size_t>(model.n_outputs);
  const bool series = !result.values.empty() || per_instance == 0;
  const std::size_t kpi_doubles = static_cast<std::size_t>(model.n_kpis) * kKpiStateDoubles;
  long long next = 0, end = 0;  // the instances of this thread's current block not yet in a lane
  bool exhausted = false;
  const auto next_instance = [&](long long& i) {
    if (next == end) {
      long long begin = 0, stop = 0;
      if (exhausted || (progress && progress->cancelled()) || !blocks.claim(begin, stop)) {
        exhausted = true;
        return false;
      }
      next = begin;
      end = stop;
    }
    i = next++;
    return true;
  };
  const auto start_instance = [&](int j, long long i) {
    LaneSlot& s = group.slots[j];
    s.instance = i;
    s.start = Clock::now();
    ensemble.gather_constants(static_cast<int>(i), s.constants.data());
    ensemble.gather_initial_state(static_cast<int>(i), s.q.data(), s.v.data());
    if (!series) s.rows.resize(per_instance);
    s.outputs = series ? result.values.data() + per_instance * static_cast<std::size_t>(i) : s.rows.data();
    s.kpi_state = kpi_doubles > 0 ? result.kpi_state.data() + kpi_doubles * static_cast<std::size_t>(i) : nullptr;
    begin_instance(s.scratch.data());
    group.integration(j).external_step = true;
    group.load_lane(j, j);
  };

  for (;;) {
    int pending[W];
    bool is_pending[W];
    int count = 0;
    for (int j = 0; j < W; ++j) {
      LaneSlot& s = group.slots[j];
      is_pending[j] = false;
      for (;;) {
        if (s.instance < 0) {
          long long i = 0;
          if (!next_instance(i)) break;
          start_instance(j, i);
        }
        const std::size_t index = static_cast<std::size_t>(s.instance);
        const double* k = s.constants.data();
        if (!advance_instance(model, k, s.q.data(), s.v.data(), spec, times.data(), n_times, s.scratch.data(),
                              s.outputs, result.stats[index], -1, s.kpi_state)) {
          if (!group.integration(j).step_pending())
            throw std::logic_error("lane runner: an instance stopped without a step to take");
          pending[count++] = j;
          is_pending[j] = true;
          break;
        }
        result.status[index] = instance_progress(s.scratch.data()).status;
        result.wall_seconds[index] = std::chrono::duration<double>(Clock::now() - s.start).count();
        s.instance = -1;
        if (progress) progress->finished(1);
      }
    }
    if (count == 0) return;
    group.take_steps(pending, count, is_pending, result.stats);
  }
}

}  // namespace

EnsembleResult run_ensemble_lanes(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                  const std::vector<double>& output_times, int threads, int lanes,
                                  RunProgress* progress, bool keep_series) {
  if (!lanes_supported(model, spec))
    throw std::invalid_argument("lanes: this model and method run one instance at a time");
  const int n = ensemble.n_instances;
  EnsembleResult result = make_ensemble_result(n, output_times, model.n_outputs, keep_series);
  result.kpi_state.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(model.n_kpis) * kKpiStateDoubles,
                          0.0);
  threads = resolve_thread_count(threads, n);
  const auto start = Clock::now();
  InstanceBlocks blocks(n, ensemble_block_size(n, threads));
  const auto worker = [&] {
    switch (lanes) {
      case 2: return run_lane_worker<2>(model, ensemble, spec, output_times, blocks, result, progress);
      case 4: return run_lane_worker<4>(model, ensemble, spec, output_times, blocks, result, progress);
      case 8: return run_lane_worker<8>(model, ensemble, spec, output_times, blocks, result, progress);
      default: throw std::invalid_argument("lanes: " + std::to_string(lanes) + " is not 2, 4 or 8");
    }
  };
  if (lanes != 2 && lanes != 4 && lanes != 8)
    throw std::invalid_argument("lanes: " + std::to_string(lanes) + " is not 1, 2, 4 or 8");
  result.threads = run_on_threads(threads, worker);
  result.total_wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  finish_kpis(model, result);
  return result;
}

}  // namespace myriad
