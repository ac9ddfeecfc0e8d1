#pragma once
// One instance of a model file in rA (seed 002 sec. 3.1's backward Euler on SO(3)) from its start to the last
// output time, host and device: the cpu backend (backends/absolute_backend.cpp) and the cuda kernel
// (kernels/rotation_matrix_kernel.cu) call the same integrate_rotation_matrix_instance, as rp and re call
// integrate_absolute_instance (absolute/absolute_run.hpp). The host keeps the model-file side on both paths
// (the mapping, the start, and the signals recovered from each output's bodies afterwards).
//
// The state travels as a flat array of kRotationMatrixBodyValues per body: r, A row by row, r', omega-bar. An
// output row is that state, then, where the model's outputs read accelerations, (r'', omega-bar') per body
// from the forward dynamics at that state (NaN where it fails).
//
// Workspace, not stack, for everything sized by the model: the iteration matrix and the forward dynamics'
// matrix are (6 nb + nc)^2 doubles, about 1.2 MB at the capacities, which no device thread holds.
#include "absolute/absolute_run.hpp"
#include "absolute/rotation_matrix_dynamics.hpp"
#include "core/hd.hpp"
#include "core/scalar.hpp"
#include "core/status.hpp"
#include "integrators/implicit_outputs.hpp"
#include "integrators/rk4.hpp"

namespace myriad {

using RotationRun = RotationMatrixDynamics<kAbsoluteRunBodies, kAbsoluteRunGcons>;
using RotationRunState = RotationMatrixState<kAbsoluteRunBodies>;

constexpr int kRotationMatrixBodyValues = 18;  // r (3), A (9), r' (3), omega-bar (3)

MYRIAD_HD_INLINE void pack_rotation_matrix_state(const RotationRunState& s, int nb, double* y) {
  for (int b = 0; b < nb; ++b) {
    double* o = y + kRotationMatrixBodyValues * b;
    for (int k = 0; k < 3; ++k) {
      o[k] = s.r[b][k], o[12 + k] = s.r_dot[b][k], o[15 + k] = s.omega_bar[b][k];
      for (int j = 0; j < 3; ++j) o[3 + 3 * k + j] = s.A[b].m[k][j];
    }
  }
}

MYRIAD_HD_INLINE void unpack_rotation_matrix_state(const double* y, int nb, RotationRunState& s) {
  for (int b = 0; b < nb; ++b) {
    const double* o = y + kRotationMatrixBodyValues * b;
    for (int k = 0; k < 3; ++k) {
      s.r[b][k] = o[k], s.r_dot[b][k] = o[12 + k], s.omega_bar[b][k] = o[15 + k];
      for (int j = 0; j < 3; ++j) s.A[b].m[k][j] = o[3 + 3 * k + j];
    }
  }
}

// Doubles of an output row: the state, then (r'', omega-bar') per body when the outputs read accelerations.
MYRIAD_HD_INLINE int rotation_matrix_row_size(int nb, bool accelerations) {
  return kRotationMatrixBodyValues * nb + (accelerations ? RotationRun::kPerBody * nb : 0);
}

// The dense output's values per body: r, r', omega-bar (A is turned, not interpolated).
constexpr int kRotationMatrixDenseValues = 9;

// Doubles integrate_rotation_matrix_instance needs in `work`: the step's and the forward dynamics' scratch,
// the unknowns x of the last two points and of an output's forward dynamics, and the five arrays of the dense
// output.
MYRIAD_HD_INLINE int rotation_matrix_instance_workspace_size(const AbsoluteRunModel& model) {
  RotationRun dynamics;
  dynamics.model = &model;
  return dynamics.integration_scratch_size() + 3 * dynamics.unknown_count() +
         5 * kRotationMatrixDenseValues * model.body_count;
}

// Integrates `model` (its RSDA anchors move to each step's orientations) by backward Euler on SO(3)
// (integrate_rotation_matrix_backward_euler, eq. 38's exact iteration matrix) from (t0, y) on the equal-step
// grid of integrators/implicit_outputs.hpp (n = ceil((T - t0) / h) steps of (T - t0) / n, T = times[n_times -
// 1]), at most max_steps of them (then max_steps). An output time between two points takes the cubic Hermite
// interpolation of r (with r'), r' (with r'') and omega-bar (with omega-bar') and A_n exp(theta dt
// omega-bar_n+1), backward Euler's own turn A_n -> A_n+1 (eq. 32d) taken in part: every output keeps the
// method's order 1. Output k's row (rotation_matrix_row_size doubles) goes to rows + k row_size; `reached` is
// how many were written. y: the start (kRotationMatrixBodyValues per body), the last point reached on return.
// Status: ok, step_size_too_small (h not positive and finite), max_steps, or the failing step's; stats added
// to as integrate_implicit_outputs adds.
MYRIAD_HD_INLINE InstanceStatus integrate_rotation_matrix_instance(
    AbsoluteRunModel& model, const ImplicitOptions& options, double t0, double h, long long max_steps,
    double* y, const double* times, int n_times, bool accelerations, double* rows, double* work,
    IntegratorStats& stats, int& reached) {
  RotationRun dynamics;
  dynamics.model = &model;
  const int nb = model.body_count, nx = dynamics.unknown_count(), nv = dynamics.velocity_count();
  const int row_size = rotation_matrix_row_size(nb, accelerations), dense = kRotationMatrixDenseValues * nb;
  double* scratch = work;
  double* forward_scratch = scratch + dynamics.step_scratch_size();
  double* x = scratch + dynamics.integration_scratch_size();
  double* x_previous = x + nx;
  double* x_forward = x_previous + nx;
  double* y0 = x_forward + nx;
  double* f0 = y0 + dense;
  double* y1 = f0 + dense;
  double* f1 = y1 + dense;
  double* y_out = f1 + dense;
  reached = 0;
  RotationRunState state;
  unpack_rotation_matrix_state(y, nb, state);

  // An output row: the state, and the forward dynamics' (r'', omega-bar') there, x's first nv values.
  const auto record = [&](int index, const RotationRunState& s, double t) {
    double* row = rows + static_cast<long long>(index) * row_size;
    pack_rotation_matrix_state(s, nb, row);
    if (accelerations) {
      double* a = row + kRotationMatrixBodyValues * nb;
      if (dynamics.accelerations(t, s, x_forward, forward_scratch)) {
        for (int i = 0; i < nv; ++i) a[i] = x_forward[i];
      } else {
        for (int i = 0; i < nv; ++i) a[i] = quiet_nan();
      }
    }
    reached = index + 1;
  };
  int next_output = 0;
  while (next_output < n_times && times[next_output] <= t0)
    record(next_output, state, times[next_output]), ++next_output;
  if (next_output == n_times) return InstanceStatus::ok;
  if (!(h > 0.0) || !is_finite(h)) return InstanceStatus::step_size_too_small;

  const double t_end = times[n_times - 1];
  const long long n_steps = implicit_step_count(t0, t_end, h);
  const double dt = (t_end - t0) / static_cast<double>(n_steps);
  const long long taken = n_steps < max_steps ? n_steps : max_steps;
  RotationRunState previous = state;  // the previous point, with its unknowns in x_previous
  const auto pack_dense = [&](const RotationRunState& s, const double* a, double* values, double* rates) {
    for (int b = 0; b < nb; ++b)
      for (int k = 0; k < 3; ++k) {
        const int o = kRotationMatrixDenseValues * b;
        values[o + k] = s.r[b][k], rates[o + k] = s.r_dot[b][k];
        values[o + 3 + k] = s.r_dot[b][k], rates[o + 3 + k] = a[RotationRun::kPerBody * b + k];
        values[o + 6 + k] = s.omega_bar[b][k], rates[o + 6 + k] = a[RotationRun::kPerBody * b + 3 + k];
      }
  };
  const auto observer = [&](long long step, double t, const RotationRunState& s, const double* x_now) {
    if (step > 0) {
      const double t_next = step == n_steps ? t_end : t;
      const double t_prev = t0 + static_cast<double>(step - 1) * dt;
      while (next_output < n_times && times[next_output] <= t_next) {
        const double t_out = times[next_output];
        if (t_out == t_next) {
          record(next_output, s, t_out);
        } else {
          const double theta = (t_out - t_prev) / dt;
          pack_dense(previous, x_previous, y0, f0);
          pack_dense(s, x_now, y1, f1);
          hermite_dense_output(dense, theta, dt, y0, f0, y1, f1, y_out);
          RotationRunState between = s;
          for (int b = 0; b < nb; ++b) {
            const double* o = y_out + kRotationMatrixDenseValues * b;
            between.r[b] = {o[0], o[1], o[2]};
            between.r_dot[b] = {o[3], o[4], o[5]};
            between.omega_bar[b] = {o[6], o[7], o[8]};
            between.A[b] = rotation_update(previous.A[b], (theta * dt) * s.omega_bar[b]);
          }
          record(next_output, between, t_out);
        }
        ++next_output;
      }
      RotationRun::move_anchors(model, s);
    }
    previous = s;
    for (int i = 0; i < nx; ++i) x_previous[i] = x_now[i];
  };
  ++stats.function_evaluations;  // the consistent start, as integrate_implicit_outputs counts it
  ImplicitStats implicit;
  InstanceStatus status = integrate_rotation_matrix_backward_euler(dynamics, t0, dt, taken, state, x, options,
                                                                   RotationMatrixIterationMatrix::exact,
                                                                   implicit, scratch, observer);
  stats.steps += implicit.steps;
  stats.function_evaluations += implicit.residual_evaluations;
  stats.jacobian_evaluations += implicit.newton_iterations;
  stats.lu_factorizations += implicit.newton_iterations;
  pack_rotation_matrix_state(state, nb, y);
  if (status == InstanceStatus::ok && taken < n_steps) status = InstanceStatus::max_steps;
  return status;
}

}  // namespace myriad
