// ISO 8608 roads (issue 17, item 4): the generated profile's variance against the closed form over 200 seeds, its
// PSD (estimated by FFT, independently of how the harmonics were laid out) against G_d(n) = G_d(n0) (n/n0)^-2 in
// slope and level, an instance's road the same whatever the ensemble around it, the tracks' coherence, the
// derivatives, and named refusals.
#include <gtest/gtest.h>

#include <unsupported/Eigen/FFT>

#include <cmath>
#include <complex>
#include <fstream>
#include <string>
#include <vector>

#include "ensemble/ensemble.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"
#include "model/road_packing.hpp"
#include "model/time_function_packing.hpp"
#include "refusal_support.hpp"
#include "support/model_fixture.hpp"

namespace myriad {
namespace road_profile_test {

constexpr double kClassC = 256e-6;  // m^3, the geometric mean of class C

TimeFunction road(double seed, int track = 0, double coherence = 0.0, long long instance = 0) {
  TimeFunction f;
  f.kind = TimeFunction::Kind::iso8608_road;
  f.gd_n0 = {kClassC, -1};
  f.speed = {1.0, -1};  // t is then the distance x
  f.n_min = {0.011, -1};
  f.n_max = {2.83, -1};
  f.seed = {seed, -1};
  f.coherence = {coherence, -1};
  f.harmonics = 64;
  f.track = track;
  f.instance = instance;
  return f;
}

// z at x = 0, dx, 2 dx, ... (n samples).
std::vector<double> sample(const TimeFunction& f, double dx, int n) {
  std::vector<double> k;
  const int harmonics = pack_time_function(f, k);
  std::vector<double> z(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) z[static_cast<size_t>(i)] = evaluate_road_profile<const double*, TimeValue>(k.data(), harmonics, i * dx).value;
  return z;
}

TEST(Iso8608Road, ClassValuesAreTheStandardsTable) {
  EXPECT_DOUBLE_EQ(iso8608_class_value('A', 0), 16e-6);
  EXPECT_DOUBLE_EQ(iso8608_class_value('C', 0), 256e-6);
  EXPECT_DOUBLE_EQ(iso8608_class_value('C', -1), 128e-6);
  EXPECT_DOUBLE_EQ(iso8608_class_value('C', 1), 512e-6);
  EXPECT_DOUBLE_EQ(iso8608_class_value('H', 0), 262144e-6);
  EXPECT_TRUE(std::isnan(iso8608_class_value('A', -1)));
  EXPECT_TRUE(std::isnan(iso8608_class_value('H', 1)));
  EXPECT_TRUE(std::isnan(iso8608_class_value('I', 0)));
}

// E[z^2] at every x is sum A_k^2 / 2 for independent uniform phases, so the mean over seeds of the mean square over
// a stretch of road estimates sigma^2 = G_d(n0) n0^2 (1/n1 - 1/n2); its sampling error comes from the 200 seeds.
TEST(Iso8608Road, VarianceOverTwoHundredSeedsMatchesTheClosedForm) {
  const double expected = kClassC * 0.01 * (1.0 / 0.011 - 1.0 / 2.83);
  EXPECT_NEAR(iso8608_variance(kClassC, 0.011, 2.83), expected, 1e-18);
  std::vector<double> variances;
  for (int seed = 0; seed < 200; ++seed) {
    const std::vector<double> z = sample(road(seed), 0.25, 2000);  // 500 m
    double sum = 0.0;
    for (double value : z) sum += value * value;
    variances.push_back(sum / static_cast<double>(z.size()));
  }
  double mean = 0.0, spread = 0.0;
  for (double v : variances) mean += v / 200.0;
  for (double v : variances) spread += (v - mean) * (v - mean) / 199.0;
  const double standard_error = std::sqrt(spread / 200.0);
  std::printf("sigma^2 closed form %.6e, mean over 200 seeds %.6e, standard error %.2e\n", expected, mean,
              standard_error);
  EXPECT_LT(std::abs(mean - expected), 4.0 * standard_error);
  EXPECT_LT(standard_error, 0.05 * expected) << "the test cannot tell anything apart";
}

// A Hann-windowed periodogram (one-sided, cycles/m) averaged over 8 seeds, summed into 12 log-spaced bands between
// 0.02 and 2 cycles/m that do not line up with the generator's; a least-squares line through log(band power /
// bandwidth) against log(band centre) has slope -2 and passes through G_d(n0) at n0.
TEST(Iso8608Road, PeriodogramSlopeIsMinusTwoAndItsLevelIsTheClassValue) {
  const int n = 1 << 15;
  const double dx = 0.1;  // Nyquist 5 cycles/m, above the band's 2.83
  std::vector<double> window(n), power(n / 2 + 1, 0.0);
  double window_power = 0.0;
  for (int i = 0; i < n; ++i) {
    window[static_cast<size_t>(i)] = 0.5 - 0.5 * std::cos(2.0 * kPi * i / n);
    window_power += window[static_cast<size_t>(i)] * window[static_cast<size_t>(i)] / n;
  }
  Eigen::FFT<double> fft;
  const int seeds = 8;
  for (int seed = 0; seed < seeds; ++seed) {
    std::vector<double> z = sample(road(1000 + seed), dx, n);
    for (int i = 0; i < n; ++i) z[static_cast<size_t>(i)] *= window[static_cast<size_t>(i)];
    std::vector<std::complex<double>> spectrum;
    fft.fwd(spectrum, z);
    for (int j = 1; j < n / 2; ++j)  // one-sided: G(n_j) = 2 |Z_j|^2 dx / (N mean(w^2))
      power[static_cast<size_t>(j)] += 2.0 * std::norm(spectrum[static_cast<size_t>(j)]) * dx / (n * window_power) / seeds;
  }
  const double dn = 1.0 / (n * dx);
  const int bands = 12;
  const double lo = 0.02, hi = 2.0;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int b = 0; b < bands; ++b) {
    const double a = lo * std::pow(hi / lo, double(b) / bands), c = lo * std::pow(hi / lo, double(b + 1) / bands);
    double sum = 0.0;
    for (int j = 1; j < n / 2; ++j)
      if (j * dn >= a && j * dn < c) sum += power[static_cast<size_t>(j)] * dn;
    const double x = std::log(std::sqrt(a * c) / kIso8608N0), y = std::log(sum / (c - a));
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  const double slope = (bands * sxy - sx * sy) / (bands * sxx - sx * sx);
  const double level = std::exp((sy - slope * sx) / bands);  // fitted G at n0
  std::printf("PSD slope %.4f, G(n0) %.4e m^3 (class C %.4e)\n", slope, level, kClassC);
  EXPECT_NEAR(slope, -2.0, 0.05);
  EXPECT_NEAR(level / kClassC, 1.0, 0.1) << "one-sided, cycles/m: a factor 2 or 2 pi would show here";
}

// Instance i's road depends on (seed, i, track) alone: built in ensembles of 3 and of 40, or as a slice whose
// study indices are given, its constants are the same bits; different instances get different roads.
TEST(Iso8608Road, AnInstancesRoadIsTheSameBitsInAnyEnsemble) {
  const Model model = load_model_file(testing::model_path("quarter_car_road.json"));
  const auto compiled = compile(model);
  const Ensemble small = build_ensemble(model, *compiled, 3, nullptr, {});
  const Ensemble large = build_ensemble(model, *compiled, 40, nullptr, {});
  const std::vector<long long> ids = {37, 2};
  const Ensemble slice = build_ensemble(model, *compiled, 2, nullptr, {}, &ids);
  std::vector<double> a(static_cast<size_t>(compiled->n_constants)), b(a.size()), c(a.size());
  small.gather_constants(2, a.data());
  large.gather_constants(2, b.data());
  slice.gather_constants(1, c.data());
  EXPECT_EQ(a, b);
  EXPECT_EQ(a, c);
  large.gather_constants(37, b.data());
  slice.gather_constants(0, c.data());
  EXPECT_EQ(b, c);
  large.gather_constants(3, b.data());
  EXPECT_NE(a, b) << "instances 2 and 3 got the same road";
}

// vary_by_instance false: the road is that of (seed, track), the same for every instance; the seed still changes it.
TEST(Iso8608Road, WithoutInstanceKeyingEveryInstanceMeetsTheRoadOfItsSeed) {
  nlohmann::ordered_json m = nlohmann::ordered_json::parse(
      std::ifstream(testing::model_path("quarter_car_road.json")));
  m["forces"][1]["motion2"]["function"]["vary_by_instance"] = false;
  const Model model = load_model_text(m.dump(), "common_roads.json");
  EXPECT_FALSE(has_instance_keyed_functions(model));
  const auto compiled = compile(model);
  ParameterTable table;
  table.source = "seeds";
  table.names = {"road_seed"};
  table.rows = {{4}, {4}, {5}};
  const Ensemble e = build_ensemble(model, *compiled, 0, &table, {});
  std::vector<double> a(static_cast<size_t>(compiled->n_constants)), b(a.size()), c(a.size());
  e.gather_constants(0, a.data());
  e.gather_constants(1, b.data());
  e.gather_constants(2, c.data());
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_TRUE(testing::text_refused(
      [&] {
        m["forces"][1]["motion2"]["function"]["vary_by_instance"] = "no";
        return m.dump();
      }(),
      "/forces/1/motion2/function/vary_by_instance", {"true or false"}));
}

// Coherence c between the tracks: c = 1 makes the right track the left one; c = 0 and c = 0.5 give a correlation
// coefficient (over 60 seeds' 1 km of road) of 0 and sqrt(0.5).
TEST(Iso8608Road, RightTrackCoherenceIsTheChosenOne) {
  const std::vector<double> left = sample(road(5), 0.5, 400), same = sample(road(5, 1, 1.0), 0.5, 400);
  for (size_t i = 0; i < left.size(); ++i) EXPECT_NEAR(same[i], left[i], 1e-12);
  for (double c : {0.0, 0.5}) {
    double lr = 0, ll = 0, rr = 0;
    for (int seed = 0; seed < 60; ++seed) {
      const std::vector<double> l = sample(road(seed), 0.5, 2000), r = sample(road(seed, 1, c), 0.5, 2000);
      for (size_t i = 0; i < l.size(); ++i) lr += l[i] * r[i], ll += l[i] * l[i], rr += r[i] * r[i];
    }
    const double correlation = lr / std::sqrt(ll * rr);
    std::printf("coherence %.1f: correlation %.4f (expected %.4f)\n", c, correlation, std::sqrt(c));
    EXPECT_NEAR(correlation, std::sqrt(c), 0.08);
  }
}

// Rate and acceleration are the derivatives of the value, fade-in included (central differences).
TEST(Iso8608Road, RateAndAccelerationAreTheDerivativesOfTheValue) {
  TimeFunction f = road(3);
  f.speed = {22.0, -1};
  f.distance = {-4.0, -1};
  f.fade_in = {10.0, -1};
  EXPECT_EQ(evaluate_time_function(f, 0.1).value, 0.0) << "before the road starts";
  for (double t : {0.3, 0.5, 0.7, 1.3}) {  // inside the fade-in (x < 10 m) and after it
    const double h = 1e-5;
    const TimeValue m = evaluate_time_function(f, t - h), c = evaluate_time_function(f, t),
                    p = evaluate_time_function(f, t + h);
    EXPECT_NEAR(c.rate, (p.value - m.value) / (2 * h), 1e-6 * (1 + std::abs(c.rate))) << t;
    EXPECT_NEAR(c.acceleration, (p.rate - m.rate) / (2 * h), 1e-5 * (1 + std::abs(c.acceleration))) << t;
  }
}

std::string road_model(const std::string& road_fields) {
  nlohmann::ordered_json m = testing::pendulum_model();
  m["forces"] = nlohmann::ordered_json::parse(
      R"([{"name": "tire", "type": "tsda", "body1": "bob", "body2": "ground", "stiffness": 100,
           "motion2": {"direction": [0, 1, 0], "function": {"type": "iso8608_road", )" +
      road_fields + "}}}]");
  return m.dump();
}

TEST(Iso8608Road, BadRoadsAreRefusedByName) {
  using testing::text_refused;
  const std::string f = "/forces/0/motion2/function";
  EXPECT_TRUE(text_refused(road_model(R"("speed": 20)"), f, {"class (A-H) or gd_n0"}));
  EXPECT_TRUE(text_refused(road_model(R"("speed": 20, "class": "C", "gd_n0": 1e-4)"), f, {"not both"}));
  EXPECT_TRUE(text_refused(road_model(R"("speed": 20, "class": "J")"), f + "/class", {"ISO 8608 road class"}));
  EXPECT_TRUE(text_refused(road_model(R"("speed": 20, "class": "A", "class_value": "lower")"), f + "/class_value",
                           {"class A no lower bound"}));
  EXPECT_TRUE(text_refused(road_model(R"("speed": 20, "class": "C", "harmonics": 0)"), f + "/harmonics",
                           {"from 1 to"}));
  EXPECT_TRUE(text_refused(road_model(R"("class": "C")"), f + "/speed", {"missing required key"}));
  EXPECT_TRUE(text_refused(road_model(R"("speed": 20, "class": "C", "n_min": 3)"), f + "/n_max",
                           {"greater than n_min"}));
  EXPECT_TRUE(text_refused(road_model(R"("speed": -1, "class": "C")"), f + "/speed", {"negative"}));
  EXPECT_TRUE(text_refused(road_model(R"("speed": 20, "class": "C", "seed": 1.5)"), f + "/seed", {"whole number"}));
  EXPECT_TRUE(text_refused(road_model(R"("speed": 20, "class": "C", "coherence": 2)"), f + "/coherence",
                           {"[0, 1]"}));
  EXPECT_TRUE(text_refused(road_model(R"("speed": 20, "gd_n0": 0)"), f + "/gd_n0", {"positive"}));
  EXPECT_TRUE(text_refused(road_model(R"("speed": 20, "class": "C", "track": "middle")"), f + "/track", {"track"}));
}

}  // namespace road_profile_test
}  // namespace myriad
