// RunOptions are checked as given: each bad member is refused with a SettingError that names it ("setting 'rtol'
// = -1: ..."), never replaced by the model's default, and never mentions a CLI flag; what is not given comes from
// the model's simulation block. ParameterSet::from_array equals from_csv on the quarter-car study.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "api/myriad/myriad.hpp"
#include "api/model_impl.hpp"
#include "api/parameter_set.hpp"
#include "api/run_options.hpp"
#include "support/cli_run.hpp"

namespace myriad {
namespace run_options_test {

struct BadSetting {
  std::string setting;                        // the member the error must name
  std::function<void(api::RunOptions&)> set;  // makes it bad
  std::string message_start;                  // what() begins with this
};

TEST(ApiRunOptions, EachBadMemberIsRefusedByItsNameBeforeAnythingRuns) {
  const api::LoadedModel model = api::load_model(test::model_path("pendulum_002.json"));
  const double nan = std::nan("");
  const BadSetting cases[] = {
      {"t_end", [](api::RunOptions& o) { o.t_end = 0; }, "setting 't_end' = 0: the end time [s] must be"},
      {"t_end", [&](api::RunOptions& o) { o.t_end = nan; }, "setting 't_end' = nan: "},
      {"dt_out", [](api::RunOptions& o) { o.dt_out = -0.1; }, "setting 'dt_out' = -0.1: the output interval"},
      {"h", [](api::RunOptions& o) { o.h = 0; }, "setting 'h' = 0: the RK4 step"},
      {"rtol", [](api::RunOptions& o) { o.rtol = -1; }, "setting 'rtol' = -1: the relative tolerance"},
      {"rtol", [](api::RunOptions& o) { o.rtol = 1; }, "setting 'rtol' = 1: a relative tolerance must be below 1"},
      {"atol", [](api::RunOptions& o) { o.atol = 0; }, "setting 'atol' = 0: the absolute tolerance"},
      {"fac", [](api::RunOptions& o) { o.fac = 1.5; }, "setting 'fac' = 1.5: the safety factor must be in (0, 1]"},
      {"facmin", [](api::RunOptions& o) { o.facmin = 0; }, "setting 'facmin' = 0: the smallest step ratio"},
      {"facmax", [](api::RunOptions& o) { o.facmax = HUGE_VAL; }, "setting 'facmax' = inf: the largest step ratio"},
      {"max_steps", [](api::RunOptions& o) { o.max_steps = 0; }, "setting 'max_steps' = 0: the step budget"},
      {"integrator", [](api::RunOptions& o) { o.integrator = "euler"; },
       "setting 'integrator' = 'euler': expected one of rk4, dopri5, rn4, ros2w"},
      {"backend", [](api::RunOptions& o) { o.backend = "gpu"; },
       "setting 'backend' = 'gpu': expected one of auto, reference, cpu, cuda"},
      {"threads", [](api::RunOptions& o) { o.threads = -2; }, "setting 'threads' = -2: must be 0 (all cores) .. 4096"},
      {"threads", [](api::RunOptions& o) { o.threads = 100000; }, "setting 'threads' = 100000: must be 0"},
      {"gpu_strategy", [](api::RunOptions& o) { o.gpu_strategy = "fast"; }, "setting 'gpu_strategy' = 'fast'"},
      {"gpu_step_budget", [](api::RunOptions& o) { o.gpu_step_budget = -1; }, "setting 'gpu_step_budget' = -1"},
      {"gpu_strategy",
       [](api::RunOptions& o) {
         o.backend = "cpu";
         o.gpu_strategy = "warp";
       },
       "setting 'gpu_strategy' = 'warp': applies to the cuda backend only, and this run uses backend 'cpu'"},
      {"gpu_step_budget",
       [](api::RunOptions& o) {
         o.backend = "reference";
         o.gpu_step_budget = 8;
       },
       "setting 'gpu_step_budget' = 8: applies to the cuda backend only"},
      {"dt_out", [](api::RunOptions& o) { o.dt_out = 1e-300; },
       "setting 'dt_out' = 1e-300 with t_end 5 (/simulation/t_end): the output grid would have more than 2^53 "
       "times, more than the limit of 10000000 (give a coarser 'dt_out' or a shorter 't_end')"},
      {"dt_out",
       [](api::RunOptions& o) {
         o.t_end = 1e6;
         o.dt_out = 1e-6;
       },
       "setting 'dt_out' = 1e-06 with setting 't_end' = 1e+06: the output grid would have about "},
      {"t_end", [](api::RunOptions& o) { o.t_end = 1e300; }, "dt_out "},
  };
  for (const BadSetting& c : cases) {
    api::SimulateRequest request;
    c.set(request.options);
    try {
      api::simulate(model, request);
      ADD_FAILURE() << c.message_start << ": ran";
    } catch (const api::SettingError& e) {
      EXPECT_EQ(e.setting(), c.setting) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind(c.message_start, 0), 0u) << e.what();
      EXPECT_EQ(std::string(e.what()).find("--"), std::string::npos) << "a CLI flag in " << e.what();
    }
  }
}

TEST(ApiRunOptions, InstancesAndOverridesAreRefusedByName) {
  const api::LoadedModel model = api::load_model(test::model_path("pendulum_002.json"));
  const auto refused = [&](const api::SimulateRequest& request, const std::string& setting,
                           const std::string& part) {
    try {
      api::simulate(model, request);
      ADD_FAILURE() << part << ": ran";
    } catch (const api::SettingError& e) {
      EXPECT_EQ(e.setting(), setting) << e.what();
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  api::SimulateRequest request;
  request.instances = -1;
  refused(request, "instances", "setting 'instances' = -1: must be 1 .. 2147483647");
  request.instances = 3;
  const double rows[] = {1.0, 1.5};
  request.parameters = api::ParameterSet::from_array({"m"}, 2, rows);
  refused(request, "instances", "setting 'instances' = 3: the parameter set <array> has 2 rows");
  request = {};
  request.overrides = {{"nope", 1.0}};
  refused(request, "overrides", "setting 'overrides': 'nope' is not a parameter of model");
  request.overrides = {{"m", std::nan("")}};
  refused(request, "overrides", "setting 'overrides' m=nan: the value must be finite");
}

TEST(ApiRunOptions, UnsetMembersComeFromTheModelAndGivenOnesAreUsedAsGiven) {
  const api::LoadedModel model = api::load_model(test::model_path("quarter_car.json"));
  const Model& m = model.impl->model;
  api::ResolvedRun run = api::resolve_run_options({}, m);
  EXPECT_EQ(run.integrator, m.simulation.integrator);
  EXPECT_EQ(run.spec.control.rtol, m.simulation.rtol);
  EXPECT_EQ(run.spec.control.atol, m.simulation.atol);
  EXPECT_EQ(run.spec.h, m.simulation.h);
  EXPECT_EQ(run.times.front(), 0.0);
  EXPECT_EQ(run.times.back(), m.simulation.t_end);
  EXPECT_EQ(run.times.size(), 601u);
  api::RunOptions o;
  o.integrator = "rn4";
  o.rtol = 1e-3;
  o.t_end = 0.5;
  o.dt_out = 0.25;
  o.fac = 0.8;
  o.max_steps = 7;
  run = api::resolve_run_options(o, m);
  EXPECT_EQ(run.spec.method, Method::rn4);
  EXPECT_EQ(run.spec.control.rtol, 1e-3);
  EXPECT_EQ(run.spec.control.atol, m.simulation.atol);
  EXPECT_EQ(run.spec.control.fac, 0.8);
  EXPECT_EQ(run.spec.max_steps, 7);
  EXPECT_EQ(run.times, (std::vector<double>{0.0, 0.25, 0.5}));
}

TEST(ApiParameterSet, FromArrayEqualsFromCsvOnTheQuarterCarStudy) {
  const api::ParameterSet csv = api::ParameterSet::from_csv(test::model_path("quarter_car_study.csv"));
  ASSERT_EQ(csv.names, (std::vector<std::string>{"k_s", "c_s", "l0_s"}));
  ASSERT_EQ(csv.rows, 1024);
  // The array built independently of the CSV reader: the file's text parsed line by line here.
  std::istringstream text(test::read_text_file(test::model_path("quarter_car_study.csv")));
  std::string line;
  std::getline(text, line);
  std::vector<double> values;
  while (std::getline(text, line)) {
    std::istringstream fields(line);
    std::string field;
    while (std::getline(fields, field, ',')) values.push_back(std::stod(field));
  }
  const api::ParameterSet array = api::ParameterSet::from_array({"k_s", "c_s", "l0_s"}, 1024, values.data());
  EXPECT_EQ(array.names, csv.names);
  EXPECT_EQ(array.rows, csv.rows);
  EXPECT_EQ(array.values, csv.values);  // bit for bit
  const ParameterTable table = api::to_parameter_table(array);
  ASSERT_EQ(table.rows.size(), 1024u);
  EXPECT_EQ(table.rows[1][1], values[4]);
  EXPECT_EQ(table.names, csv.names);
}

TEST(ApiParameterSet, FromArrayRefusesSizesNamesAndValuesNamingRowAndColumn) {
  const double good[] = {1, 2, 3, 4};
  const auto refused = [](const std::function<void()>& make, const std::string& part) {
    try {
      make();
      ADD_FAILURE() << part << ": accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  refused([&] { api::ParameterSet::from_array({}, 2, good); }, "no columns");
  refused([&] { api::ParameterSet::from_array({"a", "b"}, 0, good); }, "0 rows");
  refused([&] { api::ParameterSet::from_array({"a", ""}, 2, good); }, "column 1 has an empty name");
  refused([&] { api::ParameterSet::from_array({"a", "a"}, 2, good); }, "column 1: duplicate name 'a'");
  const double bad[] = {1, 2, 3, std::nan("")};
  refused([&] { api::ParameterSet::from_array({"a", "b"}, 2, bad); }, "row 1, column 1 ('b'): nan is not a finite");
  const double infinite[] = {1, -HUGE_VAL, 3, 4};
  refused([&] { api::ParameterSet::from_array({"a", "b"}, 2, infinite); }, "row 0, column 1 ('b'): -inf");
}

}  // namespace run_options_test
}  // namespace myriad
