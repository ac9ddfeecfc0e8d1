// api::simulate: the quarter-car study equals the CLI's CSV bit for bit (values parsed back from their shortest
// round-trip text); the result's values are the run's own vector, shared (no copy); progress reaches the total from
// the calling thread at most ~10 times a second; a cancel flag set from another thread stops a cpu run soon with
// api::Cancelled.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "api/myriad/myriad.hpp"
#include "ensemble/cpu_runner.hpp"
#include "ensemble/ensemble.hpp"
#include "ensemble/parameter_table.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"
#include "support/cli_run.hpp"

namespace myriad {
namespace simulate_test {

using Clock = std::chrono::steady_clock;

std::uint64_t bits(double value) {
  std::uint64_t b;
  std::memcpy(&b, &value, sizeof b);
  return b;
}

TEST(ApiSimulate, QuarterCarStudyEqualsTheCliCsvBitForBit) {
  const std::filesystem::path dir = test::fresh_directory("api_simulate");
  const std::string csv = (dir / "out.csv").string();
  const test::CliRun cli = test::run_cli("simulate " + test::model_path("quarter_car.json") + " --params " +
                                         test::model_path("quarter_car_study.csv") +
                                         " --backend cpu --quiet --out " + csv);
  ASSERT_EQ(cli.status, 0) << cli.output;

  const api::LoadedModel model = api::load_model(test::model_path("quarter_car.json"));
  api::SimulateRequest request;
  request.parameters = api::ParameterSet::from_csv(test::model_path("quarter_car_study.csv"));
  request.options.backend = "cpu";
  const api::SimulationResult r = api::simulate(model, request);
  ASSERT_EQ(r.n_instances, 1024);
  ASSERT_EQ(r.n_times, 601);
  ASSERT_EQ(r.n_signals, 13);
  EXPECT_EQ(r.signal_names, model.signal_names());
  EXPECT_EQ(r.backend, "cpu");
  EXPECT_EQ(r.integrator, "dopri5");
  ASSERT_EQ(r.values->size(), static_cast<size_t>(1024 * 601 * 13));
  ASSERT_EQ(r.status.size(), 1024u);
  for (int s : r.status) EXPECT_EQ(s, 0) << api::status_name(s);
  for (const api::InstanceStats& s : r.stats) EXPECT_GT(s.steps, 0);

  std::istringstream text(test::read_text_file(csv));
  std::string line;
  ASSERT_TRUE(std::getline(text, line));
  std::string header = "instance,time";
  for (const std::string& name : r.signal_names) header += "," + name;
  EXPECT_EQ(line, header);
  long long rows = 0, mismatches = 0;
  while (std::getline(text, line)) {
    std::istringstream fields(line);
    std::string field;
    std::getline(fields, field, ',');
    const long long i = std::stoll(field);
    std::getline(fields, field, ',');
    const double t = std::strtod(field.c_str(), nullptr);
    const long long k = rows % r.n_times;
    ASSERT_EQ(i, rows / r.n_times) << line;
    EXPECT_EQ(bits(t), bits(r.times[static_cast<size_t>(k)])) << line;
    for (int s = 0; s < r.n_signals; ++s) {
      ASSERT_TRUE(std::getline(fields, field, ',')) << line;
      const double cli_value = std::strtod(field.c_str(), nullptr);
      const double api_value = (*r.values)[(static_cast<size_t>(i) * r.n_times + k) * r.n_signals + s];
      if (bits(cli_value) != bits(api_value) && ++mismatches <= 5)
        ADD_FAILURE() << "instance " << i << " time " << k << " signal " << s << ": cli " << field << ", api "
                      << api_value;
    }
    ++rows;
  }
  EXPECT_EQ(rows, 1024LL * 601);
  EXPECT_EQ(mismatches, 0);
  std::filesystem::remove_all(dir);

  // And the ensemble layer run directly, as the CLI ran before it went through the API: the model's simulation
  // block as the run spec (the defaults of StepControl and RunSpec for the rest).
  const Model m = load_model_file(test::model_path("quarter_car.json"));
  const auto compiled = compile(m);
  const ParameterTable table = read_parameter_csv(test::model_path("quarter_car_study.csv"));
  const Ensemble ensemble = build_ensemble(m, *compiled, 0, &table, {});
  RunSpec spec;
  spec.method = Method::dopri5;
  spec.h = m.simulation.h;
  spec.control.rtol = m.simulation.rtol;
  spec.control.atol = m.simulation.atol;
  const EnsembleResult direct =
      run_ensemble_cpu(*compiled, ensemble, spec, output_grid(0.0, m.simulation.t_end, m.simulation.dt_out), 0);
  ASSERT_EQ(direct.values.size(), r.values->size());
  EXPECT_EQ(std::memcmp(direct.values.data(), r.values->data(), direct.values.size() * sizeof(double)), 0);
  EXPECT_EQ(direct.times, r.times);
}

TEST(ApiSimulate, ValuesAreTheRunsOwnVectorSharedNotCopied) {
  const api::LoadedModel model = api::load_model(test::model_path("pendulum_002.json"));
  api::SimulateRequest request;
  request.instances = 3;
  request.options.t_end = 0.1;
  request.options.backend = "reference";
  request.overrides = {{"m", 2.5}};
  api::SimulationResult r = api::simulate(model, request);
  EXPECT_EQ(r.backend, "reference");
  EXPECT_EQ(r.values.use_count(), 1);
  const double* data = r.values->data();
  const std::shared_ptr<std::vector<double>> view = r.values;  // what a binding keeps as the array's owner
  api::SimulationResult moved = std::move(r);
  EXPECT_EQ(moved.values->data(), data);
  EXPECT_EQ(view->data(), data);
  EXPECT_EQ(moved.values->size(), static_cast<size_t>(3 * moved.n_times * moved.n_signals));
  // Three instances with the same parameters: the same numbers.
  const size_t per = static_cast<size_t>(moved.n_times * moved.n_signals);
  for (size_t k = 0; k < per; ++k) EXPECT_EQ(bits(data[k]), bits(data[2 * per + k]));
}

TEST(ApiSimulate, ProgressReachesTheTotalFromTheCallingThreadAtMostTenTimesASecond) {
  const api::LoadedModel model = api::load_model(test::model_path("quarter_car.json"));
  api::SimulateRequest request;
  request.instances = 800;
  request.options.backend = "cpu";
  request.options.dt_out = 0.5;
  std::vector<api::Progress> calls;
  const std::thread::id caller = std::this_thread::get_id();
  bool other_thread = false;
  request.progress = [&](const api::Progress& p) {
    other_thread = other_thread || std::this_thread::get_id() != caller;
    calls.push_back(p);
  };
  const auto start = Clock::now();
  const api::SimulationResult r = api::simulate(model, request);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_FALSE(other_thread);
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls.back().done, 800);
  for (size_t c = 0; c < calls.size(); ++c) {
    EXPECT_EQ(calls[c].total, 800);
    if (c > 0) EXPECT_GE(calls[c].done, calls[c - 1].done);
  }
  EXPECT_LE(static_cast<double>(calls.size()), seconds * 10.0 + 2.0) << seconds << " s";
  EXPECT_EQ(r.n_instances, 800);
}

TEST(ApiSimulate, ACancelFlagSetFromAnotherThreadStopsACpuRunSoonWithCancelled) {
  const api::LoadedModel model = api::load_model(test::model_path("quarter_car.json"));
  api::SimulateRequest request;
  request.instances = 20000;  // tens of seconds of work on two threads, blocks of at most 16 instances
  request.options.backend = "cpu";
  request.options.t_end = 10.0;  // ~1 ms an instance: a block of 16 ends within ~0.1 s even on a loaded machine
  request.options.dt_out = 10.0;
  std::atomic<bool> cancel{false};
  std::atomic<bool> first_report{false};
  request.cancel = &cancel;
  long long done_when_cancelled = 0, last_done = 0;
  request.progress = [&](const api::Progress& p) {
    first_report = true;
    last_done = p.done;
  };
  Clock::time_point cancelled_at{};
  std::thread canceller([&] {
    while (!first_report) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancelled_at = Clock::now();
    cancel = true;
  });
  bool thrown = false;
  const auto began = Clock::now();
  try {
    api::simulate(model, request);
  } catch (const api::Cancelled&) {
    thrown = true;
  }
  const auto ended = Clock::now();
  canceller.join();
  done_when_cancelled = last_done;
  EXPECT_TRUE(thrown);
  // The flag is read between blocks of at most 16 instances, so the latency is about a block's time: ~0.03 s in
  // Release, several times that under ASan on a loaded machine. The bound is 1 s or four blocks at the rate this
  // run measured (every hardware thread busy), whichever is longer.
  const double threads = std::max(1u, std::thread::hardware_concurrency());
  const double seconds_per_instance = std::chrono::duration<double>(cancelled_at - began).count() * threads /
                                      static_cast<double>(std::max(1LL, done_when_cancelled));
  const double bound = std::max(1.0, 4.0 * 16.0 * seconds_per_instance);
  const double latency = std::chrono::duration<double>(ended - cancelled_at).count();
  EXPECT_LT(latency, bound) << "from the flag to the exception; " << seconds_per_instance << " s an instance";
  EXPECT_LT(done_when_cancelled, 10000);
  // Set before the call: nothing runs.
  const auto start = Clock::now();
  EXPECT_THROW(api::simulate(model, request), api::Cancelled);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 0.5);
  // Without a progress callback the runners read the flag themselves.
  request.progress = nullptr;
  cancel = false;
  std::thread late([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancelled_at = Clock::now();
    cancel = true;
  });
  EXPECT_THROW(api::simulate(model, request), api::Cancelled);
  const double quiet_latency = std::chrono::duration<double>(Clock::now() - cancelled_at).count();
  late.join();
  EXPECT_LT(quiet_latency, bound);
}

}  // namespace simulate_test
}  // namespace myriad
