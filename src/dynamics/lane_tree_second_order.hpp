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

  const CompiledModel* model;
  LaneConstants<W> constants;
  TreeWorkspace<S> tree;       // the plain passes; after acceleration() its articulated-body factors
  TreeWorkspace<D> dual_tree;  // the Jacobian passes
  D* x_dual;                   // (nv each)
  D* w_dual;
  D* residual;
  S* u_dot;  // u' = x'' of the last acceleration() (nv)
  S* rhs;    // a direction's right-hand side, then its solution (nv)

  int dimension() const { return model->nv; }

  // f = x'' in every lane; false when a lane meets a singular joint inertia or a non-finite value (the caller
  // then takes the lanes one by one). Leaves u' in u_dot and the articulated-body factors in `tree`.
  __attribute__((flatten)) bool acceleration(const S& t, const S* x, const S* w, S* f) {
    if (!forward_dynamics(*model, constants, t, x, w, tree, u_dot)) return false;
    const int n = model->nv;
    for (int i = 0; i < n; ++i) {
      f[i] = u_dot[i];
      if (!is_finite(f[i])) return false;
    }
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
    for (int first = 0; first < directions; first += kLaneJacobianChunk) {
      for (int i = 0; i < n; ++i) {
        x_dual[i] = D::variable(x[i], i - first);
        w_dual[i] = D::variable(w[i], n + i - first);
      }
      const D t_dual = D::variable(t, timed ? 2 * n - first : -1);
      tree_kinematics(*model, constants, x_dual, w_dual, dual_tree);
      applied_forces(*model, constants, t_dual, x_dual, w_dual, dual_tree);
      newton_euler_forces(*model, constants, u_dot, dual_tree, residual);
      for (int slot = 0; slot < kLaneJacobianChunk && first + slot < directions; ++slot) {
        for (int i = 0; i < n; ++i) rhs[i] = -residual[i].d[slot];
        articulated_body_solve(*model, tree, rhs, tree.pA, tree.u, tree.acceleration, rhs);
        if (!store_jacobian_direction(
                n, first + slot, [&](int i) { return rhs[i]; }, J1, J2, f_t))
          return false;
      }
    }
    return true;
  }

  // Mhat = M (the chart's T is the identity) by the composite-rigid-body algorithm.
  bool mass_matrix(const S&, const S* x, S* M) {
    const int n = model->nv;
    ::myriad::mass_matrix(*model, constants, x, x, tree, M);
    for (int i = 0; i < n * n; ++i)
      if (!is_finite(M[i])) return false;
    return true;
  }
};

// Bytes of the buffer carve_lane_tree_second_order lays a LaneTreeSecondOrder's scratch over (nullptr: only
// the size).
template <int W>
std::size_t carve_lane_tree_second_order(const CompiledModel& model, LaneTreeSecondOrder<W>& s,
                                         void* buffer) {
  using S = Lanes<W>;
  using D = Dual<S, kLaneJacobianChunk>;
  const int nv = model.nv > 0 ? model.nv : 1;
  unsigned char* start = static_cast<unsigned char*>(buffer);
  unsigned char* cursor = start;
  s.model = &model;
  s.x_dual = detail::carve<D>(cursor, nv);
  s.w_dual = detail::carve<D>(cursor, nv);
  s.residual = detail::carve<D>(cursor, nv);
  s.u_dot = detail::carve<S>(cursor, nv);
  s.rhs = detail::carve<S>(cursor, nv);
  std::size_t bytes = 0;
  s.tree = carve_tree_workspace<S>(model, cursor, &bytes);
  cursor = reinterpret_cast<unsigned char*>(reinterpret_cast<std::size_t>(cursor) + bytes);  // null-safe
  s.dual_tree = carve_tree_workspace<D>(model, cursor, &bytes);
  cursor = reinterpret_cast<unsigned char*>(reinterpret_cast<std::size_t>(cursor) + bytes);
  return reinterpret_cast<std::size_t>(cursor) - reinterpret_cast<std::size_t>(start) + 2 * alignof(D) + 64;
}

}  // namespace myriad
