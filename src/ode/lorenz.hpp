#pragma once
// The Lorenz system, a built-in first-order ODE model: the workload on which published GPU ensemble solvers
// report their speed (MPGOS, DiffEqGPU), so that Myriad's ensemble machinery can be calibrated against them on
// their own problem.
//   x' = sigma (y - x),  y' = x (rho - z) - y,  z' = x y - beta z,
// one instance per rho, spread evenly over [rho_min, rho_max]; fixed-step RK4 (integrators/rk4.hpp) from t0 to
// t_end. Host and device, templated on the state's scalar (float or double), no allocation.
#include "core/hd.hpp"
#include "core/scalar.hpp"
#include "core/status.hpp"
#include "integrators/rk4.hpp"

namespace myriad {

// The ensemble: the published benchmark's defaults (sigma 10, beta 8/3, rho over [0, 21], t in [0, 1], 1000
// RK4 steps). The initial state (1, 0, 0) is DiffEqGPU's; it changes the numbers, not the work.
struct LorenzSpec {
  double sigma = 10.0, beta = 8.0 / 3.0;
  double rho_min = 0.0, rho_max = 21.0;
  double initial[3] = {1.0, 0.0, 0.0};
  double t0 = 0.0, t_end = 1.0;
  long long steps = 1000;
};

template <class Real>
struct LorenzSystem {
  Real sigma, rho, beta;
  MYRIAD_HD int dimension() const { return 3; }
  MYRIAD_HD bool derivative(double, const Real* y, Real* dydt) const {
    dydt[0] = sigma * (y[1] - y[0]);
    dydt[1] = y[0] * (rho - y[2]) - y[1];
    dydt[2] = y[0] * y[1] - beta * y[2];
    return is_finite(dydt[0]) && is_finite(dydt[1]) && is_finite(dydt[2]);
  }
  MYRIAD_HD bool rebase(double, Real*) const { return false; }
};

// Instance i's rho of an ensemble of n (evenly spaced, both ends included).
MYRIAD_HD_INLINE double lorenz_rho(const LorenzSpec& spec, long long i, long long n) {
  return n > 1 ? spec.rho_min + (spec.rho_max - spec.rho_min) * static_cast<double>(i) / static_cast<double>(n - 1)
               : spec.rho_min;
}

// Keeps the state handed over at the (single) output time t_end.
template <class Real>
struct LorenzFinalState {
  Real* out;  // 3
  MYRIAD_HD void operator()(int, double, const Real* y) {
    out[0] = y[0];
    out[1] = y[1];
    out[2] = y[2];
  }
};

// Integrates one instance with parameter rho and writes its state at t_end to final_state (3; NaN if the
// instance failed). work: rk4_workspace_size(3) Reals. Returns the integrator's status (non_finite if the state
// blows up). Cost: 4 evaluations per step.
template <class Real>
MYRIAD_HD InstanceStatus simulate_lorenz_instance(const LorenzSpec& spec, Real rho, Real* final_state, Real* work,
                                                  IntegratorStats& stats) {
  for (int j = 0; j < 3; ++j) final_state[j] = static_cast<Real>(quiet_nan());
  LorenzSystem<Real> system{static_cast<Real>(spec.sigma), rho, static_cast<Real>(spec.beta)};
  Real y[3] = {static_cast<Real>(spec.initial[0]), static_cast<Real>(spec.initial[1]),
               static_cast<Real>(spec.initial[2])};
  const double h = (spec.t_end - spec.t0) / static_cast<double>(spec.steps);
  LorenzFinalState<Real> observer{final_state};
  const double output_time = spec.t_end;  // a local: spec may live in a kernel's parameter space
  return integrate_rk4(system, spec.t0, h, y, &output_time, 1, observer, work, stats, spec.steps + 1);
}

}  // namespace myriad
