// Ensembles in absolute coordinates (absolute/absolute_ensemble.hpp): seed 002's double pendulum with every
// instance's second rod scaled in mass and inertia, integrated by seed 003's methods on the index-3 DAE (rp, re).
// Each instance against its own tight index-1 solution (RK4 at h = 2e-4, an independent integration of the same
// equations); results independent of the thread count, bit for bit; a failing instance keeps its own status and
// leaves the others untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "absolute/absolute_ensemble.hpp"
#include "absolute/seed002_mechanisms.hpp"
#include "integrators/implicit_coefficients.hpp"
#include "support/seed002_reference.hpp"

namespace myriad {
namespace {

// Instance i: rod 2's mass and inertia times 0.7 + 0.15 i (the first three of them a +-30% study).
std::vector<AbsoluteModel<2, 10>> ensemble_scaled_pendulums(int n) {
  std::vector<AbsoluteModel<2, 10>> models;
  for (int i = 0; i < n; ++i) {
    AbsoluteModel<2, 10> model = seed002_double_pendulum();
    const double scale = 0.7 + 0.15 * i;
    model.mass[1] *= scale;
    model.inertia[1] = scale * model.inertia[1];
    models.push_back(model);
  }
  return models;
}

template <class Rep>
void ensemble_check_instances_against_their_own_solutions(ImplicitMethod method, double rho_inf,
                                                         double tolerance) {
  const std::vector<AbsoluteModel<2, 10>> models = ensemble_scaled_pendulums(5);
  const std::vector<std::vector<double>> starts(models.size(), seed002_pendulum_start<Rep>(2));
  const ImplicitScheme scheme = implicit_scheme(method, rho_inf);
  const double dt = 1e-3;
  const long long steps = 150;
  const AbsoluteEnsembleResult one = run_absolute_ensemble<Rep>(models, starts, scheme, 0.0, dt, steps,
                                                                ImplicitOptions(), 1);
  const AbsoluteEnsembleResult three = run_absolute_ensemble<Rep>(models, starts, scheme, 0.0, dt, steps,
                                                                  ImplicitOptions(), 3);
  ASSERT_EQ(one.q.size(), three.q.size());
  for (size_t k = 0; k < one.q.size(); ++k) ASSERT_EQ(one.q[k], three.q[k]) << Rep::kName << " entry " << k;
  using Dae = AbsoluteDae<Rep, 2, 10>;
  double worst = 0.0, spread = 0.0;
  for (int i = 0; i < one.n_instances; ++i) {
    ASSERT_EQ(one.status[static_cast<size_t>(i)], InstanceStatus::ok) << Rep::kName << " instance " << i;
    Dae dae;
    dae.model = &models[static_cast<size_t>(i)];
    std::vector<double> y = starts[static_cast<size_t>(i)];
    for (int step = 0; step < 750; ++step) ASSERT_TRUE(testing::seed002_rk4_step(dae, step * 2e-4, y, 2e-4));
    for (int j = 0; j < Dae::NQ; ++j)
      worst = std::fmax(worst, std::fabs(one.position(i, static_cast<int>(steps), j) - y[static_cast<size_t>(j)]));
    spread = std::fmax(spread, std::fabs(one.position(i, static_cast<int>(steps), Dae::kPerBody + 2) -
                                         one.position(0, static_cast<int>(steps), Dae::kPerBody + 2)));
  }
  EXPECT_LT(worst, tolerance) << Rep::kName;
  EXPECT_GT(spread, 1e-3) << Rep::kName;  // the instances differ: each follows its own masses
  std::printf("%s: 5 instances, largest coordinate error at t = 0.15 s %.2g, rod 2's heights spread %.3g m\n",
              Rep::kName, worst, spread);
}

TEST(AbsoluteEnsemble, InstancesFollowTheirOwnMassesOnAnyThreadCount) {
  ensemble_check_instances_against_their_own_solutions<EulerParameterCoordinates>(ImplicitMethod::lms3, 0.6, 3e-8);
  ensemble_check_instances_against_their_own_solutions<EulerAngleCoordinates>(ImplicitMethod::bathe, 0.0, 3e-8);
  ensemble_check_instances_against_their_own_solutions<EulerParameterCoordinates>(ImplicitMethod::backward_euler,
                                                                                 0.0, 3e-3);
}

// An instance started in re's gimbal lock (rod 1's ZXZ theta = 0: the forward dynamics' matrix is singular) fails
// alone: its status is not ok and its positions stay NaN; the other instances are as in a run without it.
TEST(AbsoluteEnsemble, AFailingInstanceStopsAloneWithItsStatus) {
  using Rep = EulerAngleCoordinates;
  const std::vector<AbsoluteModel<2, 10>> models = ensemble_scaled_pendulums(3);
  std::vector<std::vector<double>> starts(models.size(), seed002_pendulum_start<Rep>(2));
  const ImplicitScheme scheme = implicit_scheme(ImplicitMethod::ss3, 0.5);
  const AbsoluteEnsembleResult clean =
      run_absolute_ensemble<Rep>(models, starts, scheme, 0.0, 1e-3, 50, ImplicitOptions(), 2);
  starts[1][4] = 0.0;  // rod 1's theta
  const AbsoluteEnsembleResult broken =
      run_absolute_ensemble<Rep>(models, starts, scheme, 0.0, 1e-3, 50, ImplicitOptions(), 2);
  EXPECT_NE(broken.status[1], InstanceStatus::ok);
  EXPECT_TRUE(std::isnan(broken.position(1, 0, 0)));
  for (int i : {0, 2}) {
    EXPECT_EQ(broken.status[static_cast<size_t>(i)], InstanceStatus::ok);
    for (int k = 0; k <= 50; ++k)
      for (int j = 0; j < broken.n_coordinates; ++j) ASSERT_EQ(broken.position(i, k, j), clean.position(i, k, j));
  }
  std::printf("the gimbal-locked instance: %s\n", instance_status_name(broken.status[1]));
  EXPECT_THROW(run_absolute_ensemble<Rep>(models, std::vector<std::vector<double>>(2), scheme, 0.0, 1e-3, 5,
                                          ImplicitOptions(), 1),
               std::invalid_argument);
}

}  // namespace
}  // namespace myriad
