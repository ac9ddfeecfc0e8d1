// Seed 000 sec. 5.2's HMMWV (models/hmmwv.json, issue 20): its counts beside the paper's, its static state and
// dominant eigenvalue, the bumps' timing from the simulated tire loads, and Tables 3-4's finding on a shortened
// horizon: the explicit method's cost is set by stability (flat in the tolerance, the same rate with or without
// the bump), while RN4's is set by accuracy and is at least 18x lower at 1e-5 over the paper's 2 s. The table
// itself, in CPU seconds, is bench/hmmwv_tables.py's (docs/validation/hmmwv.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "analysis/linearization.hpp"
#include "analysis/modes.hpp"
#include "reference/reference_runner.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace hmmwv_test {

using namespace testing;

Model hmmwv() { return load_model_file(model_path("hmmwv.json")); }

RunSpec method(Method m, double tolerance) {
  RunSpec spec;
  spec.method = m;
  spec.control.rtol = spec.control.atol = tolerance;
  return spec;
}

TEST(Hmmwv, CountsStaticStateAndDominantEigenvalue) {
  const Model model = hmmwv();
  const auto compiled = compile(model);
  EXPECT_EQ(model.bodies.size(), 24u);
  EXPECT_EQ(compiled->nv, 28);
  EXPECT_EQ(compiled->constraints.m, 17);
  EXPECT_EQ(compiled->constraints.n_independent, 11);
  EXPECT_EQ(model.reference_counts.bodies, 14);
  EXPECT_EQ(model.reference_counts.coordinates, 98);
  EXPECT_EQ(model.reference_counts.constraints, 80);
  EXPECT_EQ(model.reference_counts.degrees_of_freedom, 18);

  // The design position is the static state: with the bumps out of reach nothing moves in 1 s.
  const int heave = output_index(model, "heave_z"), pitch = output_index(model, "pitch_angle");
  const EnsembleResult r = run_model(model, method(Method::rn4, 1e-8), output_grid(0.0, 1.0, 0.25),
                                     {{"t_bump_front", 100.0}, {"t_bump_rear", 100.0}});
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  for (int k = 0; k < r.n_times; ++k) {
    EXPECT_LT(std::fabs(r.value(0, k, heave)), 1e-5) << k;
    EXPECT_LT(std::fabs(r.value(0, k, pitch)), 1e-5) << k;
  }

  // The stiff TSDAs set the dominant eigenvalue near the paper's -2.6e5: real, of order 1e5.
  const Instance at_rest(model);
  const Linearization l =
      linearize(*at_rest.compiled, at_rest.k(), 0.0, at_rest.q.data(), at_rest.v.data(), EquilibriumOptions{});
  double dominant = 0.0, imaginary = 0.0;
  for (const Mode& m : modal_analysis(l).modes)
    if (std::abs(m.eigenvalue) > std::abs(dominant)) {
      dominant = m.eigenvalue.real();
      imaginary = m.eigenvalue.imag();
    }
  EXPECT_LT(dominant, -1.5e5);
  EXPECT_GT(dominant, -3e5);
  EXPECT_LT(std::fabs(imaginary), 1e-3 * std::fabs(dominant));
}

// The first output time at which a tire's load changes faster than 1e5 N/s: meeting the bump's edge (slope
// 0.47 at 4.47 m/s against 296325 N/m: about 6e5 N/s), not the chassis' pitch after the front bump, which loads
// the rear tires by at most 8e3 N/s.
double first_contact(const EnsembleResult& r, int signal) {
  for (int k = 1; k < r.n_times; ++k) {
    const double dt = r.times[static_cast<size_t>(k)] - r.times[static_cast<size_t>(k - 1)];
    if (std::fabs(r.value(0, k, signal) - r.value(0, k - 1, signal)) > 1e5 * dt) return r.times[static_cast<size_t>(k)];
  }
  return -1.0;
}

TEST(Hmmwv, FrontAndRearWheelsReachTheBumpAtHalfASecondAndAtOnePointTwo) {
  const Model model = hmmwv();
  const EnsembleResult r = run_model(model, method(Method::rn4, 1e-5), output_grid(0.0, 1.3, 0.001));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  EXPECT_NEAR(first_contact(r, output_index(model, "front_left_tire_force")), 0.5, 0.02);
  EXPECT_NEAR(first_contact(r, output_index(model, "front_right_tire_force")), 0.5, 0.02);
  EXPECT_NEAR(first_contact(r, output_index(model, "rear_left_tire_force")), 1.2, 0.02);
  EXPECT_NEAR(first_contact(r, output_index(model, "rear_right_tire_force")), 1.2, 0.02);
}

// The cpu backend against the reference path (dense dynamics, its own Newton) over the front bump, RN4 at 1e-6:
// the states agree to 1e-5 m and rad, the tire loads to 1 N of their 13 kN peak.
TEST(Hmmwv, CpuAndReferenceBackendsAgreeOverTheFrontBump) {
  const Model model = hmmwv();
  const auto compiled = compile(model);
  const Ensemble e = build_ensemble(model, *compiled, 1, nullptr, {{"t_bump_front", 0.02}, {"t_bump_rear", 100.0}});
  const std::vector<double> times = output_grid(0.0, 0.13, 0.01);
  const RunSpec spec = method(Method::rn4, 1e-6);
  const EnsembleResult cpu = run_ensemble_cpu(*compiled, e, spec, times, 1);
  const EnsembleResult ref = run_ensemble_reference(model, *compiled, e, spec, times, 1);
  ASSERT_EQ(cpu.status[0], InstanceStatus::ok);
  ASSERT_EQ(ref.status[0], InstanceStatus::ok);
  double peak = 0.0;
  for (const char* name : {"chassis_height", "heave_z", "pitch_angle", "front_left_wheel_z", "front_left_tire_force"}) {
    const int s = output_index(model, name);
    const bool force = std::string(name).find("force") != std::string::npos;
    for (int k = 0; k < cpu.n_times; ++k) {
      EXPECT_NEAR(cpu.value(0, k, s), ref.value(0, k, s), force ? 1.0 : 1e-5) << name << " at " << times[k];
      if (force) peak = std::max(peak, std::fabs(cpu.value(0, k, s)));
    }
  }
  EXPECT_GT(peak, 1e4) << "the bump loads the tire, so the comparison means something";
}

// Work in derivative evaluations. An RN4 step's exact Jacobian takes Dual passes over the 2 n + 1 directions
// (x, w, t); each direction is counted as 3 evaluations, above the 1.8 that bench/hmmwv_tables.py's 2 s runs at 1e-5
// give (RN4: 0.49 s after start-up, 1239 evaluations, 363 Jacobians of 23 directions, at DOPRI5's 30 us an
// evaluation), so the ratio below is on the safe side.
double work(const EnsembleResult& r, int ndof) {
  const IntegratorStats& s = r.stats[0];
  return static_cast<double>(s.function_evaluations) + 3.0 * (2 * ndof + 1) * static_cast<double>(s.jacobian_evaluations);
}

TEST(Hmmwv, ExplicitCostIsFlatInToleranceWhileRn4IsAtLeastEighteenTimesCheaper) {
  const Model model = hmmwv();
  const int ndof = compile(model)->constraints.n_independent;
  // Shortened horizon: the front bump from 0.02 s (passed in 0.1 s), then 0.05 s after it; the rear out of reach.
  const std::vector<std::pair<std::string, double>> early = {{"t_bump_front", 0.02}, {"t_bump_rear", 100.0}};
  const double window = 0.17;
  std::vector<double> evaluations;
  for (double tolerance : {1e-2, 1e-3, 1e-4, 1e-5}) {
    const EnsembleResult r = run_model(model, method(Method::dopri5, tolerance), {0.0, window}, early);
    ASSERT_EQ(r.status[0], InstanceStatus::ok) << tolerance;
    evaluations.push_back(static_cast<double>(r.stats[0].function_evaluations));
  }
  const double most = *std::max_element(evaluations.begin(), evaluations.end());
  const double least = *std::min_element(evaluations.begin(), evaluations.end());
  EXPECT_LT(most, 1.2 * least) << "explicit cost varies by more than 20% across tolerances 1e-2..1e-5";

  // Stability, not the road, sets the explicit step: on a flat stretch it runs at the same rate.
  const EnsembleResult flat = run_model(model, method(Method::dopri5, 1e-5), {0.0, window});
  ASSERT_EQ(flat.status[0], InstanceStatus::ok);
  const double rate = evaluations.back() / window;
  EXPECT_NEAR(static_cast<double>(flat.stats[0].function_evaluations) / window, rate, 0.1 * rate);

  // The paper's comparison at 1e-5 over 2 s: RN4 runs it all; DOPRI5's 2 s cost is its measured rate times 2 s.
  const EnsembleResult rn4 = run_model(model, method(Method::rn4, 1e-5), {0.0, 2.0});
  ASSERT_EQ(rn4.status[0], InstanceStatus::ok);
  EXPECT_GT(rate * 2.0, 18.0 * work(rn4, ndof));
}

}  // namespace hmmwv_test
}  // namespace myriad
