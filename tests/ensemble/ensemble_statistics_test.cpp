// Ensemble statistics on the CPU: exact values on a hand-made result with a failed instance, the NaN
// conventions, bitwise invariance under the thread count, accuracy on data with a large offset, and the CSV
// writers.
#include "ensemble/ensemble_statistics.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>

#include "io/statistics_writers.hpp"

namespace myriad {
namespace ensemble_statistics_test {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

EnsembleResult make_result(int n_instances, int n_times, int n_signals) {
  EnsembleResult r;
  r.n_instances = n_instances;
  r.n_times = n_times;
  r.n_signals = n_signals;
  for (int k = 0; k < n_times; ++k) r.times.push_back(0.5 * k);
  r.values.assign(static_cast<size_t>(n_instances) * n_times * n_signals, kNaN);
  r.status.assign(static_cast<size_t>(n_instances), InstanceStatus::ok);
  r.stats.assign(static_cast<size_t>(n_instances), IntegratorStats{});
  r.wall_seconds.assign(static_cast<size_t>(n_instances), 0.0);
  return r;
}

double& at(EnsembleResult& r, int i, int k, int s) {
  return r.values[(static_cast<size_t>(i) * r.n_times + k) * r.n_signals + s];
}

// Four instances, three times, two signals. Instance 2 fails after t = 0.5 (NaN at t = 1), instance 3 at
// once.
EnsembleResult hand_made_result() {
  EnsembleResult r = make_result(4, 3, 2);
  const double v[3][3][2] = {{{1, -1}, {2, 0}, {3, 4}},         // instance 0: [time][signal]
                             {{3, 1}, {4, 0}, {5, -2}},         // instance 1
                             {{5, 3}, {9, -6}, {kNaN, kNaN}}};  // instance 2 (failed)
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k)
      for (int s = 0; s < 2; ++s) at(r, i, k, s) = v[i][k][s];
  r.status[2] = InstanceStatus::step_size_too_small;
  r.status[3] = InstanceStatus::non_finite;
  return r;
}

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0);
}

void expect_bitwise_equal(const EnsembleStatistics& a, const EnsembleStatistics& b) {
  EXPECT_EQ(a.count, b.count);
  EXPECT_TRUE(bitwise_equal(a.mean, b.mean));
  EXPECT_TRUE(bitwise_equal(a.stddev, b.stddev));
  EXPECT_TRUE(bitwise_equal(a.min, b.min));
  EXPECT_TRUE(bitwise_equal(a.max, b.max));
  EXPECT_TRUE(bitwise_equal(a.kpi_max_abs, b.kpi_max_abs));
  EXPECT_TRUE(bitwise_equal(a.kpi_rms, b.kpi_rms));
  EXPECT_TRUE(bitwise_equal(a.kpi_final, b.kpi_final));
}

// A random result: values of different scales per signal, some instances failing at a random time.
EnsembleResult random_result(int n_instances, int n_times, int n_signals, unsigned seed) {
  EnsembleResult r = make_result(n_instances, n_times, n_signals);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_int_distribution<int> failure_time(0, n_times - 1);
  for (int i = 0; i < n_instances; ++i) {
    const int fails_at = (i % 7 == 3) ? failure_time(rng) : n_times;
    for (int k = 0; k < fails_at; ++k)
      for (int s = 0; s < n_signals; ++s) at(r, i, k, s) = std::pow(10.0, s - 1) * (s + normal(rng));
  }
  return r;
}

TEST(EnsembleStatistics, HandMadeResultGivesExactMomentsOverFiniteInstances) {
  const EnsembleStatistics st = compute_statistics(hand_made_result());
  ASSERT_EQ(st.n_times, 3);
  ASSERT_EQ(st.n_signals, 2);
  ASSERT_EQ(st.n_instances, 4);
  ASSERT_EQ(st.count.size(), 6u);
  // [k * 2 + s]: the finite values of each cell and their count, mean, sample std, min, max.
  const std::vector<int> count = {3, 3, 3, 3, 2, 2};
  const std::vector<double> mean = {3, 1, 5, -2, 4, 1};
  const std::vector<double> stddev = {
      2, 2, std::sqrt(13.0), std::sqrt(12.0), std::sqrt(2.0), std::sqrt(18.0)};
  const std::vector<double> min = {1, -1, 2, -6, 3, -2};
  const std::vector<double> max = {5, 3, 9, 0, 5, 4};
  for (size_t c = 0; c < 6; ++c) {
    EXPECT_EQ(st.count[c], count[c]) << "cell " << c;
    EXPECT_EQ(st.mean[c], mean[c]) << "cell " << c;
    EXPECT_EQ(st.stddev[c], stddev[c]) << "cell " << c;
    EXPECT_EQ(st.min[c], min[c]) << "cell " << c;
    EXPECT_EQ(st.max[c], max[c]) << "cell " << c;
  }
}

TEST(EnsembleStatistics, KpisCoverTheSamplesUpToAFailure) {
  const EnsembleStatistics st = compute_statistics(hand_made_result());
  ASSERT_EQ(st.kpi_max_abs.size(), 8u);
  // [i * 2 + s]
  const std::vector<double> max_abs = {3, 4, 5, 2, 9, 6};
  const std::vector<double> rms = {std::sqrt(14.0 / 3), std::sqrt(17.0 / 3), std::sqrt(50.0 / 3),
                                   std::sqrt(5.0 / 3),  std::sqrt(53.0),     std::sqrt(22.5)};
  const std::vector<double> final_value = {3, 4, 5, -2, 9, -6};
  for (size_t j = 0; j < 6; ++j) {
    EXPECT_EQ(st.kpi_max_abs[j], max_abs[j]) << "entry " << j;
    EXPECT_DOUBLE_EQ(st.kpi_rms[j], rms[j]) << "entry " << j;
    EXPECT_EQ(st.kpi_final[j], final_value[j]) << "entry " << j;
  }
  for (size_t j = 6; j < 8; ++j) {  // instance 3 failed before its first output
    EXPECT_TRUE(std::isnan(st.kpi_max_abs[j]));
    EXPECT_TRUE(std::isnan(st.kpi_rms[j]));
    EXPECT_TRUE(std::isnan(st.kpi_final[j]));
  }
}

TEST(EnsembleStatistics, EmptyCellsAreNanAndOneValueHasNoSampleStd) {
  EnsembleResult r = make_result(2, 2, 1);
  at(r, 0, 0, 0) = 7.0;                                      // time 0: one finite value
  at(r, 1, 0, 0) = std::numeric_limits<double>::infinity();  // skipped like NaN
  const EnsembleStatistics st = compute_statistics(r, 2);
  EXPECT_EQ(st.count[0], 1);
  EXPECT_EQ(st.mean[0], 7.0);
  EXPECT_TRUE(std::isnan(st.stddev[0]));
  EXPECT_EQ(st.min[0], 7.0);
  EXPECT_EQ(st.max[0], 7.0);
  EXPECT_EQ(st.count[1], 0);  // time 1: nothing finite
  EXPECT_TRUE(std::isnan(st.mean[1]));
  EXPECT_TRUE(std::isnan(st.stddev[1]));
  EXPECT_TRUE(std::isnan(st.min[1]));
  EXPECT_TRUE(std::isnan(st.max[1]));
  EXPECT_EQ(st.kpi_final[0], 7.0);
  EXPECT_EQ(st.kpi_rms[0], 7.0);
  EXPECT_TRUE(std::isnan(st.kpi_final[1]));

  const EnsembleStatistics none = compute_statistics(make_result(0, 2, 1), 3);
  EXPECT_EQ(none.count, std::vector<int>({0, 0}));
  EXPECT_TRUE(std::isnan(none.mean[0]));
  EXPECT_TRUE(none.kpi_rms.empty());
}

TEST(EnsembleStatistics, ZeroSignalIsZeroRmsNotNan) {
  EnsembleResult r = make_result(1, 3, 1);
  for (int k = 0; k < 3; ++k) at(r, 0, k, 0) = 0.0;
  const EnsembleStatistics st = compute_statistics(r);
  EXPECT_EQ(st.kpi_max_abs[0], 0.0);
  EXPECT_EQ(st.kpi_rms[0], 0.0);
  EXPECT_EQ(st.kpi_final[0], 0.0);
}

TEST(EnsembleStatistics, ResultIsBitwiseIdenticalForAnyThreadCount) {
  const EnsembleResult r = random_result(1000, 9, 3, 2024);  // 16 tiles, the last one partial
  const EnsembleStatistics one = compute_statistics(r, 1);
  for (int threads : {2, 3, 0}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    expect_bitwise_equal(one, compute_statistics(r, threads));
  }
  expect_bitwise_equal(one, compute_statistics(r, 1));  // and run to run
}

TEST(EnsembleStatistics, MatchesLongDoubleReferenceOnRandomResult) {
  const EnsembleResult r = random_result(1000, 9, 3, 7);
  const EnsembleStatistics st = compute_statistics(r, 3);
  for (int k = 0; k < r.n_times; ++k)
    for (int s = 0; s < r.n_signals; ++s) {
      long double sum = 0, sum_sq = 0, lo = INFINITY, hi = -INFINITY;
      int n = 0;
      for (int i = 0; i < r.n_instances; ++i) {
        const double x = r.value(i, k, s);
        if (!std::isfinite(x)) continue;
        ++n;
        sum += x;
        lo = std::min<long double>(lo, x);
        hi = std::max<long double>(hi, x);
      }
      const long double mean = sum / n;
      for (int i = 0; i < r.n_instances; ++i) {
        const double x = r.value(i, k, s);
        if (std::isfinite(x)) sum_sq += (x - mean) * (x - mean);
      }
      const double stddev = static_cast<double>(std::sqrt(sum_sq / (n - 1)));
      const size_t c = static_cast<size_t>(k * r.n_signals + s);
      EXPECT_EQ(st.count[c], n);
      EXPECT_NEAR(st.mean[c], static_cast<double>(mean),
                  1e-14 * static_cast<double>(std::fabs(mean)) + 1e-15 * stddev);
      EXPECT_NEAR(st.stddev[c], stddev, 1e-13 * stddev);
      EXPECT_EQ(st.min[c], static_cast<double>(lo));
      EXPECT_EQ(st.max[c], static_cast<double>(hi));
    }
}

TEST(EnsembleStatistics, LargeOffsetKeepsTheStandardDeviation) {
  // 1e8 + noise of 1e-3: sum x^2 - (sum x)^2 / n loses every digit; the tiled two-pass with Chan's merge does
  // not.
  EnsembleResult r = make_result(1000, 1, 1);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> noise(-1e-3, 1e-3);
  for (int i = 0; i < 1000; ++i) at(r, i, 0, 0) = 1e8 + noise(rng);
  // Reference: x - 1e8 is exact (Sterbenz), then a long double two-pass over the differences.
  long double sum = 0, sum_sq = 0;
  for (double x : r.values) sum += x - 1e8;
  const long double mean_offset = sum / 1000;
  for (double x : r.values) sum_sq += (x - 1e8 - mean_offset) * (x - 1e8 - mean_offset);
  const double reference = static_cast<double>(std::sqrt(sum_sq / 999));
  double naive_s = 0, naive_s2 = 0;
  for (double x : r.values) naive_s += x, naive_s2 += x * x;
  const double naive_variance = (naive_s2 - naive_s * naive_s / 1000) / 999;
  // The naive formula is off by orders of magnitude (or negative); ours is within 1e-6 relative.
  EXPECT_FALSE(std::fabs(std::sqrt(std::fabs(naive_variance)) - reference) < 1e-2 * reference);
  for (int threads : {1, 3}) {
    const EnsembleStatistics st = compute_statistics(r, threads);
    EXPECT_NEAR(st.stddev[0], reference, 1e-6 * reference);
    EXPECT_NEAR(st.mean[0], 1e8 + static_cast<double>(mean_offset), 1e-15 * 1e8);
  }
}

// The CLI's --summary beside a chunked CSV --out: chunks of whole tiles, added in order, give the whole ensemble's
// statistics bit for bit (each tile's partial is computed from the same values in the same order, and the tree
// over the tiles is the same), with NaN rows of failed instances in some chunks.
TEST(EnsembleStatistics, ChunksOfWholeTilesGiveTheWholeEnsemblesStatisticsBitForBit) {
  EnsembleResult r = random_result(1000, 9, 3, 99);  // 16 tiles, the last one partial
  const std::size_t cells = 9 * 3;
  for (int k = 4; k < 9; ++k)  // instance 130 fails at its fifth output time; instance 999 has no value at all
    for (int s = 0; s < 3; ++s) r.values[130 * cells + static_cast<std::size_t>(k * 3 + s)] = std::nan("");
  for (std::size_t c = 0; c < cells; ++c) r.values[999 * cells + c] = std::nan("");
  const EnsembleStatistics whole = compute_statistics(r, 1);
  for (const long long chunk : {64LL, 128LL, 192LL, 640LL, 1000LL}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    StatisticsStream stream = begin_statistics(1000, 9, 3);
    for (long long first = 0; first < 1000; first += chunk)
      add_statistics_chunk(stream, std::min(chunk, 1000 - first), r.values.data() + first * cells,
                           chunk == 128 ? 3 : 1);
    expect_bitwise_equal(whole, finish_statistics(stream, 2));
  }
}

TEST(EnsembleStatistics, AStreamRefusesChunksThatSplitATileOrRunPastTheEnsemble) {
  const EnsembleResult r = random_result(200, 2, 1, 5);
  StatisticsStream stream = begin_statistics(200, 2, 1);
  EXPECT_THROW(add_statistics_chunk(stream, 100, r.values.data()), std::invalid_argument);  // splits tile 1
  add_statistics_chunk(stream, 64, r.values.data());
  EXPECT_THROW(finish_statistics(stream), std::invalid_argument);  // 64 of 200 added
  EXPECT_THROW(add_statistics_chunk(stream, 137, r.values.data() + 64 * 2), std::invalid_argument);  // past 200
  add_statistics_chunk(stream, 136, r.values.data() + 64 * 2);  // the last chunk may end anywhere
  expect_bitwise_equal(compute_statistics(r), finish_statistics(stream));
}

TEST(EnsembleStatistics, RejectsValuesOfTheWrongSize) {
  EnsembleResult r = make_result(3, 2, 2);
  r.values.pop_back();
  EXPECT_THROW(compute_statistics(r), std::invalid_argument);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(EnsembleStatisticsCsv, SummaryAndKpiFilesHaveOneRowPerCell) {
  const EnsembleResult r = hand_made_result();
  const EnsembleStatistics st = compute_statistics(r);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("myriad_stats_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string summary = (dir / "summary.csv").string(), kpi = (dir / "kpi.csv").string();
  write_summary_csv(summary, st, r.times, {"x", "v"});
  write_kpi_csv(kpi, st, {"x", "v"});
  EXPECT_EQ(read_text(summary),
            "time,signal,count,mean,std,min,max\n"
            "0,x,3,3,2,1,5\n"
            "0,v,3,1,2,-1,3\n"
            "0.5,x,3,5,3.6055512754639891,2,9\n"
            "0.5,v,3,-2,3.4641016151377544,-6,0\n"
            "1,x,2,4,1.4142135623730951,3,5\n"
            "1,v,2,1,4.2426406871192848,-2,4\n");
  const std::string k = read_text(kpi);
  EXPECT_EQ(k.substr(0, k.find('\n')), "instance,signal,max_abs,rms,final");
  EXPECT_NE(k.find("\n2,v,6,4.7434164902525691,-6\n"), std::string::npos) << k;
  EXPECT_NE(k.find("\n3,x,nan,nan,nan\n3,v,nan,nan,nan\n"), std::string::npos) << k;
  EXPECT_THROW(write_kpi_csv(kpi, st, {"x"}), std::invalid_argument);
  EXPECT_THROW(write_summary_csv(summary, st, {0.0}, {"x", "v"}), std::invalid_argument);
  std::filesystem::remove_all(dir);
}

}  // namespace ensemble_statistics_test
}  // namespace myriad
