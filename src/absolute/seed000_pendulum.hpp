#pragma once
// Seed 000 sec. 5.1's stiff double pendulum (models/stiff_double_pendulum.json) run in the seed's own coordinates:
// the model file mapped onto Cartesian + Euler-parameter coordinates (absolute/model_mapping.hpp: 2 bodies, 14
// coordinates, 2 revolute joints = 6 CD + 4 DP1, 2 normalizations, the two RSDAs) and integrated as the state-space
// ODE over independent coordinates (absolute/state_space.hpp) by any integrator of the second-order concept (RN4
// for Tables 1-2). theta1 is body 1's rotation about the world z axis from its Euler parameters (continuous over
// the outputs), theta1-dot its angular velocity about z, 2 E(p) p'. Host only; the tests and
// bench/rn4_stiff_pendulum_tables.cpp use it.
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "absolute/model_mapping.hpp"
#include "absolute/state_space.hpp"
#include "core/status.hpp"
#include "integrators/rosenbrock_nystrom.hpp"
#include "integrators/step_control.hpp"
#include "model/model.hpp"

namespace myriad {

using Seed000StateSpace = AbsoluteStateSpace<2, 10>;

struct Seed000AbsoluteRun {
  std::vector<double> theta1, theta1_dot;  // at the output times (RN4's dense output of v, v', then u, u')
  // At the run's own step ends (seed 000 sec. 5.1's protocol: errors at the grid points t_i of the run), t0 first.
  std::vector<double> step_times, step_theta1, step_theta1_dot;
  InstanceStatus status = InstanceStatus::ok;
  IntegratorStats stats;
  std::vector<int> independent;            // the first partition's independent coordinates (indices into q)
  std::vector<int> independent_at_end;
  int repartitions = 0;
  double newton_iterations_per_recovery = 0.0;
};

// The state-space system of a parameter-applied seed 000 pendulum model and its start (x, w). Throws
// std::invalid_argument if the file does not map to 2 bodies, 10 GCONs and 2 RSDAs, or the partition fails.
inline Seed000StateSpace seed000_state_space(const Model& model, double* x, double* w) {
  const AbsoluteMapping mapping = map_to_absolute(model);
  if (mapping.rsdas.size() != 2 || !mapping.unmapped.empty())
    throw std::invalid_argument("seed000_state_space: model '" + model.name +
                                "' does not map to seed 000's pendulum (two RSDAs, nothing unmapped)");
  const AbsoluteModel<2, 10> absolute = absolute_model<2, 10>(mapping);
  const std::vector<double> y = absolute_state<EulerParameterCoordinates>(mapping, world_body_states(model));
  Seed000StateSpace sys;
  if (!sys.initialize(absolute, 0.0, y.data(), y.data() + Seed000StateSpace::NQ, x, w))
    throw std::invalid_argument("seed000_state_space: Phi_q of model '" + model.name + "' has no partition");
  return sys;
}

// body 1's (theta about z, omega_z) from q, q' (its Euler parameters are q[3..6]).
inline void seed000_body1_angle(const double* q, const double* q_dot, double& theta, double& theta_dot) {
  const Quat<double> p{q[3], q[4], q[5], q[6]}, p_dot{q_dot[3], q_dot[4], q_dot[5], q_dot[6]};
  const Mat3<double> A = orientation_matrix(p);
  theta = std::atan2(A(1, 0), A(0, 0));
  theta_dot = global_angular_velocity(p, p_dot).z;
}

// theta1 made continuous: the angle within pi of the previous one.
inline double seed000_continuous(const std::vector<double>& previous, double theta) {
  return previous.empty() ? theta : previous.back() + wrap_to_pi(theta - previous.back());
}

// The state-space system seen by the integrator, recording body 1's angle at every accepted step end (rebase is
// called there, after the step's outputs).
struct Seed000StepRecorder : Seed000StateSpace {
  Seed000AbsoluteRun* run = nullptr;
  bool rebase(double t, double* x, double* w) {
    record(t, x, w);
    return Seed000StateSpace::rebase(t, x, w);
  }
  void record(double t, const double* x, const double* w) {
    double q[Seed000StateSpace::NQ], q_dot[Seed000StateSpace::NQ], theta = NAN, theta_dot = NAN;
    if (configuration(t, x, w, q, q_dot)) seed000_body1_angle(q, q_dot, theta, theta_dot);
    run->step_times.push_back(t);
    run->step_theta1.push_back(seed000_continuous(run->step_theta1, theta));
    run->step_theta1_dot.push_back(theta_dot);
  }
};

// RN4 (seed 000 Algorithm 1) over the output times (the first is t0 = times[0]) at Atol = atol, Rtol = rtol.
inline Seed000AbsoluteRun run_seed000_absolute_rn4(const Model& model, const std::vector<double>& times,
                                                   double rtol, double atol) {
  double x[2], w[2];
  Seed000AbsoluteRun run;
  Seed000StepRecorder sys;
  static_cast<Seed000StateSpace&>(sys) = seed000_state_space(model, x, w);
  sys.run = &run;
  run.independent.assign(sys.independent, sys.independent + 2);
  auto observer = [&](int, double t, const double* y) {
    double q[Seed000StateSpace::NQ], q_dot[Seed000StateSpace::NQ], theta = NAN, theta_dot = NAN;
    if (sys.configuration(t, y, y + 2, q, q_dot)) seed000_body1_angle(q, q_dot, theta, theta_dot);
    run.theta1.push_back(seed000_continuous(run.theta1, theta)), run.theta1_dot.push_back(theta_dot);
  };
  StepControl control;
  control.rtol = rtol, control.atol = atol;
  std::vector<double> work(static_cast<size_t>(rn4_workspace_size(2)));
  sys.record(times.front(), x, w);
  run.status = integrate_rn4(sys, times.front(), x, w, times, static_cast<int>(times.size()), observer, control,
                             work.data(), run.stats);
  run.independent_at_end.assign(sys.independent, sys.independent + 2);
  run.repartitions = sys.repartitions;
  run.newton_iterations_per_recovery =
      sys.recoveries > 0 ? static_cast<double>(sys.newton_iterations) / static_cast<double>(sys.recoveries) : 0.0;
  return run;
}

}  // namespace myriad
