#pragma once
// One instance of a model file in absolute coordinates (rp or re) from its start to the last output time,
// host and device: the cpu backend (backends/absolute_backend.cpp) and the cuda kernel
// (kernels/absolute_kernel.cu) call the same integrate_absolute_instance, so a GPU run is the CPU's
// arithmetic. What stays on the host on both paths is the model-file side: mapping the model onto bodies and
// GCONs, the joint-coordinate start and, afterwards, the signals recovered from the bodies (they need the
// host's Eigen kinematics); between the two, this function writes each output time's body state y (and, where
// the model's outputs read accelerations, q'' from the forward dynamics at that state) into the caller's
// rows.
//
// One instantiation runs every model: capacities kAbsoluteRunBodies and kAbsoluteRunGcons, the model's own
// counts at run time (AbsoluteModel::body_count, gcon_count), every array laid out with the model's own
// sizes.
#include "absolute/absolute_dynamics.hpp"
#include "core/hd.hpp"
#include "core/scalar.hpp"
#include "core/status.hpp"
#include "integrators/implicit_outputs.hpp"

namespace myriad {

// The sedan, the largest shipped model, maps to 39 bodies (27 and 12 massive rods) and 208 GCONs.
constexpr int kAbsoluteRunBodies = 48;
constexpr int kAbsoluteRunGcons = 256;

using AbsoluteRunModel = AbsoluteModel<kAbsoluteRunBodies, kAbsoluteRunGcons>;

// The engine's DAE over a model it may change: after every step the RSDAs' anchors move to the step's end
// (absolute/absolute_forces.hpp), which changes no residual value, so the chart stays (rebase returns false).
// Its consistent start solves the forward dynamics in `scratch` (acceleration_scratch_size() doubles) rather
// than on the stack, which a device thread cannot hold at these capacities.
template <class Rep>
struct AbsoluteRunDae : AbsoluteDae<Rep, kAbsoluteRunBodies, kAbsoluteRunGcons> {
  using Base = AbsoluteDae<Rep, kAbsoluteRunBodies, kAbsoluteRunGcons>;
  AbsoluteRunModel* movable = nullptr;  // the same model as Base::model
  double* scratch = nullptr;

  MYRIAD_HD bool rebase(double /*t*/, double* y) {
    for (int e = 0; e < movable->rsda_count; ++e) {
      AbsoluteRsda& f = movable->rsdas[e];
      const double* o_i = f.body_i > 0 ? y + (f.body_i - 1) * Base::kPerBody + 3 : nullptr;
      const double* o_j = f.body_j > 0 ? y + (f.body_j - 1) * Base::kPerBody + 3 : nullptr;
      move_rsda_anchor<Rep>(f, o_i, o_j);
    }
    return false;
  }
  MYRIAD_HD bool forward_dynamics(double t, const double* y, double* q_ddot, double* z) const {
    return this->accelerations_into(t, y, y + this->coordinate_count(), q_ddot, z, scratch);
  }
  MYRIAD_HD bool consistent_start(double t, const double* y, double* ydot, double* z) const {
    const int nq = this->coordinate_count();
    for (int i = 0; i < nq; ++i) ydot[i] = y[nq + i];
    return forward_dynamics(t, y, ydot + nq, z);
  }
};

// What one output row holds: the body state y (ny), then q'' (nq) when the outputs read accelerations.
MYRIAD_HD_INLINE int absolute_row_size(int ny, int nq, bool accelerations) {
  return ny + (accelerations ? nq : 0);
}

// Doubles integrate_absolute_instance needs in `work`: the implicit stepper's, the forward dynamics' scratch
// and its multipliers.
template <class Rep>
MYRIAD_HD int absolute_instance_workspace_size(const AbsoluteRunModel& model) {
  AbsoluteRunDae<Rep> dae;
  dae.model = &model;
  const int n = dae.differential_dimension(), m = dae.algebraic_dimension();
  return implicit_outputs_workspace_size(n, m) + dae.acceleration_scratch_size() + m;
}

// Integrates `model` (its RSDA anchors move as it runs) on the index-3 DAE with `scheme` from (t0, y) on the
// equal-step grid of integrators/implicit_outputs.hpp to times[n_times - 1], writing output k's row
// (absolute_row_size doubles) at rows + k * row_size; q'' is NaN where the forward dynamics fails at an
// output state. y: the consistent start (ny), the last state reached on return. Rows past the last output
// reached are not written; `reached` is how many were. Status and stats as integrate_implicit_outputs'.
template <class Rep>
MYRIAD_HD InstanceStatus integrate_absolute_instance(AbsoluteRunModel& model, const ImplicitScheme& scheme,
                                                     const ImplicitOptions& options, double t0, double h,
                                                     long long max_steps, double* y, const double* times,
                                                     int n_times, bool accelerations, double* rows,
                                                     double* work, IntegratorStats& stats, int& reached) {
  AbsoluteRunDae<Rep> dae;
  dae.model = &model;
  dae.movable = &model;
  const int n = dae.differential_dimension(), m = dae.algebraic_dimension(), nq = dae.coordinate_count();
  const int row_size = absolute_row_size(n, nq, accelerations);
  dae.scratch = work + implicit_outputs_workspace_size(n, m);
  double* multipliers = dae.scratch + dae.acceleration_scratch_size();
  reached = 0;
  auto observer = [&](int index, double t, const double* state) {
    double* row = rows + static_cast<long long>(index) * row_size;
    for (int i = 0; i < n; ++i) row[i] = state[i];
    if (accelerations && !dae.forward_dynamics(t, state, row + n, multipliers))
      for (int i = 0; i < nq; ++i) row[n + i] = quiet_nan();
    reached = index + 1;
  };
  IntegrationProgress progress;
  return integrate_implicit_outputs(dae, scheme, options, t0, h, y, times, n_times, observer, work, stats,
                                    max_steps, progress);
}

}  // namespace myriad
