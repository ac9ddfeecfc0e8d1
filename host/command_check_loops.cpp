// `myriad check MODEL` for models with loops or drivers: at the initial state and at random states of the
// independent coordinates, the fast path assembles the dependent coordinates and velocities itself and its
// constrained accelerations (both loop methods) are compared with the reference augmented system of seed 000
// eq. 3; the residuals of Phi, Phi_q q' + Phi_t and Phi_q q'' - gamma are reported for each path.
#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <random>
#include <vector>

#include "commands.hpp"
#include "constraints/constraint_equations.hpp"
#include "loops/loop_ode.hpp"
#include "loops/loop_structure.hpp"
#include "model/compile.hpp"
#include "reference/reference_constrained.hpp"

namespace myriad::cli {

namespace {

using Eigen::VectorXd;

struct Residuals {
  double position = 0.0, velocity = 0.0, acceleration = 0.0;
  void take(const Residuals& r) {
    position = std::max(position, r.position);
    velocity = std::max(velocity, r.velocity);
    acceleration = std::max(acceleration, r.acceleration);
  }
};

Residuals residuals(const Model& model, double t, const VectorXd& q, const VectorXd& v, const VectorXd& vdot) {
  const constraints::ConstraintEvaluation e = constraints::evaluate_constraints(model, t, q, v);
  const double scale = std::max(1.0, vdot.cwiseAbs().maxCoeff());
  return {e.phi.cwiseAbs().maxCoeff(), (e.G * v + e.phi_t).cwiseAbs().maxCoeff(),
          (e.G * vdot - e.gamma).cwiseAbs().maxCoeff() / scale};
}

}  // namespace

int run_check_loops(const Model& model, const CompiledModel& compiled, const CheckOptions& options) {
  const int nv = compiled.nv, m = compiled.constraints.m, ndof = compiled.constraints.n_independent;
  std::vector<double> constants(static_cast<size_t>(compiled.n_constants));
  pack_constants(compiled, model, constants.data());
  const double* k = constants.data();
  // The standard method's scratch exists only when it is the model's method: carve with it forced on.
  const auto both = std::make_unique<CompiledModel>(compiled);
  both->constraints.method = kLoopMethodStandard;
  std::vector<unsigned char> buffer(loop_scratch_bytes<double>(*both));
  LoopOde<const double*> ode{both.get(), k, carve_loop_scratch<double>(*both, buffer.data(), nullptr),
                             LoopFailure::none, 0.0, 0};

  std::vector<double> q0(static_cast<size_t>(nv)), v0(static_cast<size_t>(nv)), y(static_cast<size_t>(2 * ndof + 1));
  initial_state(model, q0.data(), v0.data());
  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> time(0.0, 1.0), shift(-0.5, 0.5), rate(-2.0, 2.0);
  double worst_reduction = 0.0, worst_standard = 0.0, worst_condition = 0.0;
  Residuals fast, reference_path;
  int checked = 0, skipped = 0;
  for (int s = 0; s < options.states; ++s) {
    std::vector<double> q = q0, v = v0;
    const double t = s == 0 ? 0.0 : time(rng);
    if (s > 0)
      for (int i = 0; i < ndof; ++i) {
        q[static_cast<size_t>(compiled.constraints.independent[i])] += shift(rng);
        v[static_cast<size_t>(compiled.constraints.independent[i])] = rate(rng);
      }
    if (!ode.initialize(t, q.data(), v.data(), y.data())) {
      if (s == 0) {
        std::cout << "state 0 (the model's initial state): the fast path cannot assemble it\n";
        return 1;
      }
      ++skipped;  // a random independent state the mechanism cannot reach
      continue;
    }
    std::vector<double> small(static_cast<size_t>(std::max(1, compiled.constraints.largest_block)));
    worst_condition = std::max(worst_condition, dependent_condition(*both, ode.s.partition.view, ode.s.partition.rows,
                                                                    ode.s.partition.factors, small.data()));
    const VectorXd q_fast = Eigen::Map<const VectorXd>(ode.s.q, nv);
    const VectorXd v_fast = Eigen::Map<const VectorXd>(ode.s.v, nv);
    ode.failure = loop_accelerations(*both, k, t, ode.s, true, kLoopMethodReduction, static_cast<double*>(nullptr));
    const VectorXd a_reduction = Eigen::Map<const VectorXd>(ode.s.vdot, nv);
    const LoopFailure reduction_failure = ode.failure;
    // Rods' lumped inertia exists only in the reduction; the standard method is compared on models without.
    const bool rods = compiled.constraints.n_rods > 0;
    if (!rods)
      ode.failure =
          loop_accelerations(*both, k, t, ode.s, true, kLoopMethodStandard, static_cast<double*>(nullptr));
    const VectorXd a_standard = rods ? a_reduction : Eigen::Map<const VectorXd>(ode.s.vdot, nv);
    if (reduction_failure != LoopFailure::none || ode.failure != LoopFailure::none) {
      std::cout << "state " << s << ": a fast-path loop method failed (singular)\n";
      return 1;
    }
    const reference::ConstrainedDynamics ref = reference::constrained_forward_dynamics(model, t, q_fast, v_fast);
    if (ref.status != reference::ConstrainedDynamics::Status::ok) {
      std::cout << "state " << s << ": reference: " << ref.message << '\n';
      return 1;
    }
    const double scale = std::max(1.0, ref.vdot.cwiseAbs().maxCoeff());
    worst_reduction = std::max(worst_reduction, (a_reduction - ref.vdot).cwiseAbs().maxCoeff() / scale);
    worst_standard = std::max(worst_standard, (a_standard - ref.vdot).cwiseAbs().maxCoeff() / scale);
    Residuals r = residuals(model, t, q_fast, v_fast, a_reduction);
    r.take(residuals(model, t, q_fast, v_fast, a_standard));
    fast.take(r);
    reference_path.take(residuals(model, t, q_fast, v_fast, ref.vdot));
    if (!std::isfinite(worst_reduction) || !std::isfinite(worst_standard)) {
      std::cout << "state " << s << ": non-finite result\n";
      return 1;
    }
    ++checked;
  }
  const double residual_tolerance = 1e-10;
  const bool enough = checked >= std::max(1, options.states / 2);
  const bool pass = enough && worst_reduction <= options.tolerance && worst_standard <= options.tolerance &&
                    fast.position <= residual_tolerance && fast.velocity <= residual_tolerance &&
                    fast.acceleration <= residual_tolerance;
  std::cout << "model: " << model.name << "  states: " << checked << " checked, " << skipped
            << " unreachable skipped  seed: " << options.seed << '\n'
            << "n = " << nv << "  m = " << m << "  ndof = " << ndof << "  loop method: "
            << loops::loop_method_name(compiled.constraints.method)
            << "  max condition of the blocks of Phi_u (1-norm): " << worst_condition << '\n'
            << "max |a_fast - a_ref| / max(1, max|a_ref|) = " << worst_reduction
            << "  (recursive coordinate reduction vs reference augmented system)\n"
            << "max |a_fast - a_ref| / max(1, max|a_ref|) = " << worst_standard
            << (compiled.constraints.n_rods > 0 ? "  (standard O(n): not applicable to rods; the reduction again)\n"
                                                 : "  (standard O(n) with constraint forces vs reference)\n")
            << "fast path:  max |Phi| = " << fast.position << "  max |Phi_q q' + Phi_t| = " << fast.velocity
            << "  max |Phi_q q'' - gamma| / max(1, |q''|) = " << fast.acceleration << '\n'
            << "reference:  max |Phi| = " << reference_path.position
            << "  max |Phi_q q' + Phi_t| = " << reference_path.velocity
            << "  max |Phi_q q'' - gamma| / max(1, |q''|) = " << reference_path.acceleration << '\n'
            << (pass ? "PASS" : "FAIL") << " (acceleration tolerance " << options.tolerance
            << ", residual tolerance " << residual_tolerance << (enough ? "" : "; too few reachable states")
            << ")\n";
  return pass ? 0 : 1;
}

}  // namespace myriad::cli
