#pragma once
// The tree's second-order form (dynamics/tree_second_order.hpp) for W instances at once, one per lane of
// S = Lanes<W> (core/lanes.hpp), for RN4 in the lane runner (ensemble/lane_runner.cpp): acceleration, the
// exact Jacobians (the Newton-Euler residual on Dual<Lanes<W>, kJacobianChunk>, core/lane_dual.hpp) and the
// mass matrix, each lane TreeSecondOrder's for that instance bit for bit. Models without spherical or free
// joints only: their chart is the identity (q = x, u = w, x'' = u', tree_chart.hpp), whatever each lane's
// base, so no chart map runs per lane and chart_acceleration's copies are left out. Host only; the caller
// owns all memory.
#include <cstddef>

#include "core/lane_dual.hpp"
#include "dynamics/lane_force_elements.hpp"
#include "dynamics/tree_second_order.hpp"

namespace myriad {

// Directions per Dual pass on lanes: kJacobianChunk, as on one instance. The chunk changes the cost, never the
// Jacobian (tree_second_order.hpp); measured on 4 lanes (bench/cpu_lanes, 1000 stiff pendulums, 500 quarter cars,
// RN4, one core): 1 direction 0.61 s, 2 0.55 s / 1.29 s, 4 0.51 s / 1.39 s.
constexpr int kLaneJacobianChunk = kJacobianChunk;

template <int W>
struct LaneTreeSecondOrder {
  using S = Lanes<W>;
  using D = Dual<S, kLaneJacobianChunk>;
  using LaneD = Dual<double, kLaneJacobianChunk>;

  const CompiledModel* model;
  LaneConstants<W> constants;
  const double* base_q[W];     // each lane's chart base (nq)
  TreeWorkspace<S> tree;       // the plain passes; after acceleration() its articulated-body factors
  TreeWorkspace<D> dual_tree;  // the Jacobian passes
  D* x_dual;                   // (nv each; q_dual nq)
  D* w_dual;
  D* q_dual;
  D* u_dual;
  D* residual;
  D* f_dual;
  S* q;      // coordinates (nq) and generalized velocities (nv) of the plain passes
  S* u;
  S* u_dot;  // u' of the last acceleration() (nv)
  S* rhs;    // a direction's right-hand side, then its solution (nv)
  // One lane's chart maps with the scalar code (models with quaternions), in TreeSecondOrder's own scratch
  // layout (its tree workspaces unused), and one lane's mass matrix (nv x nv).
  TreeSecondOrderScratch<double> lane;
  TreeSecondOrderScratch<LaneD> lane_dual;
  double* M_lane;

  int dimension() const { return model->nv; }

  // f = x'' in every lane; false when a lane meets a singular joint inertia or a non-finite value (the caller
  // then takes the lanes one by one). Leaves u' in u_dot and the articulated-body factors in `tree`.
  __attribute__((flatten)) bool acceleration(const S& t, const S* x, const S* w, S* f) {
    const int n = model->nv, nq = model->nq;
    if (!model->has_quaternions) {
      if (!forward_dynamics(*model, constants, t, x, w, tree, u_dot)) return false;
      for (int i = 0; i < n; ++i) {
        f[i] = u_dot[i];
        if (!is_finite(f[i])) return false;
      }
      return true;
    }
    for (int j = 0; j < W; ++j) {  // tree_second_order_acceleration's chart maps, lane by lane
      for (int i = 0; i < n; ++i) {
        lane.x[i] = x[i][j];
        lane.w[i] = w[i][j];
      }
      chart_to_q(*model, base_q[j], lane.x, lane.q);
      velocity_from_chart_rate(*model, lane.x, lane.q, lane.w, lane.u);
      for (int i = 0; i < nq; ++i) q[i].set(j, lane.q[i]);
      for (int i = 0; i < n; ++i) u[i].set(j, lane.u[i]);
    }
    if (!forward_dynamics(*model, constants, t, q, u, tree, u_dot)) return false;
    for (int j = 0; j < W; ++j) {
      for (int i = 0; i < n; ++i) {
        lane.x[i] = x[i][j];
        lane.w[i] = w[i][j];
        lane.u[i] = u[i][j];
        lane.u_dot[i] = u_dot[i][j];
      }
      for (int i = 0; i < nq; ++i) lane.q[i] = q[i][j];
      chart_acceleration(*model, lane.x, lane.q, lane.w, lane.u, lane.u_dot, lane.f);
      for (int i = 0; i < n; ++i) f[i].set(j, lane.f[i]);
    }
    for (int i = 0; i < n; ++i)
      if (!is_finite(f[i])) return false;
    return true;
  }

  // TreeSecondOrder::jacobians on lanes: the same plain pass, Dual passes of the residual at a = u' and
  // articulated-body solves, direction by direction.
  __attribute__((flatten)) bool jacobians(const S& t, const S* x, const S* w, S* f, S* J1, S* J2, S* f_t) {
    const int n = model->nv;
    const bool timed = model->n_time_functions > 0;
    const int directions = 2 * n + (timed ? 1 : 0);
    if (!timed)
      for (int i = 0; i < n; ++i) f_t[i] = S(0.0);
    if (!acceleration(t, x, w, f)) return false;
    const bool reuse_placements = kinematics_can_reuse_placements(*model);
    for (int first = 0; first < directions; first += kLaneJacobianChunk) {
      const D t_dual = D::variable(t, timed ? 2 * n - first : -1);
      if (model->has_quaternions) {
        dual_charts(x, w, first);
        tree_kinematics(*model, constants, q_dual, u_dual, dual_tree);
        applied_forces(*model, constants, t_dual, q_dual, u_dual, dual_tree);
      } else {
        for (int i = 0; i < n; ++i) {
          x_dual[i] = D::variable(x[i], i - first);
          w_dual[i] = D::variable(w[i], n + i - first);
        }
        // A pass of velocity (and time) directions leaves q unseeded: its placements are acceleration()'s, at the
        // same q in `tree`, so no sines, cosines or placement products on Dual (stiff pendulum, 4 lanes, one core:
        // the whole run 0.27-0.28 s against 0.30-0.31 s recomputing them).
        if (first >= n && reuse_placements)
          tree_kinematics_placed(*model, tree, w_dual, dual_tree);
        else
          tree_kinematics(*model, constants, x_dual, w_dual, dual_tree);
        applied_forces(*model, constants, t_dual, x_dual, w_dual, dual_tree);
      }
      newton_euler_forces(*model, constants, u_dot, dual_tree, residual);
      for (int slot = 0; slot < kLaneJacobianChunk && first + slot < directions; ++slot) {
        for (int i = 0; i < n; ++i) rhs[i] = -residual[i].d[slot];
        articulated_body_solve(*model, tree, rhs, tree.pA, tree.u, tree.acceleration, rhs);
        if (!model->has_quaternions) {
          if (!store_jacobian_direction(n, first + slot, [&](int i) { return rhs[i]; }, J1, J2, f_t))
            return false;
        } else {
          for (int i = 0; i < n; ++i) residual[i].d[slot] = rhs[i];
        }
      }
      if (model->has_quaternions) {
        dual_chart_accelerations(x, w, first);
        for (int slot = 0; slot < kLaneJacobianChunk && first + slot < directions; ++slot) {
          const auto derivative = [&](int i) { return f_dual[i].d[slot]; };
          if (!store_jacobian_direction(n, first + slot, derivative, J1, J2, f_t)) return false;
        }
      }
    }
    return true;
  }

  // Mhat = T^T M T, M by the composite-rigid-body algorithm on lanes, T lane by lane (the identity without
  // quaternion charts).
  bool mass_matrix(const S&, const S* x, S* M) {
    const int n = model->nv, nq = model->nq;
    if (!model->has_quaternions) {
      ::myriad::mass_matrix(*model, constants, x, x, tree, M);
    } else {
      for (int j = 0; j < W; ++j) {
        for (int i = 0; i < n; ++i) lane.x[i] = x[i][j];
        chart_to_q(*model, base_q[j], lane.x, lane.q);
        for (int i = 0; i < nq; ++i) q[i].set(j, lane.q[i]);
      }
      ::myriad::mass_matrix(*model, constants, q, q, tree, M);
      for (int j = 0; j < W; ++j) {
        for (int i = 0; i < n; ++i) lane.x[i] = x[i][j];
        for (int i = 0; i < nq; ++i) lane.q[i] = q[i][j];
        for (int i = 0; i < n * n; ++i) M_lane[i] = M[i][j];
        chart_mass_matrix(*model, lane.x, lane.q, M_lane);
        for (int i = 0; i < n * n; ++i) M[i].set(j, M_lane[i]);
      }
    }
    for (int i = 0; i < n * n; ++i)
      if (!is_finite(M[i])) return false;
    return true;
  }

 private:
  // Lane j's chart point and rates seeded for the Dual pass that starts at direction `first`, as
  // TreeSecondOrder::jacobians seeds them.
  void seed_lane(const S* x, const S* w, int first, int j) {
    const int n = model->nv;
    for (int i = 0; i < n; ++i) {
      lane_dual.x[i] = LaneD::variable(x[i][j], i - first);
      lane_dual.w[i] = LaneD::variable(w[i][j], n + i - first);
    }
  }

  // q_dual and u_dual from each lane's chart maps on Dual<double> (tree_second_order_residual's).
  void dual_charts(const S* x, const S* w, int first) {
    const int n = model->nv, nq = model->nq;
    for (int j = 0; j < W; ++j) {
      seed_lane(x, w, first, j);
      chart_to_q(*model, base_q[j], lane_dual.x, lane_dual.q);
      velocity_from_chart_rate(*model, lane_dual.x, lane_dual.q, lane_dual.w, lane_dual.u);
      for (int i = 0; i < nq; ++i) set_lane(q_dual[i], j, lane_dual.q[i]);
      for (int i = 0; i < n; ++i) set_lane(u_dual[i], j, lane_dual.u[i]);
    }
  }

  // f_dual: each lane's chart_acceleration on Dual<double> with u' (its value u_dot, its derivatives the solved
  // directions in residual), as TreeSecondOrder::jacobians forms it.
  void dual_chart_accelerations(const S* x, const S* w, int first) {
    const int n = model->nv, nq = model->nq;
    for (int i = 0; i < n; ++i) residual[i].value = u_dot[i];
    for (int j = 0; j < W; ++j) {
      seed_lane(x, w, first, j);
      for (int i = 0; i < nq; ++i) lane_dual.q[i] = lane_of(q_dual[i], j);
      for (int i = 0; i < n; ++i) {
        lane_dual.u[i] = lane_of(u_dual[i], j);
        lane_dual.u_dot[i] = lane_of(residual[i], j);
      }
      chart_acceleration(*model, lane_dual.x, lane_dual.q, lane_dual.w, lane_dual.u, lane_dual.u_dot,
                         lane_dual.f);
      for (int i = 0; i < n; ++i) set_lane(f_dual[i], j, lane_dual.f[i]);
    }
  }
};

// Bytes of the buffer carve_lane_tree_second_order lays a LaneTreeSecondOrder's scratch over (nullptr: only
// the size).
template <int W>
std::size_t carve_lane_tree_second_order(const CompiledModel& model, LaneTreeSecondOrder<W>& s,
                                         void* buffer) {
  using S = Lanes<W>;
  using D = Dual<S, kLaneJacobianChunk>;
  using LaneD = Dual<double, kLaneJacobianChunk>;
  const int nv = model.nv > 0 ? model.nv : 1, nq = model.nq > 0 ? model.nq : 1;
  unsigned char* start = static_cast<unsigned char*>(buffer);
  unsigned char* cursor = start;
  s.model = &model;
  s.x_dual = detail::carve<D>(cursor, nv);
  s.w_dual = detail::carve<D>(cursor, nv);
  s.q_dual = detail::carve<D>(cursor, nq);
  s.u_dual = detail::carve<D>(cursor, nv);
  s.residual = detail::carve<D>(cursor, nv);
  s.f_dual = detail::carve<D>(cursor, nv);
  s.q = detail::carve<S>(cursor, nq);
  s.u = detail::carve<S>(cursor, nv);
  s.u_dot = detail::carve<S>(cursor, nv);
  s.rhs = detail::carve<S>(cursor, nv);
  s.M_lane = detail::carve<double>(cursor, nv * nv);
  std::size_t bytes = 0;
  s.lane = carve_tree_second_order_scratch<double>(model, cursor, &bytes);
  cursor = reinterpret_cast<unsigned char*>(reinterpret_cast<std::size_t>(cursor) + bytes);  // null-safe
  s.lane_dual = carve_tree_second_order_scratch<LaneD>(model, cursor, &bytes);
  cursor = reinterpret_cast<unsigned char*>(reinterpret_cast<std::size_t>(cursor) + bytes);
  s.tree = carve_tree_workspace<S>(model, cursor, &bytes);
  cursor = reinterpret_cast<unsigned char*>(reinterpret_cast<std::size_t>(cursor) + bytes);  // null-safe
  s.dual_tree = carve_tree_workspace<D>(model, cursor, &bytes);
  cursor = reinterpret_cast<unsigned char*>(reinterpret_cast<std::size_t>(cursor) + bytes);
  return reinterpret_cast<std::size_t>(cursor) - reinterpret_cast<std::size_t>(start) + 2 * alignof(D) + 64;
}

}  // namespace myriad
