// `myriad check MODEL`: the fast path (ABA, CRBA, RNEA) against the dense reference path at random states.
#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "dynamics/inverse_dynamics.hpp"
#include "dynamics/mass_matrix.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"
#include "random_state.hpp"
#include "reference/reference_dynamics.hpp"

namespace myriad::cli {

int run_check(const CheckOptions& options) {
  if (options.states < 1 || options.states > 1000000)
    throw std::invalid_argument("--states " + std::to_string(options.states) + ": must be 1 .. 1000000");
  if (!(std::isfinite(options.tolerance) && options.tolerance >= 0))
    throw std::invalid_argument("--tolerance " + std::to_string(options.tolerance) +
                                ": must be a finite number >= 0");
  const Model loaded = load_model_file(options.model);
  const Model model = apply_parameters(loaded, default_parameter_values(loaded));
  const auto compiled = compile(model);
  if (compiled->constraints.m > 0) return run_check_loops(model, *compiled, options);
  const int nq = compiled->nq, nv = compiled->nv;
  std::vector<double> constants(static_cast<size_t>(compiled->n_constants));
  pack_constants(*compiled, model, constants.data());
  const double* k = constants.data();
  std::vector<unsigned char> buffer(tree_workspace_bytes<double>(*compiled));
  TreeWorkspace<double> w = carve_tree_workspace<double>(*compiled, buffer.data(), nullptr);

  std::vector<double> q0(static_cast<size_t>(nq)), v0(static_cast<size_t>(nv));
  initial_state(model, q0.data(), v0.data());
  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> time(0.0, 1.0);
  double worst_acceleration = 0.0, worst_mass_matrix = 0.0, worst_inverse = 0.0;
  std::vector<double> q, v, qdd(static_cast<size_t>(nv)), M(static_cast<size_t>(nv * nv)), tau(static_cast<size_t>(nv));
  for (int s = 0; s < options.states; ++s) {
    // The first state is the model's own initial state; the rest are random.
    if (s == 0) {
      q = q0;
      v = v0;
    } else {
      random_state(model, q0, rng, q, v);
    }
    const double t = s == 0 ? 0.0 : time(rng);
    const Eigen::VectorXd q_ref = Eigen::Map<const Eigen::VectorXd>(q.data(), nq);
    const Eigen::VectorXd v_ref = Eigen::Map<const Eigen::VectorXd>(v.data(), nv);
    const Eigen::VectorXd a_ref = reference::forward_dynamics(model, t, q_ref, v_ref);
    const Eigen::MatrixXd M_ref = reference::mass_matrix(model, q_ref);

    if (!forward_dynamics(*compiled, k, t, q.data(), v.data(), w, qdd.data())) {
      std::cout << "state " << s << ": fast path reports a singular joint inertia\n";
      return 1;
    }
    const double a_scale = std::max(1.0, a_ref.cwiseAbs().maxCoeff());
    const double a_error = (Eigen::Map<const Eigen::VectorXd>(qdd.data(), nv) - a_ref).cwiseAbs().maxCoeff() / a_scale;
    mass_matrix(*compiled, k, q.data(), v.data(), w, M.data());
    const Eigen::MatrixXd M_fast = Eigen::Map<const Eigen::Matrix<double, -1, -1, Eigen::RowMajor>>(M.data(), nv, nv);
    const double m_error = (M_fast - M_ref).cwiseAbs().maxCoeff() / std::max(1.0, M_ref.cwiseAbs().maxCoeff());
    // RNEA at the fast-path accelerations must need no extra force: a residual in force units, scaled by M a.
    inverse_dynamics(*compiled, k, t, q.data(), v.data(), qdd.data(), w, tau.data());
    const double force_scale = std::max(1.0, (M_ref * a_ref).cwiseAbs().maxCoeff());
    const double id_error = Eigen::Map<const Eigen::VectorXd>(tau.data(), nv).cwiseAbs().maxCoeff() / force_scale;
    if (!std::isfinite(a_error) || !std::isfinite(m_error) || !std::isfinite(id_error)) {
      std::cout << "state " << s << ": non-finite result\n";
      return 1;
    }
    worst_acceleration = std::max(worst_acceleration, a_error);
    worst_mass_matrix = std::max(worst_mass_matrix, m_error);
    worst_inverse = std::max(worst_inverse, id_error);
  }
  const bool pass = worst_acceleration <= options.tolerance && worst_mass_matrix <= options.tolerance &&
                    worst_inverse <= options.tolerance;
  std::cout << "model: " << model.name << "  states: " << options.states << "  seed: " << options.seed << '\n'
            << "max |a_fast - a_ref| / max(1, max|a_ref|) = " << worst_acceleration << "  (ABA vs reference)\n"
            << "max |M_fast - M_ref| / max(1, max|M_ref|) = " << worst_mass_matrix << "  (CRBA vs reference)\n"
            << "max |RNEA(a_fast)| / max(1, max|M a|)     = " << worst_inverse << "  (inverse dynamics residual)\n"
            << (pass ? "PASS" : "FAIL") << " (tolerance " << options.tolerance << ")\n";
  return pass ? 0 : 1;
}

}  // namespace myriad::cli
