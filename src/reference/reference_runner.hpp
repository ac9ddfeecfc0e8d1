#pragma once
// The `reference` backend: the same ensemble run as the cpu backend (src/ensemble/cpu_runner.hpp), with the
// dense Eigen reference dynamics (reference/reference_dynamics.hpp) in place of the fast path's
// articulated-body algorithm. Everything else is shared with the fast path on purpose, so that a difference
// between the backends can only come from the dynamics:
//   * the integrators' vector space: the chart of dynamics/tree_chart.hpp (chart_to_q, chart_rate,
//     chart_rebase with kChartRebaseThreshold for the first-order form, re-centring at every step for the
//     second-order form);
//   * the integrators, their step control and the piecewise integration between input breakpoints
//     (integrate_piecewise in ensemble/simulate_instance.hpp, breakpoints from the instance's packed
//     constants);
//   * the output signals: SignalRecorder over a fast-path TreeOde of the instance, fed the
//     reference-integrated state. joint_acceleration outputs are therefore the fast path's accelerations
//     (ABA) evaluated at the reference state, not reference::forward_dynamics.
// So fixed-step RK4 takes the identical steps on both backends, and adaptive runs differ by the step
// sequences that round-off-level differences in the dynamics select. For the Rosenbrock methods the Jacobians
// differ as well: the reference system takes them by finite differences
// (ReferenceTreeSecondOrder::jacobians), independent of the fast path's dual numbers.
//
// Models with loops integrate reference::ReferenceLoopOde (reference/reference_loop_ode.hpp: Newton with the
// dense constraint Jacobian and the augmented system of seed 000 eq. 3) over the same independent coordinates as
// the fast path's LoopOde, with the outputs from the fast path's LoopSignalRecorder at the reference state.
//
// Host only; everything here allocates freely (the reference dynamics do).
#include <Eigen/Dense>
#include <vector>

#include "core/status.hpp"
#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_progress.hpp"
#include "ensemble/run_spec.hpp"
#include "model/compiled_model.hpp"
#include "model/model.hpp"

namespace myriad {

namespace reference {

// y = (x, u) (2 nv): x the chart point of dynamics/tree_chart.hpp, u the generalized velocities, over the
// chart base `base_q` (nq, owned by the caller and rewritten by rebase) -- the state of TreeOde
// (dynamics/tree_ode.hpp), with y' = (chart_rate, reference::forward_dynamics). Models the System concept of
// integrators/ode_system.hpp. `literal` must have its parameters applied and `compiled` must be its
// compilation (same joints, same layout).
class ReferenceTreeOde {
 public:
  ReferenceTreeOde(const Model& literal, const CompiledModel& compiled, double* base_q);

  int dimension() const { return 2 * compiled_->nv; }
  // y' at (t, y). False when the reference dynamics throw (mass matrix not positive definite, a zero-length
  // spring) or give a non-finite value. O(nv^3 + bodies nv^2), allocating.
  bool derivative(double t, const double* y, double* dydt);
  // As TreeOde::rebase: folds rotation vectors longer than kChartRebaseThreshold into base_q. O(n).
  bool rebase(double t, double* y);

 private:
  const Model* literal_;
  const CompiledModel* compiled_;
  double* base_q_;
  Eigen::VectorXd q_;  // coordinates (nq), written by derivative (chart_to_q)
  Eigen::VectorXd u_;  // generalized velocities (nv), copied from y by derivative
};

// x'' = f(t, x, w) (nv) on the same chart as TreeSecondOrder (dynamics/tree_second_order.hpp): x the chart
// point, w = x' the chart rates, f from velocity_from_chart_rate -> reference::forward_dynamics ->
// chart_acceleration. Models the concept of integrators/second_order_system.hpp. base_q (nq) is owned by the
// caller and rewritten by rebase. `literal` and `compiled` as for ReferenceTreeOde.
class ReferenceTreeSecondOrder {
 public:
  ReferenceTreeSecondOrder(const Model& literal, const CompiledModel& compiled, double* base_q);

  int dimension() const { return compiled_->nv; }
  // f = x''. False when the reference dynamics throw or give a non-finite value. O(nv^3 + bodies nv^2).
  bool acceleration(double t, const double* x, const double* w, double* f);
  // f and, by finite differences of acceleration() (reference/finite_difference_jacobians.hpp: central in x and
  // w, a forward-side quadratic in t), J1 = df/dx, J2 = df/dw and f_t. Cost: 4 nv + 3 evaluations of the
  // reference dynamics. False if any evaluation fails.
  bool jacobians(double t, const double* x, const double* w, double* f, double* J1, double* J2, double* f_t);
  // The identity. RN4's stage equations S z_i = r_i (seed 000 eq. 25f) are only multiplied through by Mhat /
  // gamma^2 to give Pi z_i = Mhat (...) (eqs. 43-45), so the solution does not depend on that scaling: the
  // identity gives the same z_i as TreeSecondOrder's T^T M T up to round-off. O(nv^2).
  bool mass_matrix(double t, const double* x, double* M);
  // As TreeSecondOrder::rebase: re-centres the chart at the current configuration at every step (every
  // non-zero rotation vector folded into base_q) and recomputes w from the unchanged generalized velocities
  // u. O(n).
  bool rebase(double t, double* x, double* w);
  // As TreeSecondOrder::rebase_threshold: the implicit methods' runs re-centre only past kChartRebaseThreshold.
  double rebase_threshold = 0.0;

  // y = (x, u) (2 nv), the ReferenceTreeOde / TreeOde state over the same chart base, from (x, w). O(n).
  void to_first_order(const double* x, const double* w, double* y);
  // (x, w) from y = (x, u) over the same chart base. O(n).
  void from_first_order(const double* y, double* x, double* w);

 private:
  const Model* literal_;
  const CompiledModel* compiled_;
  double* base_q_;
  std::vector<double> q_;                   // coordinates (nq), written by chart_to_q in every member
  std::vector<double> u_;  // generalized velocities (nv), written by velocity_from_chart_rate
  std::vector<double> u_dot_;               // their rates (nv), written by acceleration (reference dynamics)
  Eigen::VectorXd q_eigen_, u_eigen_;       // (nq), (nv): the arguments of reference::forward_dynamics
};

}  // namespace reference

// Integrates one instance with the reference dynamics: `literal` is the model with the instance's parameter
// values applied, `compiled` the shared compiled model, `constants` the instance's packed constants (for the
// input breakpoints and the output signals), q_init (nq) and v_init (nv) its initial state. Same integrators,
// step control, breakpoints and output signals as simulate_instance (ensemble/simulate_instance.hpp);
// outputs: n_output_times x n_outputs, written as the integration reaches them (untouched after a failure).
// Returns the instance's status (non_finite when the reference dynamics fail); stats counts its work as the
// integrators count it, so an RN4 Jacobian (4 nv + 3 reference dynamics evaluations here) counts as one
// function evaluation and one Jacobian evaluation, as the fast path's dual-number Jacobian does. Cost:
// O(steps * (nv^3 + bodies nv^2)), and for RN4 O(steps * nv (nv^3 + bodies nv^2)).
InstanceStatus simulate_instance_reference(const Model& literal, const CompiledModel& compiled,
                                           const double* constants, const double* q_init,
                                           const double* v_init, const RunSpec& spec,
                                           const double* output_times, int n_output_times, double* outputs,
                                           IntegratorStats& stats, double* kpi_state = nullptr);

// The reference backend: every instance of `ensemble` (built from `model` and `compiled`) integrated with
// simulate_instance_reference, instances handed out dynamically to `threads` threads (<= 0: all hardware
// threads) exactly as run_ensemble_cpu does; a failing instance records its status and the others go on;
// results do not depend on the thread count. Values after an instance's failure are NaN. Throws
// std::invalid_argument if the ensemble does not fit the model (parameter, coordinate or constant counts)
// before any instance runs. `progress` (optional) counts the instances as they finish; once its cancel flag is
// set no further block of instances is handed out (as run_ensemble_cpu).
EnsembleResult run_ensemble_reference(const Model& model, const CompiledModel& compiled,
                                      const Ensemble& ensemble, const RunSpec& spec,
                                      const std::vector<double>& output_times, int threads,
                                      RunProgress* progress = nullptr, bool keep_series = true);

}  // namespace myriad
