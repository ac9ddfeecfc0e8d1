// Energy balance of undamped, unforced systems and the torque-free rigid body.
#include <gtest/gtest.h>

#include <cmath>

#include "support/run_model.hpp"

namespace myriad {
namespace conservation_test {

using namespace testing;

double max_relative_energy_drift(const EnsembleResult& r, int signal) {
  const double e0 = r.value(0, 0, signal);
  double drift = 0.0;
  for (int k = 0; k < r.n_times; ++k) drift = std::max(drift, std::abs(r.value(0, k, signal) - e0));
  return drift / std::abs(e0);
}

TEST(Conservation, UndampedChainEnergyDriftBelow1e8WithRk4) {
  const Model model = load_model_file(model_path("undamped_chain.json"));
  const int e = output_index(model, "total_energy");
  ASSERT_GE(e, 0);
  const EnsembleResult r = run_model(model, rk4(1e-4), output_grid(0.0, 10.0, 0.1));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  ASSERT_GT(std::abs(r.value(0, 0, e)), 1.0);  // a drift relative to a sizeable energy, not to ~0
  const double drift = max_relative_energy_drift(r, e);
  RecordProperty("relative_energy_drift", std::to_string(drift));
  EXPECT_LT(drift, 1e-8);
}

TEST(Conservation, UndampedChainEnergyDriftBelow1e8WithDopri5) {
  const Model model = load_model_file(model_path("undamped_chain.json"));
  const int e = output_index(model, "total_energy");
  const EnsembleResult r = run_model(model, dopri5(1e-10, 1e-10), output_grid(0.0, 10.0, 0.1));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  EXPECT_LT(max_relative_energy_drift(r, e), 1e-8);
}

TEST(Conservation, SpatialChainWithAllJointTypesConservesEnergyWhenSpringsOnly) {
  // Through spherical joints the integrator works in re-centred rotation-vector charts: energy still balances.
  Model model = load_model_file(model_path("spatial_chain.json"));
  for (ForceElement& f : model.forces) {
    f.damping = Number{0.0, -1};
    f.has_actuator = false;
  }
  model.forces.erase(std::remove_if(model.forces.begin(), model.forces.end(),
                                    [](const ForceElement& f) { return f.type == ForceType::joint_actuator; }),
                     model.forces.end());
  model.outputs.clear();
  Output total;
  total.name = "total_energy";
  total.kind = OutputKind::total_energy;
  model.outputs.push_back(total);
  const EnsembleResult r = run_model(model, dopri5(1e-11, 1e-11), output_grid(0.0, 2.0, 0.05));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  EXPECT_LT(max_relative_energy_drift(r, 0), 1e-8);
}

TEST(Conservation, FreeBodyKeepsEnergyAndSpinsThroughManyChartRebases) {
  const Model model = load_model_file(model_path("free_body.json"));
  const int e = output_index(model, "kinetic_energy");
  ASSERT_GE(e, 0);
  const EnsembleResult r = run_model(model, dopri5(1e-11, 1e-11), output_grid(0.0, 10.0, 0.1));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  EXPECT_LT(max_relative_energy_drift(r, e), 1e-9);
}

}  // namespace conservation_test
}  // namespace myriad
