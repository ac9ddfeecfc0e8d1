#pragma once
// Per-instance outcome of a run. A failing instance stops alone with its status; the others go on.
#include "core/hd.hpp"

namespace myriad {

enum class InstanceStatus : int {
  ok = 0,
  step_size_too_small = 1,
  max_steps = 2,
  non_finite = 3,
  singular_matrix = 4,  // the iteration matrix Pi (or a joint inertia) could not be factored
  projection_failed = 5,  // loop models: Newton on Phi(q) = 0 for the dependent coordinates did not converge
  newton_failed = 6,      // implicit DAE integrators: Newton on a time point's equations did not converge
};

constexpr int kInstanceStatusCount = 7;

inline const char* instance_status_name(InstanceStatus s) {
  switch (s) {
    case InstanceStatus::ok: return "ok";
    case InstanceStatus::step_size_too_small: return "step_size_too_small";
    case InstanceStatus::max_steps: return "max_steps";
    case InstanceStatus::non_finite: return "non_finite";
    case InstanceStatus::singular_matrix: return "singular_matrix";
    case InstanceStatus::projection_failed: return "projection_failed";
    case InstanceStatus::newton_failed: return "newton_failed";
  }
  return "unknown";
}

// Work counters of one instance's integration.
struct IntegratorStats {
  long long steps = 0;                 // accepted steps
  long long rejected = 0;              // rejected steps (adaptive methods)
  long long function_evaluations = 0;  // calls of the system's derivative
  long long jacobian_evaluations = 0;  // Jacobian evaluations (Rosenbrock methods)
  long long lu_factorizations = 0;     // LU factorizations of the iteration matrix (Rosenbrock methods)
};

}  // namespace myriad
