// Ensembles: parameter tables, per-instance validation, thread invariance, and the strided (GPU-layout)
// constants path against the gathered CPU path.
#include <gtest/gtest.h>

#include <cmath>

#include "ensemble/simulate_instance.hpp"
#include "ensemble/strided_constants.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace ensemble_test {

using namespace testing;

TEST(ParameterTable, ParsesHeaderAndRows) {
  const ParameterTable t = parse_parameter_csv("k_s, c_s\n# comment\n1, 2\n3,4e3\n", "p.csv");
  ASSERT_EQ(t.names.size(), 2u);
  EXPECT_EQ(t.names[1], "c_s");
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_DOUBLE_EQ(t.rows[1][1], 4000.0);
}

TEST(ParameterTable, ErrorsNameFileLineAndColumn) {
  auto message = [](const std::string& text) {
    try {
      parse_parameter_csv(text, "p.csv");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("a,b\n1,2\n3\n"), "p.csv:3: expected 2 fields, got 1");
  EXPECT_EQ(message("a,b\n1,x\n"), "p.csv:2: column 'b': 'x' is not a finite number");
  EXPECT_EQ(message("a,a\n1,2\n"), "p.csv:1: duplicate column 'a'");
  EXPECT_EQ(message("a,b\n"), "p.csv:1: no data rows");
  EXPECT_EQ(message("a,b\n1,inf\n"), "p.csv:2: column 'b': 'inf' is not a finite number");
}

TEST(Ensemble, UnknownParameterColumnIsRejectedWithTheModelsParameters) {
  const Model model = load_model_file(model_path("quarter_car.json"));
  const auto compiled = compile(model);
  const ParameterTable t = parse_parameter_csv("k_s,k_typo\n1,2\n", "p.csv");
  try {
    build_ensemble(model, *compiled, 0, &t, {});
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("p.csv: 'k_typo' is not a parameter of model 'quarter_car'"), std::string::npos)
        << e.what();
  }
}

TEST(Ensemble, InstanceWithNonPhysicalParameterStopsTheRunNamingInstanceAndField) {
  const Model model = load_model_file(model_path("quarter_car.json"));
  const auto compiled = compile(model);
  const ParameterTable t = parse_parameter_csv("m_s\n400\n-3\n", "p.csv");
  try {
    build_ensemble(model, *compiled, 0, &t, {});
    FAIL() << "expected an error";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("instance 1"), std::string::npos) << e.what();
    EXPECT_NE(e.pointer().find("/mass"), std::string::npos) << e.what();
  }
}

TEST(Ensemble, TableRowsAreSoAAndEachInstanceEqualsItsOwnSingleRun) {
  const Model model = load_model_file(model_path("quarter_car.json"));
  const auto compiled = compile(model);
  const ParameterTable t = parse_parameter_csv("k_s,c_s\n20000,1000\n35000,3000\n", "p.csv");
  const Ensemble e = build_ensemble(model, *compiled, 0, &t, {});
  ASSERT_EQ(e.n_instances, 2);
  const std::vector<double> times = output_grid(0.0, 1.0, 0.01);
  const RunSpec spec = dopri5(1e-8, 1e-10);
  const EnsembleResult both = run_ensemble_cpu(*compiled, e, spec, times, 1);
  const EnsembleResult second = run_model(model, spec, times, {{"k_s", 35000}, {"c_s", 3000}});
  for (int k = 0; k < both.n_times; ++k)
    for (int s = 0; s < both.n_signals; ++s) EXPECT_EQ(both.value(1, k, s), second.value(0, k, s));
  // Different parameters give different motion over the bump.
  const int z_s = output_index(model, "z_s");
  EXPECT_GT(std::abs(both.value(0, both.n_times - 1, z_s) - both.value(1, both.n_times - 1, z_s)), 1e-4);
}

TEST(Ensemble, ResultsDoNotDependOnTheThreadCount) {
  const Model model = load_model_file(model_path("spatial_chain.json"));
  const auto compiled = compile(model);
  const Ensemble e = build_ensemble(model, *compiled, 7, nullptr, {});
  const std::vector<double> times = output_grid(0.0, 0.5, 0.05);
  const EnsembleResult one = run_ensemble_cpu(*compiled, e, dopri5(1e-8, 1e-10), times, 1);
  const EnsembleResult three = run_ensemble_cpu(*compiled, e, dopri5(1e-8, 1e-10), times, 3);
  EXPECT_EQ(one.values, three.values);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(one.stats[static_cast<size_t>(i)].steps, three.stats[static_cast<size_t>(i)].steps);
}

TEST(Ensemble, StridedConstantsOfTheGpuLayoutGiveBitIdenticalResultsOnTheCpu) {
  // The CUDA kernel reads constants in place from the SoA table; its CPU twin here must match the gathered path.
  const Model model = load_model_file(model_path("quarter_car.json"));
  const auto compiled = compile(model);
  const ParameterTable t = parse_parameter_csv("k_s\n18000\n26000\n39000\n", "p.csv");
  const Ensemble e = build_ensemble(model, *compiled, 0, &t, {});
  const std::vector<double> times = output_grid(0.0, 1.0, 0.1);
  const RunSpec spec = rk4(1e-3);
  const EnsembleResult gathered = run_ensemble_cpu(*compiled, e, spec, times, 1);
  const InstanceScratchLayout layout = instance_scratch_layout(*compiled, spec.method);
  std::vector<double> scratch(layout.bytes / sizeof(double) + 1), out(times.size() * compiled->n_outputs);
  std::vector<double> q(static_cast<size_t>(compiled->nq)), v(static_cast<size_t>(compiled->nv));
  for (int i = 0; i < e.n_instances; ++i) {
    e.gather_initial_state(i, q.data(), v.data());
    const StridedConstants k{e.constants.data() + i, e.n_instances};
    IntegratorStats stats;
    ASSERT_EQ(simulate_instance(*compiled, k, q.data(), v.data(), spec, times.data(), static_cast<int>(times.size()),
                                scratch.data(), out.data(), stats),
              InstanceStatus::ok);
    for (size_t j = 0; j < out.size(); ++j)
      EXPECT_EQ(out[j], gathered.values[static_cast<size_t>(i) * out.size() + j]);
  }
}

TEST(Ensemble, FailingInstanceStopsAloneAndTheOthersFinish) {
  const Model model = load_model_file(model_path("quarter_car.json"));
  const auto compiled = compile(model);
  // Instance 1 gets an absurd step budget by way of a huge stiffness: it cannot finish in the allowed steps.
  const ParameterTable t = parse_parameter_csv("k_t\n200000\n2e13\n200000\n", "p.csv");
  const Ensemble e = build_ensemble(model, *compiled, 0, &t, {});
  RunSpec spec = dopri5(1e-8, 1e-10);
  spec.max_steps = 20000;
  const EnsembleResult r = run_ensemble_cpu(*compiled, e, spec, output_grid(0.0, 1.0, 0.1), 2);
  EXPECT_EQ(r.status[0], InstanceStatus::ok);
  EXPECT_EQ(r.status[1], InstanceStatus::max_steps);
  EXPECT_EQ(r.status[2], InstanceStatus::ok);
  EXPECT_TRUE(std::isnan(r.value(1, r.n_times - 1, 0)));
  EXPECT_EQ(r.value(0, r.n_times - 1, 0), r.value(2, r.n_times - 1, 0));
}

}  // namespace ensemble_test
}  // namespace myriad
