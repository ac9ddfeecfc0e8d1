// Orders of convergence of the seed 003 integrators (and backward Euler): on the plane pendulum as a smooth ODE
// (theta'' = -(g/L) sin theta, theta0 = 1 rad, t = 1 s) and as the Cartesian index-3 DAE of seeds 002/003 (same
// motion; positions, velocities and the multiplier lambda at t = 1 s), against RK4 at h = 2.5e-5 on the angle form.
// The fitted order is the least-squares slope of log error against log dt over four halvings. The ODE slopes are
// what tests/integrators/implicit_integrate_test.cpp asserts (within 0.2 of nominal); the DAE columns show the
// order reduction of index 3 (the stage order of the ESDIRKs is 2).
// Usage: implicit_convergence [OUT.md]   (default bench/results/implicit_convergence.md)
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

#include "bench_support.hpp"
#include "integrators/implicit_coefficients.hpp"
#include "integrators/implicit_integrate.hpp"
#include "ode/implicit_test_problems.hpp"

using namespace myriad;

namespace {

struct Reference {
  double theta = 1.0, omega = 0.0, lambda = 0.0;
};

Reference pendulum_reference() {
  Reference r;
  pendulum_angle_reference(PendulumAngleDae(), 1.0, r.theta, r.omega);
  const double theta = r.theta, omega = r.omega;
  // lambda = m (v^2 - g y) / L^2 with y = -L cos theta, v = L omega (m = 1): the multiplier per unit length.
  const PendulumCartesianDae c;
  r.lambda = c.mass * (c.length * c.length * omega * omega + c.gravity * c.length * std::cos(theta)) / (c.length * c.length);
  return r;
}

template <class System>
bool final_state(System& system, const ImplicitScheme& s, long long steps, const std::vector<double>& y0,
                 std::vector<double>& y, double& z, double tolerance) {
  const int n = system.differential_dimension(), m = system.algebraic_dimension();
  std::vector<double> work(static_cast<size_t>(implicit_workspace_size(n, m)));
  ImplicitOptions options;
  options.newton_rtol = options.newton_atol = tolerance;
  ImplicitStats stats;
  y.assign(static_cast<size_t>(n), 0.0);
  z = 0.0;
  auto observer = [&](long long, double, const double* yk, const double*, const double* zk) {
    for (int i = 0; i < n; ++i) y[static_cast<size_t>(i)] = yk[i];
    if (m > 0) z = zk[0];
  };
  return integrate_implicit(system, s, 0.0, 1.0 / steps, steps, y0.data(), work.data(), options, stats, observer) ==
         InstanceStatus::ok;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out_path = argc > 1 ? argv[1] : bench::source_path("bench/results/implicit_convergence.md");
  const Reference ref = pendulum_reference();
  std::ostringstream md;
  md << std::setprecision(3);
  md << "# Orders of convergence of the implicit integrators\n\n"
     << "Regenerate: `build/bench/implicit_convergence` (writes this file; a few seconds). Machine: "
     << bench::machine_description() << ".\n\n"
     << "The plane pendulum (g = 9.81, L = 1, theta0 = 1 rad, at rest) to t = 1 s: as the smooth ODE theta'' = -(g/L)\n"
     << "sin theta (error in the phase plane (theta, omega / sqrt(g/L))) and as the Cartesian index-3 DAE of\n"
     << "`ode/implicit_test_problems.hpp` (errors of the position, the velocity and the multiplier lambda), against\n"
     << "RK4 at h = 2.5e-5 on the angle form, the DAE on 4x the ODE's step counts. Newton rtol = atol = 1e-13 on the\n"
     << "ODE, the default 1e-10 on the DAE (its multiplier's rounding floor grows like 1/dt^2: at 1e-13 Newton\n"
     << "stalls above the tolerance at dt = 1/640). Slope = least-squares fit of log error\n"
     << "against log dt over the four step counts shown (the higher-order methods at rho_inf = 1 on finer steps,\n"
     << "where MSSTH(4) is asymptotic). Index 3 costs the multipliers (and with them the velocities of several\n"
     << "methods) orders: the ESDIRKs have stage order 2, and an index-3 DAE loses up to two orders in lambda.\n\n"
     << "| method | rho_inf | nominal | steps | ODE slope | ODE error at finest | DAE position slope | DAE velocity slope | "
        "DAE lambda slope |\n|---|---|---|---|---|---|---|---|---|\n";
  for (int i = 0; i < kImplicitMethodCount; ++i) {
    const ImplicitMethod method = static_cast<ImplicitMethod>(i);
    for (double rho : {0.0, 0.6, 1.0}) {
      if (rho != 0.0 && !implicit_method_tunable(method)) continue;
      const ImplicitScheme s = implicit_scheme(method, rho);
      const std::vector<long long> counts = s.order <= 2   ? std::vector<long long>{20, 40, 80, 160}
                                            : rho < 1.0      ? std::vector<long long>{10, 20, 40, 80}
                                                             : std::vector<long long>{40, 80, 160, 320};
      std::vector<double> dts, ode, position, velocity, lambda;
      bool ok = true;
      for (long long steps : counts) {
        PendulumAngleDae angle;
        std::vector<double> y;
        double z;
        if (!final_state(angle, s, steps, {1.0, 0.0}, y, z, 1e-13)) ok = false;
        dts.push_back(1.0 / steps);
        ode.push_back(std::hypot(y[0] - ref.theta, (y[1] - ref.omega) / std::sqrt(angle.gravity / angle.length)));
        PendulumCartesianDae cart;
        const double L = cart.length;
        if (!final_state(cart, s, 4 * steps, {L * std::sin(1.0), -L * std::cos(1.0), 0.0, 0.0}, y, z, 1e-10)) ok = false;
        position.push_back(std::hypot(y[0] - L * std::sin(ref.theta), y[1] + L * std::cos(ref.theta)));
        velocity.push_back(std::hypot(y[2] - L * std::cos(ref.theta) * ref.omega, y[3] - L * std::sin(ref.theta) * ref.omega));
        lambda.push_back(std::fabs(z - ref.lambda));
      }
      md << "| " << implicit_method_name(method) << " | " << rho << " | " << s.order << " | " << counts.front() << "-"
         << counts.back() << " | ";
      if (!ok) {
        md << "failed | | | | |\n";
        continue;
      }
      md << std::fixed << std::setprecision(2) << bench::fitted_order(dts, ode) << " | " << std::scientific << std::setprecision(2)
         << ode.back() << " | " << std::fixed << bench::fitted_order(dts, position) << " | " << bench::fitted_order(dts, velocity) << " | "
         << bench::fitted_order(dts, lambda) << " |\n"
         << std::defaultfloat << std::setprecision(3);
    }
  }
  std::ofstream(out_path) << md.str();
  std::cout << md.str();
  return 0;
}
