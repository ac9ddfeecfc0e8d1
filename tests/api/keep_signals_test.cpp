// api::keep_signals and `myriad simulate --signals`: a run that keeps some of a model's outputs gives those
// signals, its KPIs and its step counts bit for bit as the run of the whole model does (the outputs left out are
// never computed, and nothing else changes), in the order named; bad lists are refused naming the flag, the
// signal and the reason.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "api/myriad/myriad.hpp"
#include "support/cli_run.hpp"

namespace myriad {
namespace keep_signals_test {

std::uint64_t bits(double value) {
  std::uint64_t b;
  std::memcpy(&b, &value, sizeof b);
  return b;
}

int index_of(const std::vector<std::string>& names, const std::string& name) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}

api::SimulationResult run(const api::LoadedModel& model, const std::string& integrator, int lanes) {
  api::SimulateRequest request;
  request.instances = 6;
  request.options.backend = "cpu";
  request.options.threads = 1;
  request.options.lanes = lanes;
  request.options.integrator = integrator;
  request.options.t_end = 0.5;
  return api::simulate(model, request);
}

// Every kept signal's values equal the whole model's column of that name, bit for bit, and the work is the same.
void expect_kept_columns(const api::SimulationResult& whole, const api::SimulationResult& kept) {
  ASSERT_EQ(whole.n_instances, kept.n_instances);
  ASSERT_EQ(whole.n_times, kept.n_times);
  for (int s = 0; s < kept.n_signals; ++s) {
    const int w = index_of(whole.signal_names, kept.signal_names[static_cast<size_t>(s)]);
    ASSERT_GE(w, 0) << kept.signal_names[static_cast<size_t>(s)];
    long long differing = 0;
    for (long long i = 0; i < kept.n_instances; ++i)
      for (int k = 0; k < kept.n_times; ++k) {
        const double a = (*whole.values)[(static_cast<size_t>(i) * whole.n_times + k) * whole.n_signals + w];
        const double b = (*kept.values)[(static_cast<size_t>(i) * kept.n_times + k) * kept.n_signals + s];
        differing += bits(a) != bits(b);
      }
    EXPECT_EQ(differing, 0) << kept.signal_names[static_cast<size_t>(s)];
  }
  for (long long i = 0; i < kept.n_instances; ++i) {
    EXPECT_EQ(whole.status[static_cast<size_t>(i)], kept.status[static_cast<size_t>(i)]);
    EXPECT_EQ(whole.stats[static_cast<size_t>(i)].steps, kept.stats[static_cast<size_t>(i)].steps);
  }
}

TEST(KeepSignals, TheRoadQuarterCarKeepsItsKpisAndTheNamedSignalsBitForBit) {
  const api::LoadedModel whole = api::load_model(test::model_path("quarter_car_road.json"));
  const std::vector<std::string> names = {"tire_force", "susp_force", "a_b", "travel"};  // every KPI's output
  const api::LoadedModel kept = api::keep_signals(whole, names);
  EXPECT_EQ(kept.signal_names(), names);
  EXPECT_EQ(kept.kpi_names(), whole.kpi_names());
  EXPECT_EQ(kept.source(), whole.source());
  ASSERT_EQ(whole.signal_names().size(), 7u);  // z_b, z_w and tire_length are left out
  const api::SimulationResult a = run(whole, "dopri5", 4), b = run(kept, "dopri5", 4);
  expect_kept_columns(a, b);
  ASSERT_EQ(a.kpis.size(), b.kpis.size());
  ASSERT_FALSE(a.kpis.empty());
  for (size_t i = 0; i < a.kpis.size(); ++i) EXPECT_EQ(bits(a.kpis[i]), bits(b.kpis[i])) << i;
}

// The stiff pendulum's theta1-dot alone: no kinematics pass runs for the row (a joint velocity is read from the
// state), on the lanes and one instance at a time.
TEST(KeepSignals, AJointVelocityAloneEqualsItsColumnOfTheWholeRunOnLanesAndAlone) {
  const api::LoadedModel whole = api::load_model(test::model_path("stiff_double_pendulum.json"));
  const api::LoadedModel kept = api::keep_signals(whole, {"theta1_dot"});
  for (int lanes : {1, 4}) {
    SCOPED_TRACE(lanes);
    expect_kept_columns(run(whole, "rn4", lanes), run(kept, "rn4", lanes));
  }
  // And a body point beside it, whose row needs the kinematics.
  expect_kept_columns(run(whole, "dopri5", 4), run(api::keep_signals(whole, {"y2_cm", "theta2"}), "dopri5", 4));
}

void expect_refused(const api::LoadedModel& model, const std::vector<std::string>& names, const std::string& part) {
  try {
    api::keep_signals(model, names);
    ADD_FAILURE() << "accepted; expected a refusal saying " << part;
  } catch (const api::SettingError& e) {
    EXPECT_EQ(e.setting(), "signals");
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(KeepSignals, AnEmptyListAnUnknownNameARepeatAndAKpisOutputLeftOutAreRefused) {
  const api::LoadedModel road = api::load_model(test::model_path("quarter_car_road.json"));
  expect_refused(road, {}, "at least one");
  expect_refused(road, {"tire_force", "z_B"}, "signal 'z_B': model 'quarter_car_road' has no output of that name");
  expect_refused(road, {"tire_force", "z_B"}, "z_b, z_w, a_b");  // the outputs it has
  expect_refused(road, {"tire_force", "tire_force"}, "'tire_force' is named twice");
  expect_refused(road, {"a_b", "travel", "susp_force"}, "'tire_force', which KPI 'dynamic_tire_load' reads");
}

TEST(KeepSignals, TheCliWritesTheNamedColumnsInOrderAndRefusesAnUnknownNameByFlag) {
  const std::filesystem::path dir = test::fresh_directory("keep_signals");
  const std::string model = test::model_path("stiff_double_pendulum.json");
  const std::string whole_csv = (dir / "whole.csv").string(), kept_csv = (dir / "kept.csv").string();
  const std::string common = " --instances 3 --t-end 0.2 --dt-out 0.01 --integrator rn4 --backend cpu --quiet --out ";
  ASSERT_EQ(test::run_cli("simulate " + model + common + whole_csv).status, 0);
  const test::CliRun kept = test::run_cli("simulate " + model + " --signals theta2,theta1_dot" + common + kept_csv);
  ASSERT_EQ(kept.status, 0) << kept.output;
  std::istringstream whole_text(test::read_text_file(whole_csv)), kept_text(test::read_text_file(kept_csv));
  std::string whole_line, kept_line;
  ASSERT_TRUE(std::getline(whole_text, whole_line));
  ASSERT_TRUE(std::getline(kept_text, kept_line));
  EXPECT_EQ(kept_line, "instance,time,theta2,theta1_dot");
  EXPECT_EQ(whole_line.rfind("instance,time,theta1,theta1_dot,theta2,", 0), 0u) << whole_line;
  long long rows = 0;
  while (std::getline(whole_text, whole_line)) {  // the same digits: theta2 is field 4, theta1_dot field 3
    ASSERT_TRUE(std::getline(kept_text, kept_line));
    std::vector<std::string> w, k;
    std::string field;
    for (std::istringstream f(whole_line); std::getline(f, field, ',');) w.push_back(field);
    for (std::istringstream f(kept_line); std::getline(f, field, ',');) k.push_back(field);
    ASSERT_EQ(k.size(), 4u) << kept_line;
    EXPECT_EQ(k[0], w[0]);
    EXPECT_EQ(k[1], w[1]);
    EXPECT_EQ(k[2], w[4]);
    EXPECT_EQ(k[3], w[3]);
    ++rows;
  }
  EXPECT_EQ(rows, 3 * 21);
  EXPECT_FALSE(std::getline(kept_text, kept_line));

  const test::CliRun bad = test::run_cli("simulate " + model + " --signals theta1_dot,omega" + common +
                                         (dir / "bad.csv").string());
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.output.find("--signals: signal 'omega'"), std::string::npos) << bad.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.csv"));
}

}  // namespace keep_signals_test
}  // namespace myriad
