// Named KPIs (issue 17, item 6; src/kpi/kpi.hpp): each kind against a closed form on a known sine, the on-line
// values of a run against the same KPIs recomputed independently from its kept series, bit-identical whether the
// run keeps its series or not and whether they are computed on line or replayed (the cuda backend's way), the
// reference backend agreeing, the lift-off KPI counting the samples where the one-sided tire carries nothing, and
// named refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "ensemble/ensemble_kpis.hpp"
#include "kpi/kpi.hpp"
#include "model/kpi_reading.hpp"
#include "reference/reference_runner.hpp"
#include "model/refusal_support.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace named_kpi_test {

constexpr double kPi = 3.141592653589793;

// KPI values of x(t) = amplitude sin(2 pi f t) sampled every T from 0 to `duration`, one per type.
std::vector<double> sine_kpis(const std::vector<CompiledKpi>& specs, double amplitude, double f, double T,
                              double duration) {
  auto model = std::make_unique<CompiledModel>();
  model->n_kpis = static_cast<int>(specs.size());
  for (size_t j = 0; j < specs.size(); ++j) model->kpis[j] = specs[j];
  const int n = static_cast<int>(std::lround(duration / T)) + 1;
  std::vector<double> times(static_cast<size_t>(n)), state(specs.size() * kKpiStateDoubles);
  for (int k = 0; k < n; ++k) times[static_cast<size_t>(k)] = k * T;
  for (int k = 0; k < n; ++k) {
    const double row[1] = {amplitude * std::sin(2.0 * kPi * f * times[static_cast<size_t>(k)])};
    kpi_update(*model, state.data(), k, times[static_cast<size_t>(k)], row, times.data(), n);
  }
  std::vector<double> values;
  for (size_t j = 0; j < specs.size(); ++j) values.push_back(kpi_value(specs[j], kpi_state(state.data(), static_cast<int>(j))));
  return values;
}

CompiledKpi kpi(int type, double threshold = 0.0, double from = 0.0, double scale = 1.0) {
  return {type, 0, scale, threshold, from};
}

// 2 Hz sampled at 1 kHz over 10 s: every period whole, peaks on samples. The 10001 samples are 20 whole periods
// (mean square A^2 / 2 over 10000 samples, exactly) plus the end sample, where the sine is 0 again.
TEST(NamedKpis, EachKindOfASineMatchesItsClosedForm) {
  const double A = 0.7, whole = std::sqrt(10000.0 / 10001.0), half = std::sqrt(5000.0 / 5001.0);
  const std::vector<double> v = sine_kpis({kpi(kKpiMean), kpi(kKpiRms), kpi(kKpiMin), kpi(kKpiMax), kpi(kKpiMaxAbs),
                                           kpi(kKpiRmsChange), kpi(kKpiFractionAtLeast, A / 2),
                                           kpi(kKpiTimeAtMost, -A / 2), kpi(kKpiRms, 0.0, 5.0, -2.0)},
                                          A, 2.0, 1e-3, 10.0);
  EXPECT_NEAR(v[0], 0.0, 1e-12);
  EXPECT_NEAR(v[1], A / std::sqrt(2.0) * whole, 1e-10 * A);
  EXPECT_NEAR(v[2], -A, 1e-12);
  EXPECT_NEAR(v[3], A, 1e-12);
  EXPECT_NEAR(v[4], A, 1e-12);
  EXPECT_NEAR(v[5], A / std::sqrt(2.0) * whole, 1e-10 * A) << "the first sample is 0, so the change is the signal";
  EXPECT_NEAR(v[6], 1.0 / 3.0, 2e-3) << "sin > 1/2 a third of the time";
  EXPECT_NEAR(v[7], 10.0 / 3.0, 2e-2) << "sin < -1/2 a third of 10 s";
  EXPECT_NEAR(v[8], 2.0 * A / std::sqrt(2.0) * half, 1e-10 * A) << "scale -2, from 5 s (5001 samples)";
}

// The Wk-weighted kinds after the filter has settled (from 5 s): a_w = |Wk(f)| A sin, so RMS |Wk| A / sqrt 2,
// VDV |Wk| A (3 D / 8)^(1/4) over D seconds, crest factor sqrt 2. The digital filter is within 0.02 dB (0.23%) of
// |Wk| at 1 kHz.
TEST(NamedKpis, WkWeightedRmsVdvAndCrestFactorOfASineMatchTheirClosedForms) {
  for (double f : {1.0, 4.0, 8.0}) {
    const double A = 1.3, from = 5.0, duration = 15.0;
    const std::vector<double> v = sine_kpis(
        {kpi(kKpiWkRms, 0, from), kpi(kKpiWkVdv, 0, from), kpi(kKpiWkCrestFactor, 0, from)}, A, f, 1e-3, duration);
    const double w = wk_magnitude(f);
    EXPECT_NEAR(v[0] / (w * A / std::sqrt(2.0)), 1.0, 3e-3) << f << " Hz";
    EXPECT_NEAR(v[1] / (w * A * std::pow(3.0 * (duration - from) / 8.0, 0.25)), 1.0, 3e-3) << f << " Hz";
    EXPECT_NEAR(v[2], std::sqrt(2.0), 1e-2) << f << " Hz";
  }
}

const int kInstances = 6;

struct RoadRun {
  Model model;
  std::unique_ptr<CompiledModel> compiled;
  Ensemble ensemble;
  std::vector<double> times;
  RunSpec spec = testing::dopri5(1e-7, 1e-9);
  explicit RoadRun(std::vector<std::pair<std::string, double>> overrides = {}, double t_end = 2.0)
      : model(load_model_file(testing::model_path("quarter_car_road.json"))), compiled(compile(model)) {
    ensemble = build_ensemble(model, *compiled, kInstances, nullptr, overrides);
    times = output_grid(0.0, t_end, 1e-3);
  }
};

int kpi_index(const Model& model, const std::string& name) {
  for (size_t j = 0; j < model.kpis.size(); ++j)
    if (model.kpis[j].name == name) return static_cast<int>(j);
  return -1;
}

// The shipped model's non-weighted KPIs recomputed here, with plain loops, from the kept series.
TEST(NamedKpis, OnLineValuesEqualAnIndependentComputationFromTheKeptSeries) {
  RoadRun run;
  const EnsembleResult r = run_ensemble_cpu(*run.compiled, run.ensemble, run.spec, run.times, 2);
  ASSERT_EQ(r.n_kpis, static_cast<int>(run.model.kpis.size()));
  const int tire = testing::output_index(run.model, "tire_force"), travel = testing::output_index(run.model, "travel"),
            spring = testing::output_index(run.model, "susp_force");
  for (int i = 0; i < kInstances; ++i) {
    ASSERT_EQ(r.status[static_cast<size_t>(i)], InstanceStatus::ok);
    double n = 0, change2 = 0, min_load = INFINITY, lifted = 0, travel2 = 0, lo = INFINITY, hi = -INFINITY, peak = 0;
    const double static_load = r.value(i, 0, tire), travel0 = r.value(i, 0, travel);
    for (int k = 0; k < r.n_times; ++k) {
      if (r.times[static_cast<size_t>(k)] < 1.0) continue;
      const double f = r.value(i, k, tire), q = r.value(i, k, travel);
      n += 1;
      change2 += (f - static_load) * (f - static_load);
      min_load = std::min(min_load, -f);
      lifted += -f <= 0.0 ? 1 : 0;
      travel2 += (q - travel0) * (q - travel0);
      lo = std::min(lo, q);
      hi = std::max(hi, q);
      peak = std::max(peak, std::abs(r.value(i, k, spring)));
    }
    const auto value = [&](const char* name) { return r.kpis[static_cast<size_t>(i * r.n_kpis + kpi_index(run.model, name))]; };
    EXPECT_NEAR(value("dynamic_tire_load"), std::sqrt(change2 / n) / std::abs(static_load), 1e-12);
    EXPECT_NEAR(value("min_tire_load"), min_load, 1e-9);
    EXPECT_EQ(value("lift_off_fraction"), lifted / n);
    EXPECT_NEAR(value("travel_rms"), std::sqrt(travel2 / n), 1e-14);
    EXPECT_EQ(value("travel_min"), lo);
    EXPECT_EQ(value("travel_max"), hi);
    EXPECT_EQ(value("peak_spring_force"), peak);
  }
}

// On line with the series kept, on line without it (one instance's rows at a time), and replayed from the series
// after the run (what the cuda backend does): the same bits. The reference backend's agree to 1e-8.
TEST(NamedKpis, KeptOrNotOnLineOrReplayedTheKpisAreTheSameBits) {
  RoadRun run;
  const EnsembleResult kept = run_ensemble_cpu(*run.compiled, run.ensemble, run.spec, run.times, 2);
  const EnsembleResult bare = run_ensemble_cpu(*run.compiled, run.ensemble, run.spec, run.times, 1, nullptr, false);
  EXPECT_TRUE(bare.values.empty());
  EnsembleResult replayed = kept;
  replayed.kpis.clear();
  finish_kpis(*run.compiled, replayed);
  ASSERT_EQ(kept.kpis.size(), static_cast<size_t>(kInstances) * run.model.kpis.size());
  for (size_t j = 0; j < kept.kpis.size(); ++j) {
    EXPECT_EQ(kept.kpis[j], bare.kpis[j]) << j;
    EXPECT_EQ(kept.kpis[j], replayed.kpis[j]) << j;
  }
  const EnsembleResult reference =
      run_ensemble_reference(run.model, *run.compiled, run.ensemble, run.spec, run.times, 2, nullptr, false);
  for (size_t j = 0; j < kept.kpis.size(); ++j)
    EXPECT_NEAR(reference.kpis[j], kept.kpis[j], 1e-8 * std::max(1.0, std::abs(kept.kpis[j]))) << j;
}

// On a class E road (G_d(n0) 4096e-6 m^3) the wheel leaves the road: there the one-sided tire's force is exactly
// zero, and the lift-off KPI is the fraction of those samples.
TEST(NamedKpis, LiftOffGivesZeroTireForceAndTheLiftOffKpiCountsIt) {
  RoadRun run({{"road_gd", 4096e-6}}, 3.0);
  const EnsembleResult r = run_ensemble_cpu(*run.compiled, run.ensemble, run.spec, run.times, 2);
  const int tire = testing::output_index(run.model, "tire_force"),
            length = testing::output_index(run.model, "tire_length");
  const double l0 = run.model.parameters[7].value;  // l0_t
  ASSERT_EQ(run.model.parameters[7].name, "l0_t");
  double lifted_total = 0;
  for (int i = 0; i < kInstances; ++i) {
    double n = 0, lifted = 0;
    for (int k = 0; k < r.n_times; ++k) {
      const double f = r.value(i, k, tire), l = r.value(i, k, length);
      if (l > l0) EXPECT_EQ(f, 0.0) << "a stretched tire pulls";
      if (r.times[static_cast<size_t>(k)] < 1.0) continue;
      n += 1;
      lifted += l >= l0 ? 1 : 0;
    }
    EXPECT_EQ(r.kpis[static_cast<size_t>(i * r.n_kpis + kpi_index(run.model, "lift_off_fraction"))], lifted / n);
    EXPECT_EQ(r.kpis[static_cast<size_t>(i * r.n_kpis + kpi_index(run.model, "min_tire_load"))] == 0.0, lifted > 0);
    lifted_total += lifted;
  }
  std::printf("class E: %.0f lift-off samples over %d instances\n", lifted_total, kInstances);
  EXPECT_GT(lifted_total, 0) << "no wheel left the road: the test shows nothing";
}

std::string kpi_model(const std::string& kpis) {
  nlohmann::ordered_json m = testing::pendulum_model();
  m["outputs"].push_back(nlohmann::ordered_json::parse(R"({"name": "acc", "type": "joint_acceleration", "joint": "pivot"})"));
  m["kpis"] = nlohmann::ordered_json::parse(kpis);
  return m.dump();
}

TEST(NamedKpis, BadKpisAreRefusedByName) {
  using testing::text_refused;
  EXPECT_TRUE(text_refused(kpi_model(R"([{"name": "k", "type": "median", "output": "angle"}])"), "/kpis/0/type",
                           {"unknown KPI type 'median'"}));
  EXPECT_TRUE(text_refused(kpi_model(R"([{"name": "k", "type": "rms", "output": "speed"}])"), "/kpis/0/output",
                           {"speed"}));
  EXPECT_TRUE(text_refused(kpi_model(R"([{"name": "k", "type": "fraction_at_least", "output": "angle"}])"),
                           "/kpis/0/threshold", {"missing required key"}));
  EXPECT_TRUE(text_refused(kpi_model(R"([{"name": "k", "type": "rms", "output": "angle", "threshold": 1}])"),
                           "/kpis/0/threshold", {"takes no threshold"}));
  EXPECT_TRUE(text_refused(kpi_model(R"([{"name": "k", "type": "wk_rms", "output": "angle"}])"), "/kpis/0/output",
                           {"m/s^2", "rad"}));
  EXPECT_TRUE(text_refused(kpi_model(R"([{"name": "k", "type": "wk_rms", "output": "acc"}])"), "/kpis/0/output",
                           {"rad/s^2"}));
  EXPECT_TRUE(text_refused(kpi_model(R"([{"name": "k", "type": "rms", "output": "angle", "from": -1}])"),
                           "/kpis/0/from", {"negative"}));
  EXPECT_TRUE(text_refused(kpi_model(R"([{"name": "k", "type": "rms", "output": "angle", "scale": "$s"}])"),
                           "/kpis/0/scale", {"plain number"}));
  EXPECT_TRUE(text_refused(
      kpi_model(R"([{"name": "k", "type": "rms", "output": "angle"}, {"name": "k", "type": "max", "output": "angle"}])"),
      "/kpis/1/name", {"k"}));
}

TEST(NamedKpis, UnitsFollowTheOutputAndTheKind) {
  const Model model = load_model_file(testing::model_path("quarter_car_road.json"));
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"comfort_wk_rms", "m/s^2"}, {"comfort_vdv", "m/s^1.75"}, {"crest_factor", "1"}, {"dynamic_tire_load", "1"},
      {"min_tire_load", "N"},      {"lift_off_fraction", "1"},  {"travel_rms", "m"},   {"peak_spring_force", "N"}};
  for (const auto& [name, unit] : expected) {
    const int j = kpi_index(model, name);
    ASSERT_GE(j, 0) << name;
    EXPECT_EQ(model.kpis[static_cast<size_t>(j)].unit, unit) << name;
  }
}

}  // namespace named_kpi_test
}  // namespace myriad
