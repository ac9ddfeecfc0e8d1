#pragma once
// The System and Observer concepts the integrators in this folder are templated on (integrate_rk4 in rk4.hpp,
// integrate_dopri5 in dopri5.hpp). Documentation only: C++17 has no `concept` keyword, and a base class would
// mean virtual calls in device code. A type models a concept by providing these members; the compiler checks
// them when an integrator is instantiated.
//
// System: the first-order ODE y' = f(t, y) in n = dimension() doubles.
//
//   MYRIAD_HD int dimension() const;
//     The number n of state components. Constant during an integration; every array below has length n.
//
//   MYRIAD_HD bool derivative(double t, const double* y, double* dydt);
//     Writes f(t, y) into dydt. Returns false if the evaluation failed or produced non-finite values (the
//     system checks, e.g. with is_finite from core/scalar.hpp, because only it knows which of its values
//     matter). At a trial stage of an adaptive step a false counts as a rejected step and the step is retried
//     with half the size; at an accepted point (the initial state, the start of a step after a rebase, and
//     every point of a fixed-step method) the integrator stops with InstanceStatus::non_finite. Not const: a
//     system may keep per-instance scratch (articulated-body workspaces) in itself.
//
//   MYRIAD_HD bool rebase(double t, double* y);
//     Called once after each accepted step, with t the end of the step, after the observer has been called
//     for every output time inside or at the end of that step. The system may rewrite y into a new local
//     chart, e.g. fold a local rotation vector into the quaternion it keeps as the base point, and move its
//     base point in itself. Returns true if y (or the meaning of y) changed; the integrator then recomputes
//     the derivative at the new y before the next step, because DOPRI5's FSAL stage and RK4's cached
//     end-of-step derivative belong to the old chart. Nothing is recomputed after the final step. Systems in
//     a plain vector space return false.
//
// Observer: receives the solution at the caller's output times.
//
//   MYRIAD_HD void operator()(int k, double t, const double* y);
//     Called exactly once for each output index k = 0 .. n_outputs-1, in increasing k, with t =
//     output_times[k] bit for bit and y the solution there (the integrator's dense output, or the step's own
//     end value where an output time coincides with a step end). y is valid only during the call and is
//     expressed in the chart in force during the step that contains t, i.e. before that step's rebase.
