#pragma once
// The state-space ODE of a model with loops (seed 000 eqs. 8-10): state (x, w) = the independent coordinates
// and their rates; x'' = the independent part of the constrained accelerations. Each evaluation recovers the
// dependent coordinates (Newton, warm-started from the previous evaluation) and velocities, then runs the model's
// loop method (loops/loop_dynamics.hpp). The first-order view (LoopOde, for RK4 and DOPRI5) and the second-order
// view (LoopSecondOrder, for RN4 and ROS2) share one evaluation; the second adds exact Jacobians by Dual passes
// (the dependent coordinates' derivatives through one Newton correction in Dual arithmetic, see
// newton_correction) and Mhat of seed 000 eq. 10a from the reduction. Host+device, no allocation.
#include <cstddef>

#include "core/dual.hpp"
#include "dynamics/tree_second_order.hpp"
#include "loops/loop_dynamics.hpp"
#include "loops/loop_repartition.hpp"
#include "loops/rod_history.hpp"

namespace myriad {

// All per-instance scratch of one scalar type.
template <class S>
struct LoopScratch {
  S* q;     // nq (== nv): the full coordinates, kept between evaluations as Newton's warm start
  S* q_anchor;  // nv: the coordinates at the last accepted state, Newton's fallback start (LoopOde::expand)
  S* v;     // nv
  S* vdot;  // nv
  TreeWorkspace<S> tree;
  PartitionScratch<S> partition;
  ReductionScratch<S> reduction;
  StandardScratch<S> standard;  // carved only for the standard method
  OwnedPartition owned;         // carved only where the partition may be re-chosen (no named coordinates)
  double* mass_cache;           // ndof x ndof: Mhat from LoopSecondOrder::jacobians' evaluation
  RodHistory rods;              // seed 001's extrapolated rod inertia (null header: exact rods; the double
                                // scratch's, which a Dual scratch points at)
};

// Whether instances of this model may re-choose their partition (loops/loop_repartition.hpp).
MYRIAD_HD_INLINE bool may_repartition(const CompiledModel& model) {
  return model.constraints.m > 0 && !model.constraints.named_independent && model.constraints.n_independent > 0;
}

template <class S>
MYRIAD_HD LoopScratch<S> carve_loop_scratch(const CompiledModel& model, void* buffer, std::size_t* bytes_used) {
  const CompiledConstraints& c = model.constraints;
  const int nv = model.nv > 0 ? model.nv : 1, nb = model.n_bodies, m = c.m > 0 ? c.m : 1;
  const int ndof = c.n_independent > 0 ? c.n_independent : 1;
  unsigned char* start = static_cast<unsigned char*>(buffer);
  unsigned char* cursor = start;
  LoopScratch<S> s;
  s.q = detail::carve<S>(cursor, nv);
  s.q_anchor = detail::carve<S>(cursor, nv);
  s.v = detail::carve<S>(cursor, nv);
  s.vdot = detail::carve<S>(cursor, nv);
  s.partition.rows.phi = detail::carve<S>(cursor, m);
  s.partition.rows.g = detail::carve<S>(cursor, c.n_values > 0 ? c.n_values : 1);
  s.partition.rows.phi_t = detail::carve<S>(cursor, m);
  s.partition.rows.gamma = detail::carve<S>(cursor, m);
  const bool repartition = may_repartition(model);
  const int lu_values = repartition && c.m * c.m > c.lu_values ? c.m * c.m : c.lu_values;
  s.partition.factors.lu = detail::carve<S>(cursor, lu_values > 0 ? lu_values : 1);
  s.partition.factors.pivots = detail::carve<int>(cursor, m);
  s.partition.a0 = detail::carve<Motion<S>>(cursor, nb);
  s.partition.rhs = detail::carve<S>(cursor, m);
  s.partition.step = detail::carve<S>(cursor, nv);
  s.partition.small = detail::carve<S>(cursor, repartition ? m : (c.largest_block > 0 ? c.largest_block : 1));
  s.partition.view = compiled_partition(model);
  s.owned = OwnedPartition{};
  if (repartition) {
    s.owned.independent = detail::carve<int>(cursor, ndof);
    s.owned.dependent = detail::carve<int>(cursor, m);
    s.owned.block_rows = detail::carve<int>(cursor, m);
    s.owned.block_start = detail::carve<int>(cursor, 2);
    s.owned.block_lu = detail::carve<int>(cursor, 2);
    s.owned.slot_role = detail::carve<int>(cursor, c.n_slots > 0 ? c.n_slots : 1);
    s.owned.role = detail::carve<int>(cursor, nv);
    s.owned.dense = detail::carve<double>(cursor, m * nv + m);
  }
  s.reduction.B = detail::carve<S>(cursor, nv * ndof);
  s.reduction.offset = detail::carve<S>(cursor, nv);
  s.reduction.P = detail::carve<Motion<S>>(cursor, nb * ndof);
  s.reduction.A = detail::carve<Motion<S>>(cursor, nb);
  s.reduction.M = detail::carve<S>(cursor, ndof * ndof);
  s.reduction.rhs = detail::carve<S>(cursor, ndof);
  s.reduction.pivots = detail::carve<int>(cursor, ndof);
  s.reduction.rod_J = detail::carve<Vec3<S>>(cursor, 2 * ndof);
  s.mass_cache = detail::carve<double>(cursor, ndof * ndof);
  s.reduction.rod_prediction = detail::carve<S>(cursor, ndof);
  s.reduction.rod_predicted = false;
  s.rods = RodHistory{};
  if (c.rod_inertia > 0) s.rods = rod_history_view(detail::carve<double>(cursor, rod_history_doubles(nv, ndof)), nv, ndof);
  s.standard = StandardScratch<S>{};
  if (c.method == kLoopMethodStandard) {
    s.standard.zeta = detail::carve<S>(cursor, m * nv);
    s.standard.A = detail::carve<S>(cursor, m * m);
    s.standard.lambda = detail::carve<S>(cursor, m);
    s.standard.pivots = detail::carve<int>(cursor, m);
    s.standard.tau = detail::carve<S>(cursor, nv);
    s.standard.u = detail::carve<S>(cursor, nv);
    s.standard.pA = detail::carve<Force<S>>(cursor, nb);
    s.standard.a = detail::carve<Motion<S>>(cursor, nb);
  }
  std::size_t tree_bytes = 0;
  s.tree = carve_tree_workspace<S>(model, cursor, &tree_bytes);
  cursor = reinterpret_cast<unsigned char*>(reinterpret_cast<std::size_t>(cursor) + tree_bytes);
  if (bytes_used) *bytes_used = static_cast<std::size_t>(cursor - start) + 64;
  return s;
}

template <class S>
std::size_t loop_scratch_bytes(const CompiledModel& model) {
  std::size_t bytes = 0;
  carve_loop_scratch<S>(model, nullptr, &bytes);
  return bytes;
}

enum class LoopFailure : int { none = 0, projection = 1, singular = 2 };

// Constrained accelerations s.vdot at time t for s.q, s.v whose independent entries are set: the dependent
// coordinates by Newton (newton == true) or by one Dual correction from the converged s.q (newton == false),
// dependent velocities, then the model's loop method (or `method` when not kLoopMethodNone). Leaves the
// kinematics of s.tree at (q, v). Mhat into mass_out when given (reduction only).
template <class S, class K, class T>
MYRIAD_HD_OUTLINE LoopFailure loop_accelerations(const CompiledModel& model, const K& k, const T& t,
                                                 LoopScratch<S>& s, bool newton, int method, S* mass_out) {
  const bool projected = newton ? project_positions(model, k, t, s.q, s.v, s.tree, s.partition)
                                : newton_correction(model, k, t, s.q, s.v, s.tree, s.partition);
  if (!projected) return LoopFailure::projection;
  if (!newton) {  // rows and factors at the corrected q, with its derivatives
    tree_kinematics(model, k, s.q, s.v, s.tree);
    evaluate_constraint_rows(model, k, t, s.q, s.tree, s.partition.a0, s.partition.rows);
    if (!factor_dependent_blocks(model, s.partition.view, s.partition.rows, s.partition.factors))
      return LoopFailure::singular;
  }
  solve_velocities(model, s.partition, s.v);
  tree_kinematics(model, k, s.q, s.v, s.tree);
  bias_accelerations(model, s.tree, s.partition.a0);
  evaluate_constraint_rows(model, k, t, s.q, s.tree, s.partition.a0, s.partition.rows);
  applied_forces(model, k, t, s.q, s.v, s.tree);
  const int use = method != kLoopMethodNone ? method : model.constraints.method;
  s.reduction.rod_predicted =
      s.rods.header && rod_prediction(s.rods, model.constraints.rod_inertia, t, model.nv, s.partition.view.independent,
                                      model.constraints.n_independent, s.reduction.rod_prediction);
  // Rods need the reduction (their coupled inertia is not an articulated-body quantity).
  const bool ok = use == kLoopMethodStandard && s.standard.zeta && model.constraints.n_rods == 0
                      ? standard_accelerations(model, k, s.tree, s.partition, s.standard, s.vdot)
                      : reduced_accelerations(model, k, s.tree, s.partition, s.reduction, s.vdot, mass_out);
  return ok ? LoopFailure::none : LoopFailure::singular;
}

// First-order state-space ODE y = (x_ind, v_ind) (src/integrators/ode_system.hpp).
template <class K>
struct LoopOde {
  const CompiledModel* model;
  K constants;
  LoopScratch<double> s;
  LoopFailure failure;
  double partition_condition;  // condition estimate of Phi_u's blocks when the partition in force was chosen
  int repartitions;            // partitions re-chosen during the run

  MYRIAD_HD int dimension() const { return 2 * model->constraints.n_independent; }
  MYRIAD_HD const int* independent() const { return s.partition.view.independent; }

  // Full coordinates, velocities and accelerations at (t, x, w) into s.q, s.v, s.vdot.
  // mass_out (ndof x ndof), when given, receives Mhat if the model's method is the reduction (which forms it).
  MYRIAD_HD bool expand(double t, const double* x, const double* w, double* mass_out = nullptr) {
    set_independent(x, w);
    failure = loop_accelerations(*model, constants, t, s, true, kLoopMethodNone, mass_out);
    if (failure == LoopFailure::projection) {
      // The warm start (the previous evaluation's coordinates) can lie far off: a trial step that went wild and
      // still converged, far away or on the other assembly branch, or the last iterate of one that did not. Newton
      // starts once more from the last accepted state's coordinates, and leaves them as the next warm start if it
      // fails again (the integrator then tries a shorter step).
      restore_anchor();
      set_independent(x, w);
      failure = loop_accelerations(*model, constants, t, s, true, kLoopMethodNone, mass_out);
      if (failure == LoopFailure::projection) restore_anchor();
    }
    if (failure != LoopFailure::none) return false;
    for (int i = 0; i < model->nv; ++i)
      if (!is_finite(s.vdot[i]) || !is_finite(s.v[i])) return false;
    if (s.rods.header) rod_history_evaluated(s.rods, model->nv, model->constraints.n_independent, t, x, w, s.vdot);
    return true;
  }
  MYRIAD_HD bool expand(double t, const double* y) { return expand(t, y, y + model->constraints.n_independent); }

  MYRIAD_HD bool derivative(double t, const double* y, double* dydt) {
    if (!expand(t, y)) return false;
    const int ndof = model->constraints.n_independent;
    for (int i = 0; i < ndof; ++i) {
      dydt[i] = y[ndof + i];
      dydt[ndof + i] = s.vdot[independent()[i]];
    }
    return true;
  }

  MYRIAD_HD void set_independent(const double* x, const double* w) {
    for (int i = 0; i < model->constraints.n_independent; ++i) {
      s.q[independent()[i]] = x[i];
      s.v[independent()[i]] = w[i];
    }
  }
  MYRIAD_HD void keep_anchor() {
    for (int i = 0; i < model->nv; ++i) s.q_anchor[i] = s.q[i];
  }
  MYRIAD_HD void restore_anchor() {
    for (int i = 0; i < model->nv; ++i) s.q[i] = s.q_anchor[i];
  }

  // The partition check after an accepted step at (t, x, w): true when the partition was re-chosen and (x, w)
  // rewritten in the new independent coordinates (the integrator then re-evaluates its cached derivative).
  // Also keeps Newton's fallback start (expand): the integrators call it after every accepted step, when s.q holds
  // converged coordinates of that step, the accepted state's (a projection here, or DOPRI5's first-same-as-last
  // stage) or a stage's (RK4, the Rosenbrock methods): a consistent configuration next to it. With extrapolated rod
  // inertia, the accepted state's accelerations enter the history (loops/rod_history.hpp).
  MYRIAD_HD bool check_partition(double t, double* x, double* w) {
    const bool rechosen = choose_again(t, x, w);
    if (s.rods.header) rod_history_accepted(s.rods, model->nv, model->constraints.n_independent, t, x, w);
    return rechosen;
  }

  // check_partition's partition half.
  MYRIAD_HD bool choose_again(double t, double* x, double* w) {
    if (!s.owned.independent) {
      keep_anchor();
      return false;
    }
    const int ndof = model->constraints.n_independent;
    set_independent(x, w);
    if (!project_positions(*model, constants, t, s.q, s.v, s.tree, s.partition)) {
      restore_anchor();
      return false;
    }
    keep_anchor();
    solve_velocities(*model, s.partition, s.v);
    const double condition =
        dependent_condition(*model, s.partition.view, s.partition.rows, s.partition.factors, s.partition.small);
    if (!(condition > kRepartitionGrowth * partition_condition)) return false;
    PartitionView view{};
    if (!choose_partition(*model, s.partition.rows, s.owned, view)) return false;
    s.partition.view = view;
    if (!factor_dependent_blocks(*model, s.partition.view, s.partition.rows, s.partition.factors)) return false;
    partition_condition =
        dependent_condition(*model, s.partition.view, s.partition.rows, s.partition.factors, s.partition.small);
    ++repartitions;
    for (int i = 0; i < ndof; ++i) {
      x[i] = s.q[independent()[i]];
      w[i] = s.v[independent()[i]];
    }
    return true;
  }

  MYRIAD_HD bool rebase(double t, double* y) { return check_partition(t, y, y + model->constraints.n_independent); }

  // Consistent initial state from q, v (dependent entries are guesses) at t; writes y. False when Newton fails.
  MYRIAD_HD bool initialize(double t, const double* q, const double* v, double* y) {
    for (int i = 0; i < model->nv; ++i) {
      s.q[i] = s.q_anchor[i] = q[i];
      s.v[i] = v[i];
    }
    s.partition.view = compiled_partition(*model);
    repartitions = 0;
    const int ndof = model->constraints.n_independent;
    for (int i = 0; i < ndof; ++i) {
      y[i] = q[independent()[i]];
      y[ndof + i] = v[independent()[i]];
    }
    if (s.rods.header) {  // the initial state is accepted: its (exact) accelerations start the history
      rod_history_reset(s.rods);
      rod_history_accepted(s.rods, model->nv, ndof, t, y, y + ndof);
    }
    if (!expand(t, y)) return false;
    keep_anchor();
    partition_condition =
        dependent_condition(*model, s.partition.view, s.partition.rows, s.partition.factors, s.partition.small);
    return true;
  }
};

// Second-order view for the Rosenbrock integrators (src/integrators/second_order_system.hpp): x = x_ind,
// w = v_ind. Shares the double scratch with a LoopOde (same warm start); owns a Dual scratch.
template <class K>
struct LoopSecondOrder {
  LoopOde<K>* ode;
  LoopScratch<JacobianDual> dual;
  bool mass_cached;  // ode->s.mass_cache holds Mhat at (cached_t, the independent coordinates in ode->s.q)
  double cached_t;

  MYRIAD_HD int dimension() const { return ode->model->constraints.n_independent; }

  MYRIAD_HD bool acceleration(double t, const double* x, const double* w, double* f) {
    if (!ode->expand(t, x, w)) return false;
    for (int i = 0; i < dimension(); ++i) f[i] = ode->s.vdot[ode->independent()[i]];
    return true;
  }

  // Exact f, J1, J2, f_t: a double evaluation (Newton to convergence), then Dual passes of kJacobianChunk
  // directions over (x, w, t) from the converged coordinates.
  MYRIAD_HD bool jacobians(double t, const double* x, const double* w, double* f, double* J1, double* J2,
                           double* f_t) {
    // The reduction forms Mhat on the way: keep it for the mass_matrix call that follows at the same point.
    mass_cached = ode->model->constraints.method == kLoopMethodReduction;
    if (!ode->expand(t, x, w, mass_cached ? ode->s.mass_cache : nullptr)) return mass_cached = false;
    for (int i = 0; i < dimension(); ++i) f[i] = ode->s.vdot[ode->independent()[i]];
    cached_t = t;
    const CompiledModel& model = *ode->model;
    const CompiledConstraints& c = model.constraints;
    const int n = c.n_independent, nv = model.nv;
    const bool timed = model.n_time_functions > 0;
    const int directions = 2 * n + (timed ? 1 : 0);
    if (!timed)
      for (int i = 0; i < n; ++i) f_t[i] = 0.0;
    dual.partition.view = ode->s.partition.view;
    dual.rods = ode->s.rods;  // the Dual passes extrapolate from the same history (as a function of t)
    const int* independent = ode->independent();
    for (int first = 0; first < directions; first += kJacobianChunk) {
      for (int i = 0; i < nv; ++i) {
        dual.q[i] = JacobianDual(ode->s.q[i]);
        dual.v[i] = JacobianDual(ode->s.v[i]);
      }
      for (int i = 0; i < n; ++i) {
        dual.q[independent[i]] = JacobianDual::variable(x[i], i - first);
        dual.v[independent[i]] = JacobianDual::variable(w[i], n + i - first);
      }
      const JacobianDual t_dual = JacobianDual::variable(t, timed ? 2 * n - first : -1);
      if (loop_accelerations(model, ode->constants, t_dual, dual, false, kLoopMethodNone,
                             static_cast<JacobianDual*>(nullptr)) != LoopFailure::none)
        return false;
      for (int slot = 0; slot < kJacobianChunk && first + slot < directions; ++slot) {
        const auto derivative = [&](int i) { return dual.vdot[independent[i]].d[slot]; };
        if (!store_jacobian_direction(n, first + slot, derivative, J1, J2, f_t)) return false;
      }
    }
    return true;
  }

  // Mhat = B^T M B (seed 000 eq. 10a) at the independent coordinates x (velocities as last evaluated).
  MYRIAD_HD bool mass_matrix(double t, const double* x, double* M) {
    const CompiledConstraints& c = ode->model->constraints;
    bool same_point = mass_cached && t == cached_t;
    for (int i = 0; i < c.n_independent && same_point; ++i) same_point = x[i] == ode->s.q[ode->independent()[i]];
    mass_cached = false;
    if (same_point) {  // ode->s still holds jacobians' double evaluation at (t, x)
      for (int i = 0; i < c.n_independent * c.n_independent; ++i) M[i] = ode->s.mass_cache[i];
      return true;
    }
    for (int i = 0; i < c.n_independent; ++i) ode->s.q[ode->independent()[i]] = x[i];
    ode->failure = loop_accelerations(*ode->model, ode->constants, t, ode->s, true, kLoopMethodReduction, M);
    return ode->failure == LoopFailure::none;
  }

  MYRIAD_HD bool rebase(double t, double* x, double* w) { return ode->check_partition(t, x, w); }

};

}  // namespace myriad
