// Quarter car: static equilibrium against the hand-computed spring preloads.
#include <gtest/gtest.h>

#include <cmath>

#include "support/run_model.hpp"

namespace myriad {
namespace quarter_car_test {

using namespace testing;

double parameter(const Model& model, const std::string& name) {
  for (const Parameter& p : model.parameters)
    if (p.name == name) return p.value;
  ADD_FAILURE() << "no parameter " << name;
  return 0.0;
}

TEST(QuarterCar, StartsInStaticEquilibriumWithHandComputedPreloads) {
  const Model model = load_model_file(model_path("quarter_car.json"));
  const double m_s = parameter(model, "m_s"), m_u = parameter(model, "m_u"), g = 9.81;
  const int susp = output_index(model, "susp_force"), tire = output_index(model, "tire_force");
  const int z_s = output_index(model, "z_s");
  ASSERT_GE(susp, 0);
  ASSERT_GE(tire, 0);
  // Before the bump (t < bump_t0) nothing should move: preloads m_s g and (m_s + m_u) g in compression.
  const EnsembleResult r = run_model(model, dopri5(1e-10, 1e-12), output_grid(0.0, 0.45, 0.05));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  for (int k = 0; k < r.n_times; ++k) {
    EXPECT_NEAR(r.value(0, k, susp), -m_s * g, 1e-6);
    EXPECT_NEAR(r.value(0, k, tire), -(m_s + m_u) * g, 1e-6);
    EXPECT_NEAR(r.value(0, k, z_s), r.value(0, 0, z_s), 1e-9);
  }
}

TEST(QuarterCar, SettlesFromADisplacedStartToTheStaticSpringLengths) {
  const Model model = load_model_file(model_path("quarter_car.json"));
  const double m_s = parameter(model, "m_s"), m_u = parameter(model, "m_u"), g = 9.81;
  const double k_s = parameter(model, "k_s"), k_t = parameter(model, "k_t");
  const double l0_s = parameter(model, "l0_s"), l0_t = parameter(model, "l0_t");
  const int susp_length = output_index(model, "susp_length"), tire_length = output_index(model, "tire_length");
  const int susp = output_index(model, "susp_force");
  const EnsembleResult r = run_model(model, dopri5(1e-9, 1e-12), output_grid(0.0, 20.0, 1.0),
                                     {{"bump_height", 0.0}, {"z_s0", parameter(model, "z_s0") + 0.08}});
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  const int last = r.n_times - 1;
  // Raised 8 cm as a whole (the unsprung joint is relative to the sprung body), the tire starts stretched by 8 cm
  // beyond its static length ...
  const int tire = output_index(model, "tire_force");
  EXPECT_NEAR(r.value(0, 0, tire) + (m_s + m_u) * g, k_t * 0.08, 1e-6);
  EXPECT_NEAR(r.value(0, 0, susp) + m_s * g, 0.0, 1e-6);
  // ... and settles where each spring carries its static load: l = l0 - load / k.
  EXPECT_NEAR(r.value(0, last, susp_length), l0_s - m_s * g / k_s, 1e-6);
  EXPECT_NEAR(r.value(0, last, tire_length), l0_t - (m_s + m_u) * g / k_t, 1e-6);
}

TEST(StiffDoublePendulum, Dopri5RunsTwoSecondsAndItsStepCountIsStabilityBound) {
  const Model model = load_model_file(model_path("stiff_double_pendulum.json"));
  const EnsembleResult r = run_model(model, dopri5(1e-3, 1e-3), output_grid(0.0, 2.0, 0.01));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  const long long steps = r.stats[0].steps;
  RecordProperty("dopri5_steps_rtol_1e-3", std::to_string(steps));
  std::printf("stiff double pendulum, DOPRI5 rtol = atol = 1e-3, 2 s: %lld steps, %lld rejected, %lld evaluations\n",
              steps, r.stats[0].rejected, r.stats[0].function_evaluations);
  // Eigenvalues near -1e5 and DOPRI5's stability boundary near 3.3 cap h at a few 1e-5 s whatever the tolerance:
  // tens of thousands of steps for 2 s. (This is the count the Rosenbrock method has to beat.)
  EXPECT_GT(steps, 20000);
}

}  // namespace quarter_car_test
}  // namespace myriad
