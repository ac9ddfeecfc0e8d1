// Running studies: the Ishigami function's Sobol indices through the whole path (design, chunks, file, finish)
// against their closed form; a run stopped after some chunks and resumed equals an uninterrupted one bit for bit,
// with no complete-looking file while it is unfinished; what --resume refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "study/results_file.hpp"
#include "study/run_study.hpp"
#include "study/study_error.hpp"
#include "study/study_reader.hpp"
#include "support/cli_run.hpp"

namespace myriad::study {
namespace run_study_test {

namespace fs = std::filesystem;

const std::string kIshigamiParameters = R"(
  {"name": "x1", "distribution": "uniform", "lower": -3.141592653589793, "upper": 3.141592653589793},
  {"name": "x2", "distribution": "uniform", "lower": -3.141592653589793, "upper": 3.141592653589793},
  {"name": "x3", "distribution": "uniform", "lower": -3.141592653589793, "upper": 3.141592653589793})";

std::vector<double> read_dataset(const std::string& path, const std::string& name) {
  h5::Handle file = h5::checked(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, path, "open");
  const h5::Handle d = h5::open_dataset(file.get(), name, path);
  const std::vector<hsize_t> dims = h5::dataset_dims(d.get(), path);
  std::size_t count = 1;
  for (hsize_t x : dims) count *= x;
  std::vector<double> values(count);
  if (count > 0) h5::read_rows(d.get(), H5T_NATIVE_DOUBLE, 0, dims[0], values.data(), path);
  return values;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(Study, IshigamiSobolIndicesAreWithinTwoHundredthsOfTheClosedFormAt2To14BaseRows) {
  const fs::path dir = test::fresh_directory("study_ishigami");
  const StudySpec spec = read_study_text(R"({"model": "builtin:ishigami", "parameters": [)" + kIshigamiParameters +
                                             R"(], "sampler": {"type": "saltelli", "samples": 16384, "seed": 5},
                                             "sobol": {"bootstrap": 100}, "output": "ishigami.h5"})",
                                         "ishigami.json", dir.string());
  const StudyOutcome outcome = run_study(spec, {});
  ASSERT_TRUE(outcome.complete);
  EXPECT_EQ(outcome.instances, 16384 * 8);
  // Closed form (Ishigami & Homma 1990; a = 7, b = 0.1): V = a^2/8 + b pi^4/5 + b^2 pi^8/18 + 1/2.
  const double pi = 3.14159265358979323846, a = 7.0, b = 0.1;
  const double v1 = 0.5 * std::pow(1 + b * std::pow(pi, 4) / 5, 2), v2 = a * a / 8;
  const double v13 = b * b * std::pow(pi, 8) * (1.0 / 18 - 1.0 / 50);
  const double v = v1 + v2 + v13;
  const std::vector<double> s1 = read_dataset(outcome.path, "sobol/y/S1"), st = read_dataset(outcome.path, "sobol/y/ST");
  const double expected_s1[] = {v1 / v, v2 / v, 0.0}, expected_st[] = {(v1 + v13) / v, v2 / v, v13 / v};
  for (int j = 0; j < 3; ++j) {
    EXPECT_NEAR(s1[j], expected_s1[j], 0.02) << "S1 of x" << j + 1;
    EXPECT_NEAR(st[j], expected_st[j], 0.02) << "ST of x" << j + 1;
  }
  const std::vector<double> s1_conf = read_dataset(outcome.path, "sobol/y/S1_conf");
  for (double c : s1_conf) EXPECT_TRUE(c > 0.0 && c < 0.05) << c;
  fs::remove_all(dir);
}

// A quarter-car study with kept series, in chunks of 8: stopped after two chunks, then resumed.
std::string quarter_car_study(const std::string& output) {
  return R"({"model": ")" + std::string(MYRIAD_SOURCE_DIR) + R"(/models/quarter_car_road.json",
    "parameters": [{"name": "k_s", "distribution": "uniform", "lower": 1e4, "upper": 4e4},
                   {"name": "c_s", "distribution": "normal", "nominal": 1500, "tolerance": 300}],
    "sampler": {"type": "latin_hypercube", "samples": 40, "seed": 3},
    "simulation": {"t_end": 1.2, "rtol": 1e-5},
    "series": {"signals": ["a_b", "travel"], "dt": 0.01},
    "kpis": ["comfort_wk_rms", "travel_rms"], "chunk": 8, "output": ")" + output + R"("})";
}

TEST(Study, StoppedAfterTwoChunksAndResumedEqualsAnUninterruptedRunBitForBit) {
  const fs::path dir = test::fresh_directory("study_resume");
  const StudySpec whole = read_study_text(quarter_car_study("whole.h5"), "s.json", dir.string());
  const StudyOutcome reference = run_study(whole, {});
  ASSERT_TRUE(reference.complete);

  const StudySpec split = read_study_text(quarter_car_study("split.h5"), "s.json", dir.string());
  std::atomic<bool> stop{false};
  StudyRunOptions options;
  options.stop = &stop;
  bool complete_file_seen = false;
  options.progress = [&](const StudyProgress& p) {
    if (p.chunks_done >= 2) stop = true;
    complete_file_seen = complete_file_seen || fs::exists(dir / "split.h5");
  };
  const StudyOutcome first = run_study(split, options);
  EXPECT_FALSE(first.complete);
  // The stop comes once chunk 1 is written, while chunk 2 computes (writes overlap the next chunk): two or three
  // chunks are in, never all five.
  const long long in_file = first.chunks_run;
  EXPECT_TRUE(in_file == 2 || in_file == 3) << in_file;
  EXPECT_EQ(first.path, (dir / "split.h5.part").string());
  EXPECT_FALSE(fs::exists(dir / "split.h5"));
  EXPECT_FALSE(complete_file_seen);
  {
    const ResultsFile part = ResultsFile::open(first.path, false);
    const std::vector<std::uint8_t> done = part.chunks_done();
    for (std::size_t k = 0; k < done.size(); ++k) EXPECT_EQ(done[k], k < static_cast<std::size_t>(in_file) ? 1 : 0) << k;
  }
  // Starting again without --resume is refused: the unfinished run is not thrown away silently.
  EXPECT_THROW(run_study(split, {}), std::runtime_error);

  StudyRunOptions resume;
  resume.resume = true;
  const StudyOutcome second = run_study(split, resume);
  ASSERT_TRUE(second.complete);
  EXPECT_EQ(second.chunks_resumed, in_file);
  EXPECT_EQ(second.chunks_run, 5 - in_file);
  EXPECT_FALSE(fs::exists(dir / "split.h5.part"));
  for (const char* name : {"parameters", "kpis", "instances/failure_time", "series/a_b", "series/travel",
                           "series/time", "statistics/a_b/mean", "statistics/a_b/sd", "statistics/travel/max"}) {
    const std::vector<double> a = read_dataset(reference.path, name), b = read_dataset(second.path, name);
    EXPECT_FALSE(a.empty()) << name;
    EXPECT_TRUE(same_bits(a, b)) << name;
  }
  // Series decimated to 100 Hz from the run's 1 kHz, and the statistics agree with the kept rows.
  const std::vector<double> time = read_dataset(second.path, "series/time");
  ASSERT_EQ(time.size(), 121u);
  EXPECT_NEAR(time[1], 0.01, 1e-12);
  const std::vector<double> travel = read_dataset(second.path, "series/travel");
  const std::vector<double> mean = read_dataset(second.path, "statistics/travel/mean");
  double sum = 0.0;
  for (int i = 0; i < 40; ++i) sum += travel[static_cast<std::size_t>(i) * 121 + 60];
  EXPECT_NEAR(mean[60], sum / 40, 1e-15);
  EXPECT_EQ(test::read_text_file(dir / "whole_kpis.csv"), test::read_text_file(dir / "split_kpis.csv"));
  fs::remove_all(dir);
}

TEST(Study, AnInstanceMeetsItsRoadWhateverChunkItRunsIn) {
  // quarter_car_road keys each instance's random road by its index: a chunk must pass the rows' study indices.
  const fs::path dir = test::fresh_directory("study_chunks");
  std::string one_chunk = quarter_car_study("one.h5");
  one_chunk.replace(one_chunk.find("\"chunk\": 8"), 10, "\"chunk\": 40");
  const StudyOutcome whole = run_study(read_study_text(one_chunk, "s.json", dir.string()), {});
  const StudyOutcome chunked = run_study(read_study_text(quarter_car_study("eight.h5"), "s.json", dir.string()), {});
  ASSERT_TRUE(whole.complete && chunked.complete);
  EXPECT_EQ(whole.chunks, 1);
  EXPECT_EQ(chunked.chunks, 5);
  for (const char* name : {"kpis", "series/a_b"})
    EXPECT_TRUE(same_bits(read_dataset(whole.path, name), read_dataset(chunked.path, name))) << name;
  // And as one api::simulate of all 40 rows: the study adds nothing to an instance.
  api::SimulateRequest request;
  std::vector<double> parameters = read_dataset(whole.path, "parameters");
  request.parameters = api::ParameterSet::from_array({"k_s", "c_s"}, 40, parameters.data());
  request.options.t_end = 1.2;
  request.options.rtol = 1e-5;
  request.keep_series = false;
  const api::SimulationResult direct =
      api::simulate(api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/quarter_car_road.json"), request);
  const std::vector<double> kpis = read_dataset(chunked.path, "kpis");
  const std::size_t k_model = direct.kpi_names.size();
  const std::size_t comfort = 0, travel = static_cast<std::size_t>(
      std::find(direct.kpi_names.begin(), direct.kpi_names.end(), "travel_rms") - direct.kpi_names.begin());
  for (std::size_t i = 0; i < 40; ++i) {
    EXPECT_EQ(kpis[2 * i], direct.kpis[i * k_model + comfort]) << i;
    EXPECT_EQ(kpis[2 * i + 1], direct.kpis[i * k_model + travel]) << i;
  }
  fs::remove_all(dir);
}

TEST(Study, DerivedFreeLengthsKeepEverySampledCarInStaticEquilibrium) {
  // The free lengths from the sampled stiffness and body mass (the model's note: l0_s = 0.3 m static length +
  // m_b g / k_s, l0_t likewise): every car then starts at rest where the file puts it. Standing still (speed 0: the
  // road does not move under the wheel) it stays there; without the derived lengths it sags by centimetres.
  const fs::path dir = test::fresh_directory("study_derived");
  const auto text = [](const std::string& derived, const std::string& output) {
    return R"({"model": ")" + std::string(MYRIAD_SOURCE_DIR) + R"(/models/quarter_car_road.json",
    "parameters": [{"name": "k_s", "distribution": "uniform", "lower": 1e4, "upper": 4e4},
                   {"name": "m_b", "distribution": "uniform", "lower": 250, "upper": 400}],
    "fixed": {"speed": 0}, )" + derived + R"(
    "sampler": {"type": "latin_hypercube", "samples": 12, "seed": 2},
    "simulation": {"t_end": 0.3, "dt_out": 0.01}, "series": {"signals": ["travel", "z_b"]}, "chunk": 5,
    "output": ")" + output + R"("})";
  };
  const StudyOutcome outcome = run_study(
      read_study_text(text(R"("derived": {"l0_s": "0.3 + $m_b * 9.81 / $k_s",
                                          "l0_t": "0.3 + ($m_b + $m_w) * 9.81 / $k_t"},)", "derived.h5"),
                      "s.json", dir.string()), {});
  ASSERT_TRUE(outcome.complete);
  const StudyOutcome plain = run_study(read_study_text(text("", "plain.h5"), "s.json", dir.string()), {});
  const std::vector<double> sagging = read_dataset(plain.path, "series/z_b");
  const std::vector<double> parameters = read_dataset(outcome.path, "parameters");
  const std::vector<double> derived = read_dataset(outcome.path, "derived");
  const api::LoadedModel model = api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/quarter_car_road.json");
  const auto default_of = [&](const std::string& name) {
    const auto& names = model.parameter_names();
    return model.parameter_defaults()[static_cast<std::size_t>(std::find(names.begin(), names.end(), name) -
                                                               names.begin())];
  };
  const double g = 9.81, m_w = default_of("m_w"), k_t = default_of("k_t");
  const std::vector<double> z_b = read_dataset(outcome.path, "series/z_b");
  const std::size_t t = z_b.size() / 12;
  for (std::size_t i = 0; i < 12; ++i) {
    const double k_s = parameters[2 * i], m_b = parameters[2 * i + 1];
    EXPECT_EQ(derived[2 * i], 0.3 + m_b * g / k_s);
    EXPECT_EQ(derived[2 * i + 1], 0.3 + (m_b + m_w) * g / k_t);
    for (std::size_t k = 0; k < t; ++k) EXPECT_NEAR(z_b[i * t + k], z_b[i * t], 1e-9) << i << " " << k;
    double sag = 0.0;
    for (std::size_t k = 0; k < t; ++k) sag = std::max(sag, std::fabs(sagging[i * t + k] - sagging[i * t]));
    EXPECT_GT(sag, 1e-3) << i;
  }
  fs::remove_all(dir);
}

TEST(Study, ResumeRefusesAChangedStudyAndARunThatIsNotThere) {
  const fs::path dir = test::fresh_directory("study_refusals");
  StudyRunOptions resume;
  resume.resume = true;
  const StudySpec spec = read_study_text(quarter_car_study("r.h5"), "s.json", dir.string());
  EXPECT_THROW(run_study(spec, resume), std::runtime_error);  // nothing to resume
  std::atomic<bool> stop{true};
  StudyRunOptions first;
  first.stop = &stop;
  ASSERT_FALSE(run_study(spec, first).complete);  // one chunk (the file's first), then stopped
  std::string changed = quarter_car_study("r.h5");
  changed.replace(changed.find("\"seed\": 3"), 9, "\"seed\": 4");
  try {
    run_study(read_study_text(changed, "s.json", dir.string()), resume);
    ADD_FAILURE() << "a changed study was resumed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the study file changed"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

}  // namespace run_study_test
}  // namespace myriad::study
