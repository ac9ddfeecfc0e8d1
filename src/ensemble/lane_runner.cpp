#include "ensemble/lane_runner.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "dynamics/lane_tree_ode.hpp"
#include "dynamics/lane_tree_second_order.hpp"
#include "ensemble/cpu_runner.hpp"
#include "ensemble/ensemble_kpis.hpp"
#include "ensemble/instance_blocks.hpp"
#include "ensemble/simulate_instance.hpp"
#include "ensemble/step_instance.hpp"
#include "linalg/lanes_dense_lu.hpp"

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
  if (model.constraints.m > 0 || model.nv <= 0) return false;
  if (spec.method != Method::dopri5 && spec.method != Method::rk4 && spec.method != Method::rn4) return false;
  for (int e = 0; e < model.n_forces; ++e) {
    const int type = model.forces[e].type;
    if (type == 3 || type == 4) return false;  // bushing, tire: no lane form (force_elements.hpp)
  }
  return true;
}

namespace {

using Clock = std::chrono::steady_clock;

// One lane: the instance in it (-1: none), its constants, scratch (instance_scratch_layout bytes) and counters.
struct LaneSlot {
  long long instance = -1;
  const double* constants = nullptr;
  double* scratch = nullptr;
  IntegratorStats* stats = nullptr;
};

// A thread's lanes and the arrays of their joint step.
template <int W>
struct LaneGroup {
  const CompiledModel& model;
  Method method;  // dopri5, rk4 or rn4
  InstanceScratchLayout layout;
  int n;  // state dimension: 2 nv (DOPRI5, RK4), nv (RN4's positions and velocities each)
  LaneSlot slots[W];
  int loaded[W];  // whose constants each lane holds (load_lane), -1: none
  std::vector<Lanes<W>> columns, q, state, tree, second_order_buffer;
  std::vector<double> y_lane, q_lane, rate_lane;
  LaneTreeOde<W> ode;
  LaneTreeSecondOrder<W> second_order;  // RN4's system
  // Each lane's instance as advance_instance sees it, built once per instance (begin) rather than every call.
  TreeInstanceViews<const double*> views[W];

  LaneGroup(const CompiledModel& m, const RunSpec& spec)
      : model(m),
        method(spec.method),
        layout(instance_scratch_layout(m, spec.method)),
        n(spec.method == Method::rn4 ? m.nv : 2 * m.nv) {
    for (int& from : loaded) from = -1;
    std::size_t tree_bytes = 0;
    carve_tree_workspace<Lanes<W>>(model, nullptr, &tree_bytes);
    columns.resize(static_cast<std::size_t>(model.n_constants) + 1);
    q.resize(static_cast<std::size_t>(model.nq) + 1);
    // The step's arrays: DOPRI5 / RK4's y, k1, y_new, error, k7 and work (6n); RN4's x, w, linearization, stage
    // work, (x_new, w_new) and (x_error, w_error).
    state.resize(method == Method::rn4 ? static_cast<std::size_t>(2 * n + rn4_linearization_size(n) +
                                                                   rn4_stage_workspace_size(n) + 4 * n)
                                       : static_cast<std::size_t>(11 * n));
    tree.resize(tree_bytes / sizeof(Lanes<W>) + 2);
    if (method == Method::rn4) {
      second_order_buffer.resize(carve_lane_tree_second_order(model, second_order, nullptr) / sizeof(Lanes<W>) + 2);
      carve_lane_tree_second_order(model, second_order, second_order_buffer.data());
      second_order.constants.columns = columns.data();
    }
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
  }

  IntegrationProgress& integration(int j) { return instance_progress(slots[j].scratch).integration; }

  // Lane j computes with lane `from`'s constants, chart base and state (from == j: its own).
  void load_lane(int j, int from) {
    if (loaded[j] == from) return;
    const LaneSlot& s = slots[from];
    for (int c = 0; c < model.n_constants; ++c) columns[c].set(j, s.constants[c]);
    ode.constants.rows[j] = s.constants;
    second_order.constants.rows[j] = s.constants;
    ode.base_q[j] = s.scratch + layout.base_q;
    second_order.base_q[j] = s.scratch + layout.base_q;
    loaded[j] = from;
  }

  // Puts an instance into lane j: its scratch readied for advance_instance with the steps handed over.
  void begin(int j, long long instance, const double* constants, double* scratch, IntegratorStats* stats) {
    LaneSlot& s = slots[j];
    s.instance = instance;
    s.constants = constants;
    s.scratch = scratch;
    s.stats = stats;
    begin_instance(scratch);
    views[j] = tree_instance_views(model, constants, scratch, method);
    integration(j).external_step = true;
    for (int& from : loaded)
      if (from == j) from = -1;  // lane j's constants are the new instance's now
    load_lane(j, j);
  }

  // advance_instance (without a budget) for lane j's instance, through the views begin() built: lanes take tree
  // models only. Returns whether the instance has finished.
  bool advance(int j, const double* q_init, const double* v_init, const RunSpec& run, const double* times,
               int n_times, double* outputs, double* kpi_state) {
    const LaneSlot& s = slots[j];
    InstanceProgress& progress = instance_progress(s.scratch);
    if (progress.finished) return true;
    progress.integration.budget = -1;
    advance_tree_instance(model, s.constants, q_init, v_init, run, times, n_times, s.scratch, views[j], outputs,
                          *s.stats, progress, kpi_state);
    return progress.finished;
  }

  // Takes the pending steps (DOPRI5's dopri5_step, RK4's rk4_step_to_end) of the lanes in `pending` (count > 0)
  // together; lanes without one repeat the first pending lane's step and their results are dropped. A group whose
  // evaluation fails anywhere takes each pending step again alone, so a failing instance gets its scalar outcome
  // and its lane mates theirs. Sets waiting[j] for a pending lane whose piece is left for the next round (RN4).
  void take_steps(const int* pending, int count, const bool* is_pending, bool* waiting) {
    for (int j = 0; j < W; ++j) waiting[j] = false;
    if (method == Method::rn4) {
      take_rn4_pieces(pending, count, waiting);
      return;
    }
    const bool dopri5 = method == Method::dopri5;
    Lanes<W>* y = state.data();
    Lanes<W>* k1 = y + n;
    Lanes<W>* y_new = k1 + n;
    Lanes<W>* error = y_new + n;
    Lanes<W>* k7 = error + n;
    Lanes<W>* work = k7 + n;
    const int work_size = dopri5 ? dopri5_step_workspace_size(n) : rk4_step_workspace_size(n);
    Lanes<W> t, h, t_end;
    for (int j = 0; j < W; ++j) {
      const int from = is_pending[j] ? j : pending[0];
      if (!is_pending[j]) load_lane(j, from);
      const IntegrationProgress& p = integration(from);
      t.set(j, p.t);
      h.set(j, p.h_try);
      t_end.set(j, p.step_t_end);
      for (int i = 0; i < n; ++i) {
        y[i].set(j, p.step_y[i]);
        k1[i].set(j, p.step_k1[i]);
      }
    }
    IntegratorStats group_stats;
    const bool evaluated = dopri5 ? dopri5_step(ode, t, h, y, k1, y_new, error, k7, work, group_stats)
                                  : rk4_step_to_end(ode, t, h, t_end, y, k1, y_new, k7, work, group_stats);
    for (int c = 0; c < count; ++c) {
      const int j = pending[c];
      IntegrationProgress& p = integration(j);
      if (!evaluated) {
        TreeOde<const double*> alone = tree_instance_ode(model, slots[j].constants, slots[j].scratch, layout);
        p.step_evaluated = dopri5 ? dopri5_step(alone, p.t, p.h_try, p.step_y, p.step_k1, p.step_y_new,
                                                p.step_error, p.step_k7, p.step_work, *slots[j].stats)
                                  : rk4_step_to_end(alone, p.t, p.h_try, p.step_t_end, p.step_y, p.step_k1,
                                                    p.step_y_new, p.step_k7, p.step_work, *slots[j].stats);
        continue;
      }
      for (int i = 0; i < n; ++i) {
        p.step_y_new[i] = y_new[i][j];
        p.step_k7[i] = k7[i][j];
        if (dopri5) p.step_error[i] = error[i][j];
      }
      for (int i = 0; i < work_size; ++i) p.step_work[i] = work[i][j];
      slots[j].stats->function_evaluations += group_stats.function_evaluations;
      p.step_evaluated = true;
    }
  }

  // RN4's pending pieces (IntegrationProgress::Handover): the linearizations together when any lane has one, the
  // lanes with stages pending then wait for the next round; else the stages together. Why: an instance's pieces
  // alternate (linearize, stages) but for a rejected attempt (stages again) or a new instance (linearize first), and
  // taking both kinds each round would keep lanes out of step for good, each round two calls at part width (the
  // stiff pendulum at rtol 1e-6, 2.5 rejections per instance: 1.98 us per step on 4 lanes against 1.30 us at 1e-7,
  // where the lanes stay in step). After the linearizations every lane has stages pending: one round at part width
  // puts them back in step. Which round a piece is taken in never changes its bits.
  void take_rn4_pieces(const int* pending, int count, bool* waiting) {
    int stages[W], linearizations[W];
    int n_stages = 0, n_linearizations = 0;
    for (int c = 0; c < count; ++c) {
      const int j = pending[c];
      if (integration(j).handover == IntegrationProgress::Handover::rn4_stages)
        stages[n_stages++] = j;
      else
        linearizations[n_linearizations++] = j;
    }
    if (n_linearizations == 0) {
      take_rn4(stages, n_stages, true);
      return;
    }
    take_rn4(linearizations, n_linearizations, false);
    for (int c = 0; c < n_stages; ++c) waiting[stages[c]] = true;
  }

  // The pieces of the lanes in `list` (count > 0), all stages or all linearizations, taken together; other lanes
  // repeat the first listed lane's piece and their results are dropped. A group that fails anywhere takes each
  // piece again alone with the scalar code, so a failing instance gets its scalar outcome.
  void take_rn4(const int* list, int count, bool stages) {
    bool listed[W] = {};
    for (int c = 0; c < count; ++c) listed[list[c]] = true;
    const int lin_size = rn4_linearization_size(n);
    Lanes<W>* x = state.data();
    Lanes<W>* w = x + n;
    Lanes<W>* lin_lanes = w + n;
    Lanes<W>* stage_work = lin_lanes + lin_size;
    Lanes<W>* y_new = stage_work + rn4_stage_workspace_size(n);
    Lanes<W>* error = y_new + 2 * n;
    const Rn4LinearizationOf<Lanes<W>> lin = rn4_linearization_view(n, lin_lanes);
    Lanes<W> t;
    Lanes<W> h;
    for (int j = 0; j < W; ++j) {
      const int from = listed[j] ? j : list[0];
      // A lane that only fills in keeps whatever instance's constants it holds (its result is dropped): reloading
      // them for each kind of piece, and back, is what it would cost when the lanes' pieces differ.
      if (listed[j] || loaded[j] < 0) load_lane(j, from);
      const IntegrationProgress& p = integration(from);
      t.set(j, stages ? p.t : p.step_t_end);
      h.set(j, p.h_try);
      for (int i = 0; i < n; ++i) {
        x[i].set(j, p.step_y[i]);
        w[i].set(j, p.step_w[i]);
      }
      if (stages)
        for (int i = 0; i < lin_size; ++i) lin_lanes[i].set(j, p.step_work[i]);
    }
    IntegratorStats group_stats;
    const bool done =
        stages ? rn4_stages(second_order, t, h, x, w, lin, y_new, y_new + n, error, error + n, stage_work,
                            group_stats) == InstanceStatus::ok
               : rn4_linearize(second_order, t, x, w, lin, stage_work, group_stats);
    for (int c = 0; c < count; ++c) {
      const int j = list[c];
      IntegrationProgress& p = integration(j);
      IntegratorStats& stats = *slots[j].stats;
      if (!done) {
        TreeSecondOrder<const double*> alone =
            tree_instance_second_order(model, slots[j].constants, slots[j].scratch, layout);
        const Rn4Linearization own = rn4_linearization_view(n, p.step_work);
        double* own_stage_work = p.step_work + lin_size;
        if (stages)
          p.step_status = rn4_stages(alone, p.t, p.h_try, p.step_y, p.step_w, own, p.step_y_new,
                                     p.step_y_new + n, p.step_error, p.step_error + n, own_stage_work, stats);
        else
          p.step_evaluated = rn4_linearize(alone, p.step_t_end, p.step_y, p.step_w, own, own_stage_work, stats);
        continue;
      }
      if (stages) {
        for (int i = 0; i < 2 * n; ++i) {
          p.step_y_new[i] = y_new[i][j];
          p.step_error[i] = error[i][j];
        }
        p.step_status = InstanceStatus::ok;
      } else {
        for (int i = 0; i < lin_size; ++i) p.step_work[i] = lin_lanes[i][j];
        p.step_evaluated = true;
      }
      stats.function_evaluations += group_stats.function_evaluations;
      stats.jacobian_evaluations += group_stats.jacobian_evaluations;
      stats.lu_factorizations += group_stats.lu_factorizations;
    }
  }
};

// Runs instances through a thread's W lanes until none is left: fill(j) puts the next instance into an empty lane
// j with group.begin (false: there is none), advance(j) calls advance_instance for lane j's instance and returns
// whether it finished, finish(j) takes a finished one out. Between rounds the pending steps go together.
template <int W, class Fill, class Advance, class Finish>
void drive_lanes(LaneGroup<W>& group, Fill&& fill, Advance&& advance, Finish&& finish) {
  // The constants a lane held in an earlier call may be gone (a stepper's caller may have replaced its table).
  for (int& from : group.loaded) from = -1;
  bool waiting[W] = {};  // lanes whose pending piece the last round left (LaneGroup::take_steps)
  for (;;) {
    int pending[W];
    bool is_pending[W];
    int count = 0;
    for (int j = 0; j < W; ++j) {
      LaneSlot& s = group.slots[j];
      is_pending[j] = waiting[j];
      if (waiting[j]) {
        pending[count++] = j;
        continue;
      }
      for (;;) {
        if (s.instance < 0 && !fill(j)) break;
        if (!advance(j)) {
          if (!group.integration(j).step_pending())
            throw std::logic_error("lane runner: an instance stopped without a step to take");
          pending[count++] = j;
          is_pending[j] = true;
          break;
        }
        finish(j);
        s.instance = -1;
      }
    }
    if (count == 0) return;
    group.take_steps(pending, count, is_pending, waiting);
  }
}

template <int W>
void run_lane_worker(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                     const std::vector<double>& times, InstanceBlocks& blocks, EnsembleResult& result,
                     RunProgress* progress) {
  LaneGroup<W> group(model, spec);
  const int n_times = static_cast<int>(times.size());
  const std::size_t per_instance = times.size() * static_cast<std::size_t>(model.n_outputs);
  const bool series = !result.values.empty() || per_instance == 0;
  const std::size_t kpi_doubles = static_cast<std::size_t>(model.n_kpis) * kKpiStateDoubles;
  // Each lane's own constants, initial state, scratch and (without kept series) output rows.
  struct Own {
    std::vector<double> constants, q, v, scratch, rows;
    double* outputs = nullptr;
    double* kpi_state = nullptr;
    Clock::time_point start;
  } own[W];
  for (Own& o : own) {
    o.constants.assign(static_cast<std::size_t>(model.n_constants) + 1, 0.0);
    o.q.assign(static_cast<std::size_t>(model.nq) + 1, 0.0);
    o.v.assign(static_cast<std::size_t>(model.nv) + 1, 0.0);
    o.scratch.assign(group.layout.bytes / sizeof(double) + 1, 0.0);
    if (!series) o.rows.assign(per_instance, 0.0);
  }
  long long next = 0, end = 0;  // the instances of this thread's current block not yet in a lane
  bool exhausted = false;
  const auto fill = [&](int j) {
    if (next == end) {
      long long begin = 0, stop = 0;
      if (exhausted || (progress && progress->cancelled()) || !blocks.claim(begin, stop)) {
        exhausted = true;
        return false;
      }
      next = begin;
      end = stop;
    }
    const long long i = next++;
    const std::size_t index = static_cast<std::size_t>(i);
    Own& o = own[j];
    o.start = Clock::now();
    ensemble.gather_constants(static_cast<int>(i), o.constants.data());
    ensemble.gather_initial_state(static_cast<int>(i), o.q.data(), o.v.data());
    o.outputs = series ? result.values.data() + per_instance * index : o.rows.data();
    o.kpi_state = kpi_doubles > 0 ? result.kpi_state.data() + kpi_doubles * index : nullptr;
    group.begin(j, i, o.constants.data(), o.scratch.data(), &result.stats[index]);
    return true;
  };
  const auto advance = [&](int j) {
    return group.advance(j, own[j].q.data(), own[j].v.data(), spec, times.data(), n_times, own[j].outputs,
                         own[j].kpi_state);
  };
  const auto finish = [&](int j) {
    const std::size_t index = static_cast<std::size_t>(group.slots[j].instance);
    result.status[index] = instance_progress(group.slots[j].scratch).status;
    result.wall_seconds[index] = std::chrono::duration<double>(Clock::now() - own[j].start).count();
    if (progress) progress->finished(1);
  };
  drive_lanes(group, fill, advance, finish);
}

// step_instances_in_lanes with W lanes: the group and each lane's scratch, counters, run settings and end time.
template <int W>
struct LaneStepper {
  LaneGroup<W> group;
  RunSpec spec;
  std::size_t scratch_doubles;
  std::vector<double> scratch;
  IntegratorStats stats[W];
  RunSpec run[W];
  double t_end[W];

  LaneStepper(const CompiledModel& model, const RunSpec& s)
      : group(model, s),
        spec(s),
        scratch_doubles(step_scratch_bytes(model, s.method) / sizeof(double) + 1),
        scratch(W * scratch_doubles, 0.0) {}

  void step(double dt, long long begin, long long end, const double* constants, int n_constants, double* t,
            double* q, double* v, int* status) {
    const CompiledModel& model = group.model;
    long long next = begin;
    const auto fill = [&](int j) {
      while (next < end && status[next] != 0) ++next;
      if (next >= end) return false;
      const long long i = next++;
      run[j] = spec;
      run[j].t0 = t[i];
      t_end[j] = t[i] + dt;
      stats[j] = IntegratorStats{};
      group.begin(j, i, constants + i * n_constants, scratch.data() + j * scratch_doubles, &stats[j]);
      return true;
    };
    const auto advance = [&](int j) {
      const LaneSlot& s = group.slots[j];
      const long long i = s.instance;
      double* signals = s.scratch + (group.layout.bytes + 63) / 64 * 64 / sizeof(double);
      return group.advance(j, q + i * model.nq, v + i * model.nv, run[j], &t_end[j], 1, signals, nullptr);
    };
    const auto finish = [&](int j) {
      const LaneSlot& s = group.slots[j];
      const long long i = s.instance;
      status[i] = static_cast<int>(finish_step_instance(model, s.constants, spec.method, t[i], t_end[j],
                                                        s.scratch, q + i * model.nq, v + i * model.nv));
    };
    drive_lanes(group, fill, advance, finish);
  }
};

}  // namespace

struct LaneStepWorkspace {
  std::variant<LaneStepper<2>, LaneStepper<4>, LaneStepper<8>> stepper;
  template <int W>
  LaneStepWorkspace(std::integral_constant<int, W>, const CompiledModel& model, const RunSpec& spec)
      : stepper(std::in_place_type<LaneStepper<W>>, model, spec) {}
};

void LaneStepWorkspaceDeleter::operator()(LaneStepWorkspace* workspace) const { delete workspace; }

LaneStepWorkspacePtr make_lane_step_workspace(const CompiledModel& model, const RunSpec& spec, int lanes) {
  if (!lanes_supported(model, spec))
    throw std::invalid_argument("lanes: this model and method step one instance at a time");
  switch (lanes) {
    case 2: return LaneStepWorkspacePtr(new LaneStepWorkspace(std::integral_constant<int, 2>{}, model, spec));
    case 4: return LaneStepWorkspacePtr(new LaneStepWorkspace(std::integral_constant<int, 4>{}, model, spec));
    case 8: return LaneStepWorkspacePtr(new LaneStepWorkspace(std::integral_constant<int, 8>{}, model, spec));
    default: throw std::invalid_argument("lanes: " + std::to_string(lanes) + " is not 2, 4 or 8");
  }
}

void step_instances_in_lanes(LaneStepWorkspace& workspace, double dt, long long begin, long long end,
                             const double* constants, int n_constants, double* t, double* q, double* v,
                             int* status) {
  std::visit([&](auto& stepper) { stepper.step(dt, begin, end, constants, n_constants, t, q, v, status); },
             workspace.stepper);
}

EnsembleResult run_ensemble_lanes(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                  const std::vector<double>& output_times, int threads, int lanes,
                                  RunProgress* progress, bool keep_series) {
  if (!lanes_supported(model, spec))
    throw std::invalid_argument("lanes: this model and method run one instance at a time");
  using Worker = void (*)(const CompiledModel&, const Ensemble&, const RunSpec&, const std::vector<double>&,
                          InstanceBlocks&, EnsembleResult&, RunProgress*);
  const Worker worker = lanes == 2   ? &run_lane_worker<2>
                        : lanes == 4 ? &run_lane_worker<4>
                        : lanes == 8 ? &run_lane_worker<8>
                                     : nullptr;
  if (!worker) throw std::invalid_argument("lanes: " + std::to_string(lanes) + " is not 2, 4 or 8");
  return run_ensemble_on_threads(model, ensemble.n_instances, output_times, threads, keep_series,
                                 [&](InstanceBlocks& blocks, EnsembleResult& result) {
                                   worker(model, ensemble, spec, output_times, blocks, result, progress);
                                 });
}

}  // namespace myriad
