#pragma once
// Linearization of a model about a static equilibrium (issue 17, `myriad modes`). The model's second-order
// state-space ODE x'' = f(t, x, w) (trees: chart coordinates, dynamics/tree_second_order.hpp; loops: the
// independent coordinates, loops/loop_ode.hpp, seed 000 eqs. 8-10) is solved for f(t, x, 0) = 0 by Newton on the
// exact Jacobian J1 = df/dx, and linearized there: delta x'' = J1 delta x + J2 delta w, J2 = df/dw. At an
// equilibrium (f = 0, w = 0) the linear system's eigenvalues do not depend on the coordinates chosen, so the
// chart and the loop partition change nothing in the modes. Host only (Eigen, allocation).
#include <string>
#include <vector>

#include "model/compiled_model.hpp"

namespace myriad {

struct EquilibriumOptions {
  bool solve = true;           // false: linearize at the given state as it is (f need not vanish there)
  int max_iterations = 100;
  double tolerance = 1e-10;    // on max |x''| relative to max(1, |gravity|) (m/s^2 or rad/s^2); Newton also stops once
                               // its full step is below 1e-10 of the coordinates (the roundoff floor of light bodies)
};

struct Linearization {
  int n = 0;                   // second-order coordinates (trees: nv; loops: independent coordinates)
  double t = 0.0;              // the time linearized at (time functions are held at their values there)
  std::vector<double> q, v;    // the equilibrium as full coordinates (nq) and velocities (nv, zero when solved)
  std::vector<double> f;       // x'' there (n); zero to the tolerance when solved
  std::vector<double> J1, J2;  // df/dx and df/dw, n x n row-major
  std::vector<int> coordinate; // the velocity index (into v) each of the n coordinates moves
  int iterations = 0;          // Newton iterations taken (0 without solve)
  double residual = 0.0;       // max |f| at the end
};

// Linearizes the model with constants k (pack_constants) at time t, starting from (q0, v0) (nq, nv). With
// options.solve, v is set to zero and Newton moves the coordinates to f = 0 (backtracking when a step does not
// reduce max |f|). Throws std::runtime_error naming the reason when there is no equilibrium to find (a singular
// J1: a coordinate with no restoring force, as a free body has) or Newton does not converge, or the dynamics fail
// (a singular inertia, loops that do not close). Cost: O(iterations n^3) plus the Jacobians' Dual passes.
Linearization linearize(const CompiledModel& model, const double* k, double t, const double* q0, const double* v0,
                        const EquilibriumOptions& options);

}  // namespace myriad
