// Small-amplitude period of the seed-002 pendulum against 2 pi sqrt(I / (m g d)).
#include <gtest/gtest.h>

#include <cmath>

#include "model/model_geometry.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace pendulum_period_test {

using namespace testing;

TEST(Pendulum, SmallAmplitudePeriodMatchesCompoundPendulumFormula) {
  const Model model = load_model_file(model_path("pendulum_002.json"));
  const double amplitude = 1e-3;  // period correction ~ amplitude^2 / 16 = 6e-8
  const Model literal = apply_parameters(model, default_parameter_values(model));
  Instance inst(model, {{"theta0", amplitude}});
  // Pivot-to-centre-of-mass distance and the inertia about the joint axis, from the model's own numbers.
  const Joint& pivot = inst.model.joints[0];
  const Body& rod = inst.model.bodies[0];
  const Vec3<double> d_vec = vector3(rod.center_of_mass) - vector3(pivot.child_frame.origin);
  const Vec3<double> axis_body = transpose_times(rotation_matrix(pivot.child_frame.rotation), unit_vector3(pivot.axis));
  const Vec3<double> d_perp = d_vec - dot(d_vec, axis_body) * axis_body;
  const double m = rod.mass.value, g = norm(vector3(literal.gravity)), d = norm(d_perp);
  const double I_axis = dot(axis_body, inertia_matrix(rod.inertia) * axis_body) + m * d * d;
  const double period = 2.0 * kPi * std::sqrt(I_axis / (m * g * d));

  const int theta = output_index(model, "theta");
  ASSERT_GE(theta, 0);
  const double dt = period / 2000.0;
  const EnsembleResult r = run_model(model, dopri5(1e-13, 1e-16), output_grid(0.0, 3.2 * period, dt), {{"theta0", amplitude}});
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  // Downward zero crossings of theta - mean, located by linear interpolation between dense outputs, then refined
  // by the quadratic through three points.
  std::vector<double> crossings;
  for (int k = 1; k + 1 < r.n_times; ++k) {
    const double a = r.value(0, k, theta), b = r.value(0, k + 1, theta);
    if (a > 0 && b <= 0) {
      const double c = r.value(0, k - 1, theta);
      // quadratic through (k-1, c), (k, a), (k+1, b) in units of dt from t_k
      const double A = 0.5 * (b + c) - a, B = 0.5 * (b - c);
      double s = -a / B;
      for (int it = 0; it < 5; ++it) s -= (A * s * s + B * s + a) / (2 * A * s + B);
      crossings.push_back(r.times[static_cast<size_t>(k)] + s * dt);
    }
  }
  ASSERT_GE(crossings.size(), 3u);
  const double measured = (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  RecordProperty("period_relative_error", std::to_string(std::abs(measured - period) / period));
  EXPECT_NEAR(measured / period, 1.0, 1e-6);
}

}  // namespace pendulum_period_test
}  // namespace myriad
