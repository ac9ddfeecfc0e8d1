// The fast path's loop code against the dense reference (constraint rows, both acceleration methods, exact
// Jacobians) and the physics acceptance runs of closed-loop models: constraint drift, Andrews' squeezer against
// the published reference solution with its energy balance, a driven 0-DOF mechanism against its closed-form
// kinematics.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "constraints/constraint_equations.hpp"
#include "loops/loop_support.hpp"
#include "reference/reference_constrained.hpp"

namespace myriad::testing {
namespace loop_fast_path_test {

using Eigen::MatrixXd;
using Eigen::VectorXd;

const char* const kLoopModels[] = {"loops/four_bar.json", "loops/slider_crank.json",
                                   "loops/andrews_squeezer.json"};

// Fast-path rows scattered to a dense m x nv Jacobian.
MatrixXd dense_jacobian(const CompiledModel& c, const ConstraintRows<double>& rows) {
  const CompiledConstraints& k = c.constraints;
  MatrixXd G = MatrixXd::Zero(k.m, c.nv);
  for (int r = 0; r < k.m; ++r)
    for (int s = 0; s < k.row_width[r]; ++s) G(r, k.slot_column[k.row_slots[r] + s]) += rows.g[k.row_values[r] + s];
  return G;
}

TEST(LoopFastPath, ConstraintRowsMatchTheDenseReference) {
  for (const char* file : kLoopModels) {
    SCOPED_TRACE(file);
    const Model model = loop_model_with_state_outputs(file);
    LoopInstance inst(model);
    ASSERT_TRUE(inst.ode.initialize(0.3, inst.q.data(), inst.v.data(), inst.y.data()));
    // Arbitrary velocities (not consistent) exercise every velocity term of gamma.
    for (int i = 0; i < inst.compiled->nv; ++i) inst.ode.s.v[i] = 0.7 - 0.3 * i;
    const double t = 0.3;
    tree_kinematics(*inst.compiled, inst.constants.data(), inst.ode.s.q, inst.ode.s.v, inst.ode.s.tree);
    bias_accelerations(*inst.compiled, inst.ode.s.tree, inst.ode.s.partition.a0);
    evaluate_constraint_rows(*inst.compiled, inst.constants.data(), t, inst.ode.s.q, inst.ode.s.tree,
                             inst.ode.s.partition.a0, inst.ode.s.partition.rows);
    const VectorXd q = Eigen::Map<const VectorXd>(inst.ode.s.q, inst.compiled->nv);
    const VectorXd v = Eigen::Map<const VectorXd>(inst.ode.s.v, inst.compiled->nv);
    const constraints::ConstraintEvaluation ref = constraints::evaluate_constraints(model, t, q, v);
    const int m = inst.compiled->constraints.m;
    const ConstraintRows<double>& rows = inst.ode.s.partition.rows;
    EXPECT_LE((Eigen::Map<const VectorXd>(rows.phi, m) - ref.phi).cwiseAbs().maxCoeff(), 1e-14);
    EXPECT_LE((dense_jacobian(*inst.compiled, rows) - ref.G).cwiseAbs().maxCoeff(), 1e-13);
    EXPECT_LE((Eigen::Map<const VectorXd>(rows.phi_t, m) - ref.phi_t).cwiseAbs().maxCoeff(), 1e-13);
    EXPECT_LE((Eigen::Map<const VectorXd>(rows.gamma, m) - ref.gamma).cwiseAbs().maxCoeff(),
              1e-12 * std::max(1.0, ref.gamma.cwiseAbs().maxCoeff()));
  }
}

TEST(LoopFastPath, BothMethodsMatchTheReferenceAugmentedSystem) {
  for (const char* file : kLoopModels) {
    SCOPED_TRACE(file);
    const Model model = loop_model_with_state_outputs(file);
    for (int method : {kLoopMethodReduction, kLoopMethodStandard}) {
      LoopInstance inst(model, method);
      ASSERT_TRUE(inst.ode.initialize(0.1, inst.q.data(), inst.v.data(), inst.y.data()));
      const int nv = inst.compiled->nv;
      const VectorXd q = Eigen::Map<const VectorXd>(inst.ode.s.q, nv);
      const VectorXd v = Eigen::Map<const VectorXd>(inst.ode.s.v, nv);
      const reference::ConstrainedDynamics ref = reference::constrained_forward_dynamics(model, 0.1, q, v);
      ASSERT_EQ(ref.status, reference::ConstrainedDynamics::Status::ok);
      const VectorXd a = Eigen::Map<const VectorXd>(inst.ode.s.vdot, nv);
      EXPECT_LE((a - ref.vdot).cwiseAbs().maxCoeff(), 1e-10 * std::max(1.0, ref.vdot.cwiseAbs().maxCoeff()))
          << "method " << method;
    }
  }
}

// J1 = df/dx and J2 = df/dw of the state-space ODE by Dual passes through Newton against central differences.
TEST(LoopFastPath, ExactJacobiansMatchCentralDifferences) {
  // Every loop model with degrees of freedom (the slider crank and the four-link have none).
  for (const char* file : {"loops/four_bar.json", "loops/andrews_squeezer.json", "loops/five_bar.json",
                           "loops/ladder/ladder_L4.json"}) {
    SCOPED_TRACE(file);
    LoopInstance inst(loop_model_with_state_outputs(file));
    ASSERT_TRUE(inst.ode.initialize(0.0, inst.q.data(), inst.v.data(), inst.y.data()));
    LoopSecondOrder<const double*> system = inst.second_order();
    const int n = system.dimension();
    std::vector<double> x(inst.y.begin(), inst.y.begin() + n), w(inst.y.begin() + n, inst.y.begin() + 2 * n);
    w[0] += 3.0;  // a moving state
    std::vector<double> f(n), J1(n * n), J2(n * n), ft(n);
    ASSERT_TRUE(system.jacobians(0.0, x.data(), w.data(), f.data(), J1.data(), J2.data(), ft.data()));
    // Five-point central differences, h = 1e-4: truncation O(h^4), and the dependent coordinates' Newton
    // tolerance (|Phi| <= 1e-12) enters as 1e-12 / h = 1e-8 noise (a 1e-6 step would make it 1e-6).
    const auto accelerations_at = [&](int j, int part, double offset) {
      std::vector<double> xs = x, ws = w, out(n);
      (part == 0 ? xs : ws)[j] += offset;
      EXPECT_TRUE(system.acceleration(0.0, xs.data(), ws.data(), out.data()));
      return out;
    };
    for (int j = 0; j < n; ++j)
      for (int part = 0; part < 2; ++part) {
        const double h = 1e-4 * std::max(1.0, std::fabs(part == 0 ? x[j] : w[j]));
        const std::vector<double> p1 = accelerations_at(j, part, h), m1 = accelerations_at(j, part, -h);
        const std::vector<double> p2 = accelerations_at(j, part, 2 * h), m2 = accelerations_at(j, part, -2 * h);
        for (int i = 0; i < n; ++i) {
          const double fd = (8.0 * (p1[i] - m1[i]) - (p2[i] - m2[i])) / (12.0 * h);
          const double exact = (part == 0 ? J1 : J2)[i * n + j];
          EXPECT_NEAR(exact, fd, 1e-6 * std::max(1.0, std::fabs(fd))) << "row " << i << " column " << j;
        }
      }
  }
}

// A trial state that cannot be assembled (an adaptive method's step that went wild on a stiff model) fails the
// projection; so may a nearby one whose warm start, the previous evaluation's coordinates, lies far off. Newton
// then starts once more from the last accepted state's coordinates (here the initial state's): the evaluation at
// the first state, after a wild one, gives its derivative again bit for bit.
TEST(LoopFastPath, NewtonFallsBackOnTheLastAcceptedStateAfterAWildTrialState) {
  for (const char* file : {"double_wishbone_corner.json", "loops/andrews_squeezer.json"}) {
    SCOPED_TRACE(file);
    LoopInstance inst(loop_model_with_state_outputs(file));
    ASSERT_TRUE(inst.ode.initialize(0.0, inst.q.data(), inst.v.data(), inst.y.data()));
    const int n = inst.ode.dimension();
    std::vector<double> y(inst.y.begin(), inst.y.begin() + n), first(n), again(n), scratch(n);
    ASSERT_TRUE(inst.ode.derivative(0.0, y.data(), first.data()));
    std::vector<double> wild = y;
    for (int i = 0; i < n / 2; ++i) wild[i] += 3.0;  // every independent coordinate 3 rad (or m) away
    EXPECT_FALSE(inst.ode.derivative(0.0, wild.data(), scratch.data()));
    EXPECT_EQ(inst.ode.failure, LoopFailure::projection);
    ASSERT_TRUE(inst.ode.derivative(0.0, y.data(), again.data()));
    for (int i = 0; i < n; ++i) EXPECT_EQ(again[i], first[i]) << i;
  }
}

// seed 004 Fig. 6: without projection the position residual of an acceleration-level formulation grows; the
// state-space ODE over the independent coordinate keeps it at Newton's tolerance for the whole run.
TEST(LoopPhysics, FourBarRk4KeepsConstraintsAtProjectionTolerance) {
  const Model model = loop_model_with_state_outputs("loops/four_bar.json");
  const std::vector<double> times = output_grid(0.0, 10.0, 0.01);
  const EnsembleResult r = run_model(model, rk4(1e-3), times);
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  const int nv = 3;
  double worst_position = 0.0, worst_velocity = 0.0, energy_drift = 0.0;
  const double e0 = r.value(0, 0, 2 * nv);
  for (int k = 0; k < r.n_times; ++k) {
    VectorXd q, v;
    recorded_state(r, nv, k, q, v);
    const constraints::ConstraintEvaluation e = constraints::evaluate_constraints(model, times[k], q, v);
    worst_position = std::max(worst_position, e.phi.cwiseAbs().maxCoeff());
    worst_velocity = std::max(worst_velocity, (e.G * v + e.phi_t).cwiseAbs().maxCoeff());
    energy_drift = std::max(energy_drift, std::fabs(r.value(0, k, 2 * nv) - e0) / std::fabs(e0));
  }
  EXPECT_LE(worst_position, kProjectionTolerance);
  EXPECT_LE(worst_velocity, 1e-10);
  // A conservative mechanism: RK4 at h = 1e-3 keeps the energy to well below a millionth over 10 s.
  EXPECT_LE(energy_drift, 1e-7);
}

// Seed 003 sec. 5.1 / the CWI test set "andrews": state at t = 0.03 (PSIDE, rtol = atol = 1e-14).
TEST(LoopPhysics, AndrewsSqueezerMatchesTheTestSetAndBalancesEnergy) {
  const Model model = loop_model_with_state_outputs("loops/andrews_squeezer.json");
  const std::vector<double> times = output_grid(0.0, 0.03, 1e-4);
  const EnsembleResult r = run_model(model, dopri5(1e-10, 1e-10), times);
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  const int nv = 7;
  // The test set orders the angles beta, Theta, gamma, Phi, delta, Omega, epsilon; the model's joints are
  // beta, theta, gamma, delta, phi, epsilon, omega (models/loops/README.md).
  const char* names[7] = {"beta", "theta", "gamma", "phi", "delta", "omega", "epsilon"};
  const double position[7] = {0.1581077119629904e+2, -0.1575637105984298e+2, 0.4082224013073101e-1,
                              -0.5347301163226948e+0, 0.5244099658805304e+0, 0.5347301163226948e+0,
                              0.1048080741042263e+1};
  const double velocity[7] = {0.1139920302151208e+4, -0.1424379294994111e+4, 0.1103291221937134e+2,
                              0.1929337464421385e+2, 0.5735699284790808e+0, -0.1929337464421385e+2,
                              0.3231791658026955e+0};
  const int last = r.n_times - 1;
  for (int i = 0; i < 7; ++i) {
    int j = -1;
    for (size_t c = 0; c < model.joints.size(); ++c)
      if (model.joints[c].name == names[i]) j = static_cast<int>(c);
    ASSERT_GE(j, 0) << names[i];
    EXPECT_NEAR(r.value(0, last, j), position[i], 1e-6 * std::max(1.0, std::fabs(position[i]))) << names[i];
    EXPECT_NEAR(r.value(0, last, nv + j), velocity[i], 1e-6 * std::max(1.0, std::fabs(velocity[i]))) << names[i];
  }
  // Energy balance (seed 003 eq. 23): E - E0 - T (beta - beta0) = 0 with the constant drive torque T.
  const double T = 0.033;
  const int beta = 0;
  double worst = 0.0, scale = 0.0;
  for (int k = 0; k < r.n_times; ++k) {
    const double work = T * (r.value(0, k, beta) - r.value(0, 0, beta));
    worst = std::max(worst, std::fabs(r.value(0, k, 2 * nv) - r.value(0, 0, 2 * nv) - work));
    scale = std::max(scale, std::fabs(work));
  }
  EXPECT_LE(worst / scale, 1e-6);
}

// The slider crank is driven (0 DOF): its slider must sit where the closed-form geometry puts it. Crank pin
// (0, 0.1 + 0.08 cos 2 pi t, 0.12 - 0.08 sin 2 pi t) (rotation about -x), slider on the x axis 0.3 m from it.
TEST(LoopPhysics, DrivenSliderCrankFollowsItsKinematicSolution) {
  const Model model = loop_model_with_state_outputs("loops/slider_crank.json");
  const std::vector<double> times = output_grid(0.0, 2.0, 0.005);
  const EnsembleResult r = run_model(model, rk4(1e-3), times);
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  int slider = -1;
  for (size_t j = 0; j < model.joints.size(); ++j)
    if (model.joints[j].name == "slider_guide") slider = static_cast<int>(j);
  ASSERT_GE(slider, 0);
  const int nv = r.n_signals / 2;
  double worst_x = 0.0, worst_rate = 0.0;
  for (int k = 0; k < r.n_times; ++k) {
    const double a = 2.0 * M_PI * times[k];
    const double py = 0.1 + 0.08 * std::cos(a), pz = 0.12 - 0.08 * std::sin(a);
    const double x = std::sqrt(0.09 - py * py - pz * pz);
    // d/dt of x^2 + py^2 + pz^2 = 0.09.
    const double dpy = -0.08 * 2.0 * M_PI * std::sin(a), dpz = -0.08 * 2.0 * M_PI * std::cos(a);
    const double xdot = -(py * dpy + pz * dpz) / x;
    worst_x = std::max(worst_x, std::fabs(r.value(0, k, slider) - x));
    worst_rate = std::max(worst_rate, std::fabs(r.value(0, k, nv + slider) - xdot));
  }
  EXPECT_LE(worst_x, 1e-8);
  EXPECT_LE(worst_rate, 1e-8);
}

// Seed 000's state-space RN4 on loop models (Pi from Mhat of eq. 10a, Jacobians through the partitioning):
// at rtol 1e-6 every loop model agrees with a tight DOPRI5 run to 1e-5 over its default end time.
TEST(LoopPhysics, Rn4AgreesWithTightDopri5OnLoopModels) {
  for (const char* file : {"loops/four_bar.json", "loops/andrews_squeezer.json", "loops/five_bar.json",
                           "loops/ladder/ladder_L4.json"}) {
    SCOPED_TRACE(file);
    const Model loaded = load_model_file(model_path(file));
    const Model model = apply_parameters(loaded, default_parameter_values(loaded));
    const std::vector<double> times = output_grid(0.0, model.simulation.t_end, model.simulation.t_end / 50);
    RunSpec rn4;
    rn4.method = Method::rn4;
    rn4.control.rtol = 1e-6;
    rn4.control.atol = 1e-8;  // the product's default absolute tolerance (SimulationDefaults)
    const EnsembleResult a = run_model(model, rn4, times);
    const EnsembleResult b = run_model(model, dopri5(1e-12, 1e-12), times);
    ASSERT_EQ(a.status[0], InstanceStatus::ok);
    ASSERT_EQ(b.status[0], InstanceStatus::ok);
    double worst = 0.0;
    for (int k = 0; k < a.n_times; ++k)
      for (int s = 0; s < a.n_signals; ++s) {
        if (model.outputs[static_cast<size_t>(s)].kind != OutputKind::joint_coordinate) continue;
        worst = std::max(worst, std::fabs(a.value(0, k, s) - b.value(0, k, s)) /
                                    std::max(1.0, std::fabs(b.value(0, k, s))));
      }
    EXPECT_LE(worst, 1e-5);
    EXPECT_GT(a.stats[0].jacobian_evaluations, 0);
  }
}

// seed 004 sec. 4.3, Fig. 10: with the inertias of models/loops/ladder/generate_ladder.py every ladder moves its
// independent coordinates like one 2-DOF spatial pendulum; L = 1, 4 and 16 and the pendulum itself coincide.
TEST(LoopPhysics, LadderTrajectoriesAreTheSameForEveryL) {
  const std::vector<double> times = output_grid(0.0, 2.0, 0.01);
  const auto run = [&](const std::string& file) {
    const Model loaded = load_model_file(model_path(file));
    const EnsembleResult r =
        run_model(apply_parameters(loaded, default_parameter_values(loaded)), dopri5(1e-12, 1e-12), times);
    EXPECT_EQ(r.status[0], InstanceStatus::ok) << file;
    return r;
  };
  const EnsembleResult pendulum = run("loops/ladder/spatial_pendulum_2dof.json");
  for (int L : {1, 4, 16}) {
    const EnsembleResult ladder = run("loops/ladder/ladder_L" + std::to_string(L) + ".json");
    double worst = 0.0, swing = 0.0;
    for (int k = 0; k < ladder.n_times; ++k)
      for (int s = 0; s < 2; ++s) {
        worst = std::max(worst, std::fabs(ladder.value(0, k, s) - pendulum.value(0, k, s)));
        swing = std::max(swing, std::fabs(pendulum.value(0, k, s) - pendulum.value(0, 0, s)));
      }
    EXPECT_LE(worst, 1e-8) << "L = " << L;
    EXPECT_GE(swing, 0.1);  // the pendulum really moves
  }
}

}  // namespace loop_fast_path_test
}  // namespace myriad::testing
