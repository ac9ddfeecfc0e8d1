#pragma once
// The state-space ODE of a tree model (dynamics/tree_ode.hpp) for W instances at once, one per lane of
// S = Lanes<W> (core/lanes.hpp): the forward dynamics run on lanes, the chart maps run per lane with the scalar
// code over each instance's own chart base. Each lane's derivative is TreeOde's for that instance, bit for bit.
// Host only; the caller owns all memory (ensemble/lane_runner.cpp).
#include "core/lanes.hpp"
#include "dynamics/articulated_body.hpp"
#include "dynamics/lane_force_elements.hpp"
#include "dynamics/tree_chart.hpp"

namespace myriad {

template <int W>
struct LaneTreeOde {
  const CompiledModel* model;
  LaneConstants<W> constants;
  const double* base_q[W];  // each lane's chart base (nq)
  double* y_lane;           // one lane's state (2 nv), scratch
  double* q_lane;           // its coordinates (nq), scratch
  double* rate_lane;        // its chart rate (nv), scratch
  Lanes<W>* q;              // coordinates (nq), scratch
  TreeWorkspace<Lanes<W>> w;

  int dimension() const { return 2 * model->nv; }

  // y' = (x', v') in every lane; false when any lane meets a singular joint inertia or a non-finite value (the
  // caller then evaluates the lanes one by one to learn which).
  bool derivative(const Lanes<W>& t, const Lanes<W>* y, Lanes<W>* dydt) {
    const int nv = model->nv, nq = model->nq;
    if (!model->has_quaternions) {
      // Without spherical or free joints the chart is the identity (tree_chart.hpp: q = x, x' = v), whatever the
      // base: the same copies chart_to_q and chart_rate make, all lanes at once.
      for (int i = 0; i < nq; ++i) q[i] = y[i];
      for (int i = 0; i < nv; ++i) dydt[i] = y[nv + i];
    }
    for (int j = 0; model->has_quaternions && j < W; ++j) {
      for (int i = 0; i < 2 * nv; ++i) y_lane[i] = y[i][j];
      chart_to_q(*model, base_q[j], y_lane, q_lane);
      chart_rate(*model, y_lane, q_lane, y_lane + nv, rate_lane);
      for (int i = 0; i < nq; ++i) q[i].set(j, q_lane[i]);
      for (int i = 0; i < nv; ++i) dydt[i].set(j, rate_lane[i]);
    }
    if (!forward_dynamics(*model, constants, t, q, y + nv, w, dydt + nv)) return false;
    for (int i = 0; i < 2 * nv; ++i)
      if (!is_finite(dydt[i])) return false;
    return true;
  }
};

}  // namespace myriad
