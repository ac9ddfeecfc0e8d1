// Seed 002 sec. 4.4 (Tables 8-10, Figs. 5-7) for its three representations: backward Euler (eqs. 32-38 for rA,
// 40-45 for rp and re) on the single and double pendulum in absolute coordinates, rA (the rotation matrix on
// SO(3), absolute/rotation_matrix_dynamics.hpp), rp (Euler parameters) and re (ZXZ Euler angles), over 1 s at
// h = 1e-2 .. 1.25e-3: errors of rod 1's (single) or rod 2's (double) centre of mass z, its velocity and
// acceleration against the index-1 equations integrated by RK4 at h = 1e-4 (which agree with the joint-
// coordinate engine to 1e-12, tests/absolute/absolute_dynamics_test.cpp), the fitted order, Newton iterations
// per step and wall time per step; then the kinematics of the driven single pendulum in all three, and the
// rA : rp : re time ratios beside the seed's Tables 8 and 10.
// Usage: seed002_absolute [OUT.md]   (default bench/results/seed002_absolute.md)
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

#include "absolute/absolute_dynamics.hpp"
#include "absolute/absolute_kinematics.hpp"
#include "absolute/rotation_matrix_dynamics.hpp"
#include "absolute/rotation_matrix_kinematics.hpp"
#include "absolute/seed002_mechanisms.hpp"
#include "bench_support.hpp"
#include "integrators/implicit_coefficients.hpp"
#include "integrators/implicit_integrate.hpp"

using namespace myriad;

namespace {

// The single (NB = 1) or double (NB = 2) pendulum of src/absolute/seed002_mechanisms.hpp.
template <int NB>
auto pendulum_model() {
  if constexpr (NB == 1)
    return seed002_single_pendulum();
  else
    return seed002_double_pendulum();
}

struct Row {
  double h, position, velocity, acceleration, iterations, microseconds;
};

// The last rod's CM z, z' and z'' at t = 1 from the index-1 equations in representation Rep by RK4, h = 1e-4.
template <class Rep, int NB>
void reference_motion(double ref[3]) {
  const auto model = pendulum_model<NB>();
  using Dae = AbsoluteDae<Rep, NB, 5 * NB>;
  Dae dae;
  dae.model = &model;
  const int tracked = (NB - 1) * Dae::kPerBody + 2;  // the last rod's CM z
  // Reference: the index-1 equations by RK4, h = 1e-4, to t = 1.
  std::vector<double> y = seed002_pendulum_start<Rep>(NB);
  const int n = Dae::NY;
  std::vector<double> k1(n), k2(n), k3(n), k4(n), stage(n);
  double z[Dae::NZ];
  auto f = [&](double t, const std::vector<double>& s, std::vector<double>& out) {
    for (int i = 0; i < Dae::NQ; ++i) out[i] = s[Dae::NQ + i];
    dae.accelerations(t, s.data(), out.data() + Dae::NQ, z);
  };
  const double H = 1e-4;
  for (int step = 0; step < 10000; ++step) {
    const double t = step * H;
    f(t, y, k1);
    for (int i = 0; i < n; ++i) stage[i] = y[i] + 0.5 * H * k1[i];
    f(t + 0.5 * H, stage, k2);
    for (int i = 0; i < n; ++i) stage[i] = y[i] + 0.5 * H * k2[i];
    f(t + 0.5 * H, stage, k3);
    for (int i = 0; i < n; ++i) stage[i] = y[i] + H * k3[i];
    f(t + H, stage, k4);
    for (int i = 0; i < n; ++i) y[i] += H / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
  std::vector<double> a(n);
  f(1.0, y, a);
  ref[0] = y[tracked], ref[1] = y[Dae::NQ + tracked], ref[2] = a[Dae::NQ + tracked];
}

template <class Rep, int NB>
std::vector<Row> study() {
  const auto model = pendulum_model<NB>();
  using Dae = AbsoluteDae<Rep, NB, 5 * NB>;
  Dae dae;
  dae.model = &model;
  const int tracked = (NB - 1) * Dae::kPerBody + 2;  // the last rod's CM z
  double ref[3];
  reference_motion<Rep, NB>(ref);
  std::vector<Row> rows;
  const ImplicitScheme euler = implicit_scheme(ImplicitMethod::backward_euler, 0.0);
  const std::vector<double> y0 = seed002_pendulum_start<Rep>(NB);
  for (long long steps : {100, 200, 400, 800}) {
    std::vector<double> work(static_cast<size_t>(implicit_workspace_size(Dae::NY, Dae::NZ)));
    double last[3] = {};
    auto observer = [&](long long, double, const double* yk, const double* ydot, const double*) {
      last[0] = yk[tracked], last[1] = yk[Dae::NQ + tracked], last[2] = ydot[Dae::NQ + tracked];
    };
    ImplicitStats stats;
    const auto start = std::chrono::steady_clock::now();
    const InstanceStatus status =
        integrate_implicit(dae, euler, 0.0, 1.0 / steps, steps, y0.data(), work.data(), ImplicitOptions(), stats, observer);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (status != InstanceStatus::ok) {
      std::cerr << Rep::kName << " " << NB << " bodies, " << steps << " steps: " << instance_status_name(status) << "\n";
      continue;
    }
    rows.push_back({1.0 / steps, std::fabs(last[0] - ref[0]), std::fabs(last[1] - ref[1]), std::fabs(last[2] - ref[2]),
                    static_cast<double>(stats.newton_iterations) / stats.steps, 1e6 * seconds / stats.steps});
  }
  return rows;
}

// rA (seed 002 eqs. 32-38): the same runs with RotationMatrixDynamics, the same tolerances as the rp / re rows
// (its own predictor: the last point's solution), and the same reference motion (the rp index-1 equations; the CM's motion does not depend on the
// representation). A run of 100-800 steps takes milliseconds here, so each is repeated until 0.2 s have passed
// and the time per step averaged over the repeats.
template <int NB>
std::vector<Row> study_rotation_matrix(RotationMatrixIterationMatrix kind) {
  const auto model = pendulum_model<NB>();
  using Dynamics = RotationMatrixDynamics<NB, 5 * NB>;
  Dynamics dynamics;
  dynamics.model = &model;
  std::vector<double> scratch(static_cast<size_t>(dynamics.integration_scratch_size()));
  double ref[3];
  reference_motion<EulerParameterCoordinates, NB>(ref);
  std::vector<Row> rows;
  for (long long steps : {100, 200, 400, 800}) {
    RotationMatrixState<NB> state;
    double x[Dynamics::NX];
    ImplicitStats stats;
    InstanceStatus status = InstanceStatus::ok;
    long long runs = 0, total_steps = 0;
    const auto start = std::chrono::steady_clock::now();
    double seconds = 0.0;
    while (seconds < 0.2 && status == InstanceStatus::ok) {
      state = seed002_rotation_matrix_start<NB>();
      stats = ImplicitStats();
      status = integrate_rotation_matrix_backward_euler(dynamics, 0.0, 1.0 / steps, steps, state, x, ImplicitOptions(),
                                                        kind, stats, scratch.data(),
                                                        [](long long, double, const RotationMatrixState<NB>&,
                                                           const double*) {});
      ++runs, total_steps += stats.steps;
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    if (status != InstanceStatus::ok) {
      std::cerr << "rA " << NB << " bodies, " << steps << " steps: " << instance_status_name(status) << "\n";
      continue;
    }
    const int last = NB - 1;
    rows.push_back({1.0 / steps, std::fabs(state.r[last].z - ref[0]), std::fabs(state.r_dot[last].z - ref[1]),
                    std::fabs(x[Dynamics::kPerBody * last + 2] - ref[2]),
                    static_cast<double>(stats.newton_iterations) / static_cast<double>(stats.steps),
                    1e6 * seconds / static_cast<double>(total_steps)});
  }
  return rows;
}

double slope(const std::vector<Row>& rows, int which) {
  std::vector<double> h, error;
  for (const Row& r : rows) {
    h.push_back(r.h);
    error.push_back(which == 0 ? r.position : which == 1 ? r.velocity : r.acceleration);
  }
  return bench::fitted_order(h, error);
}

// Mean wall time per step and per Newton iteration over a representation's step sizes (microseconds).
struct Cost {
  double step = 0.0, iteration = 0.0;
};

// Writes one representation's rows and fitted orders; returns its mean costs.
Cost report_rows(std::ostringstream& md, const char* mechanism, const char* representation,
                 const std::vector<Row>& rows) {
  double microseconds = 0.0, iterations = 0.0, per_iteration = 0.0;
  for (const Row& r : rows) {
    md << "| " << mechanism << " | " << representation << " | " << r.h << " | " << r.position << " | " << r.velocity << " | "
       << r.acceleration << " | " << std::fixed << std::setprecision(2) << r.iterations << " | " << std::setprecision(0)
       << r.microseconds << std::defaultfloat << std::setprecision(3) << " |\n";
    microseconds += r.microseconds, iterations += r.iterations, per_iteration += r.microseconds / r.iterations;
  }
  md << "| " << mechanism << " | " << representation << " | fitted order | " << std::fixed << std::setprecision(2)
     << slope(rows, 0) << " | " << slope(rows, 1) << " | " << slope(rows, 2) << " | " << iterations / rows.size()
     << " | " << std::defaultfloat << std::setprecision(3) << "|\n";
  const double n = static_cast<double>(rows.size());
  return {microseconds / n, per_iteration / n};
}

template <class Rep, int NB>
Cost report(std::ostringstream& md, const char* mechanism) {
  return report_rows(md, mechanism, Rep::kName, study<Rep, NB>());
}

template <int NB>
Cost report_rotation_matrix(std::ostringstream& md, const char* mechanism, RotationMatrixIterationMatrix kind) {
  const char* name = kind == RotationMatrixIterationMatrix::exact ? "rA" : "rA, eq. 37 G";
  return report_rows(md, mechanism, name, study_rotation_matrix<NB>(kind));
}

// Kinematics (seed 002 sec. 4.3, Tables 8-9): the driven single pendulum (its local y axis at pi/2 + pi/4 cos 2t
// from -z) over one period at h = 1e-3, position analysis to a correction below 1e-10 from the previous step's
// q, then velocity and acceleration analyses. Returns microseconds per step; writes mean iterations per step.
template <class Rep>
double kinematics(double& iterations_per_step) {
  const AbsoluteModel<1, 6> model = seed002_driven_single_pendulum();
  AbsoluteKinematics<Rep, 1, 6> analysis;
  analysis.dae.model = &model;
  constexpr int NQ = AbsoluteKinematics<Rep, 1, 6>::NQ;
  // The pose at t = 0: the rod at pi/4 from -z.
  const double alpha = 0.25 * M_PI;
  std::vector<double> q;
  append_seed002_rod<Rep>(q, {0.0, 2.0 * std::sin(alpha), -2.0 * std::cos(alpha)}, alpha);
  const double h = 1e-3;
  const int steps = static_cast<int>(std::lround(M_PI / h));
  long long total = 0;
  double q_dot[NQ], q_ddot[NQ];
  const auto start = std::chrono::steady_clock::now();
  for (int repeat = 0; repeat < 10; ++repeat)  // seed 002 averages 10 runs
    for (int step = 1; step <= steps; ++step) {
      int iterations = 0;
      analysis.positions(step * h, q.data(), iterations);
      analysis.velocities(step * h, q.data(), q_dot);
      analysis.accelerations(step * h, q.data(), q_dot, q_ddot);
      total += iterations;
    }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  iterations_per_step = static_cast<double>(total) / (10.0 * steps);
  return 1e6 * seconds / (10.0 * steps);
}

// The same kinematics in rA (absolute/rotation_matrix_kinematics.hpp): A corrected by A exp(-dtheta-bar~).
double kinematics_rotation_matrix(double& iterations_per_step) {
  const AbsoluteModel<1, 6> model = seed002_driven_single_pendulum();
  RotationMatrixKinematics<1, 6> analysis;
  analysis.dynamics.model = &model;
  const double alpha = 0.25 * M_PI;
  RotationMatrixState<1> state = seed002_rotation_matrix_start<1>();
  state.r[0] = {0.0, 2.0 * std::sin(alpha), -2.0 * std::cos(alpha)};
  state.A[0] = seed002_rod_orientation(alpha);
  const double h = 1e-3;
  const int steps = static_cast<int>(std::lround(M_PI / h));
  long long total = 0;
  Vec3<double> r_ddot[1], omega_bar_dot[1];
  const auto start = std::chrono::steady_clock::now();
  for (int repeat = 0; repeat < 10; ++repeat)  // seed 002 averages 10 runs
    for (int step = 1; step <= steps; ++step) {
      int iterations = 0;
      analysis.positions(step * h, state, iterations);
      analysis.velocities(step * h, state);
      analysis.accelerations(step * h, state, r_ddot, omega_bar_dot);
      total += iterations;
    }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  iterations_per_step = static_cast<double>(total) / (10.0 * steps);
  return 1e6 * seconds / (10.0 * steps);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out_path = argc > 1 ? argv[1] : bench::source_path("bench/results/seed002_absolute.md");
  std::ostringstream md;
  md << std::setprecision(3);
  md << "# Seed 002 in absolute coordinates: backward Euler, rA, rp and re\n\n"
     << "Regenerate: `build/bench/seed002_absolute` (writes this file; about ten seconds). Machine: "
     << bench::machine_description() << ".\n\n"
     << "Seed 002 sec. 4.4 on its single pendulum (one 4 m, 78 kg rod, released from the horizontal) and double\n"
     << "pendulum (rods of 4 m / 78 kg and 2 m / 39 kg, `tests/data/seed002/README.md`) over 1 s: backward Euler.\n"
     << "rp and re: seed 002 eqs. 40-45, `integrators/implicit_integrate.hpp` with `absolute/absolute_dynamics.hpp`,\n"
     << "full Newton with exact Jacobians assembled block by block (per body, per GCON, per force element; the\n"
     << "blocks' partials on small dual numbers). rA: eqs. 32-38, `absolute/rotation_matrix_dynamics.hpp`\n"
     << "(A_n+1 = A_n exp(h omega-bar~)), Newton with eq. 38's iteration matrix, the reaction-force sensitivities\n"
     << "in closed form (Tables 3-6, `absolute/gcon_reaction_sensitivity.hpp`); \"rA\" keeps the right Jacobian of exp in its orientation columns (full Newton),\n"
     << "\"rA, eq. 37 G\" drops it as the seed's eq. 37 does (quasi-Newton). All: rtol = atol = 1e-10, the same\n"
     << "convergence test; the predictors differ (below). Errors of the last rod's centre-of-mass z, z' and z'' at t = 1 s against\n"
     << "the index-1 equations integrated by RK4 at h = 1e-4 (these agree with the joint-coordinate engine to\n"
     << "1e-12 m). it/step = Newton iterations per step (seed Table 9); us/step = wall time per step on one core\n"
     << "(rA: averaged over repeated runs, at least 0.2 s).\n\n"
     << "| mechanism | representation | h | z error | z' error | z'' error | it/step | us/step |\n"
     << "|---|---|---|---|---|---|---|---|\n";
  const Cost single_ra = report_rotation_matrix<1>(md, "single pendulum", RotationMatrixIterationMatrix::exact);
  report_rotation_matrix<1>(md, "single pendulum", RotationMatrixIterationMatrix::seed_eq37);
  const Cost single_rp = report<EulerParameterCoordinates, 1>(md, "single pendulum");
  const Cost single_re = report<EulerAngleCoordinates, 1>(md, "single pendulum");
  const Cost double_ra = report_rotation_matrix<2>(md, "double pendulum", RotationMatrixIterationMatrix::exact);
  report_rotation_matrix<2>(md, "double pendulum", RotationMatrixIterationMatrix::seed_eq37);
  const Cost double_rp = report<EulerParameterCoordinates, 2>(md, "double pendulum");
  const Cost double_re = report<EulerAngleCoordinates, 2>(md, "double pendulum");
  double iterations_ra = 0, iterations_rp = 0, iterations_re = 0;
  const double kinematics_ra = kinematics_rotation_matrix(iterations_ra);
  const double kinematics_rp = kinematics<EulerParameterCoordinates>(iterations_rp);
  const double kinematics_re = kinematics<EulerAngleCoordinates>(iterations_re);
  md << "\n## Kinematics (seed 002 sec. 4.3, Tables 8-9)\n\n"
     << "The driven single pendulum (local y at pi/2 + pi/4 cos 2t from -z, 3 CD + 3 DP1), one period at h = 1e-3,\n"
     << "positions to a correction below 1e-10 from the previous step, then velocities and accelerations (which\n"
     << "agree with the closed form to 1e-14, tests/absolute/absolute_kinematics_test.cpp and\n"
     << "rotation_matrix_dynamics_test.cpp), 10 runs:\n\n"
     << "| representation | iterations per step (seed Table 9: 3.80 rA, 3.82 rp, 3.80 re) | us per step |\n|---|---|---|\n"
     << std::fixed << std::setprecision(2) << "| rA | " << iterations_ra << " | " << kinematics_ra << " |\n| rp | "
     << iterations_rp << " | " << kinematics_rp << " |\n| re | " << iterations_re << " | " << kinematics_re
     << " |\n\nSpeed-up relative to rp (seed Table 8, single pendulum: rA 2.21x / 2.63x, re 1.40x / 1.27x in its codes C1\n"
     << "/ C2): rA " << kinematics_rp / kinematics_ra << "x, re " << kinematics_rp / kinematics_re << "x. The re rows "
     << "evaluate the three ZXZ factors and their first and second derivatives\n"
     << "(trigonometric functions) afresh for every body-fixed vector of every GCON, where rp's are polynomial in p\n"
     << "and rA's are products with A; nothing is cached between the GCONs of a body yet.\n"
     << std::defaultfloat;
  md << "\n## Dynamics: time per step relative to rp (seed Table 10)\n\n"
     << "Mean over the four step sizes (seed Table 10: h = 1e-3; its codes C1 / C2), per step and per Newton\n"
     << "iteration. The predictors differ: rp and re extrapolate the accelerations (integrate_implicit's Hermite\n"
     << "predictor), rA starts each step's Newton from the last point's solution (robust where a stiff force element\n"
     << "makes the accelerations jump: `integrate_rotation_matrix_backward_euler`), which here also takes fewer\n"
     << "iterations per step; the per-iteration column is the representations' own cost.\n\n"
     << "| mechanism | rA per step | rA per iteration | re per step | re per iteration | seed rA (C1 / C2) | "
        "seed re (C1 / C2) |\n|---|---|---|---|---|---|---|\n"
     << std::fixed << std::setprecision(2) << "| single pendulum | " << single_rp.step / single_ra.step << "x | "
     << single_rp.iteration / single_ra.iteration << "x | " << single_rp.step / single_re.step << "x | "
     << single_rp.iteration / single_re.iteration << "x | 2.43 / 2.46 | 1.29 / 1.69 |\n"
     << "| double pendulum | " << double_rp.step / double_ra.step << "x | "
     << double_rp.iteration / double_ra.iteration << "x | " << double_rp.step / double_re.step << "x | "
     << double_rp.iteration / double_re.iteration << "x | 2.63 / 2.39 | 1.21 / 1.53 |\n\n" << std::defaultfloat
     << "All three assemble their Newton matrices block by block: from the mass blocks, the rotational terms'\n"
     << "partials (per body), the GCON rows and the reaction-force sensitivities. rA takes the sensitivities in\n"
     << "closed form (seed Tables 3-6, derived afresh: session 24; before, one 12-wide dual evaluation per GCON,\n"
     << "about 80% of its step, made it 4.9x / 5.6x faster than rp per step); rp and re still take them on dual\n"
     << "numbers over the GCON's two bodies (14 and 12 wide). The formulations differ too (not apportioned here\n"
     << "between the two causes of the gap beyond the seed's ratios): rA solves 6 NB + NC unknowns (r'', omega-bar', lambda) per iteration, rp and re\n"
     << "2 NQ + NZ (positions, velocities and multipliers of the first-order DAE of eqs. 40-45; rp with one more\n"
     << "coordinate and one more multiplier per body), and their rotational blocks come from Lagrange's equations\n"
     << "on dual numbers (nested three deep) where rA's are J-bar and omega-bar~ J-bar.\n";
  std::ofstream(out_path) << md.str();
  std::cout << md.str();
  return 0;
}
