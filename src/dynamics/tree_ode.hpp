#pragma once
// The state-space ODE of a tree model for the integrators (src/integrators/ode_system.hpp): y = (x, v) with x the
// chart coordinates of dynamics/tree_chart.hpp, y' = (chart rate, forward dynamics). Host+device; the caller owns
// all memory.
#include "dynamics/articulated_body.hpp"
#include "dynamics/model_class.hpp"
#include "dynamics/tree_chart.hpp"

namespace myriad {

// Rotation vectors are folded into their base quaternion once longer than this (rad).
constexpr double kChartRebaseThreshold = 0.5;

template <class K>
struct TreeOde {
  const CompiledModel* model;
  K constants;
  double* base_q;          // chart base (nq), owned by the caller
  double* q;               // scratch coordinates (nq)
  double* qdd;             // scratch accelerations (nv)
  TreeWorkspace<double> w;

  // The model, or the constant a kernel specialized on it folds (model_of, dynamics/model_class.hpp).
  MYRIAD_HD_INLINE const CompiledModel& the_model() const { return model_of<K>(*model); }

  MYRIAD_HD int dimension() const { return 2 * the_model().nv; }

  // y' = (x', v'); false on a singular joint inertia or a non-finite value.
  MYRIAD_HD bool derivative(double t, const double* y, double* dydt) {
    const CompiledModel& m = the_model();
    const int nv = m.nv;
    chart_to_q(m, base_q, y, q);
    if (!forward_dynamics(m, constants, t, q, y + nv, w, dydt + nv)) return false;
    chart_rate(m, y, q, y + nv, dydt);
    for (int i = 0; i < 2 * nv; ++i)
      if (!is_finite(dydt[i])) return false;
    return true;
  }

  MYRIAD_HD bool rebase(double, double* y) {
    const CompiledModel& m = the_model();
    return m.has_quaternions ? chart_rebase(m, base_q, y, kChartRebaseThreshold) : false;
  }
};

}  // namespace myriad
