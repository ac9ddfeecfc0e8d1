// The `myriad` executable end to end: outputs on disk, exit statuses and error messages.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "support/cli_run.hpp"

namespace cli_test {

namespace fs = std::filesystem;

using myriad::test::CliRun;
using myriad::test::run_cli;

std::string model(const std::string& file) { return myriad::test::model_path(file); }

fs::path temp_dir() {
  const fs::path dir = fs::temp_directory_path() / ("myriad_cli_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

std::vector<std::string> lines(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(Cli, SimulateWritesOneRowPerInstanceAndOutputTime) {
  const fs::path dir = temp_dir();
  const fs::path params = dir / "p.csv", out = dir / "out.csv", stats = dir / "stats.json";
  std::ofstream(params) << "k_s,c_s\n20000,1000\n30000,2000\n40000,3000\n";
  const CliRun r = run_cli("simulate " + model("quarter_car.json") + " --params " + params.string() +
                        " --t-end 1 --dt-out 0.1 --integrator rk4 --h 1e-3 --out " + out.string() +
                        " --stats-json " + stats.string() + " --stats");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("instances: 3"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("ok 3"), std::string::npos) << r.output;
  const auto rows = lines(out);
  ASSERT_EQ(rows.size(), 1u + 3u * 11u);
  EXPECT_EQ(rows[0].rfind("instance,time,z_s,", 0), 0u) << rows[0];
  EXPECT_EQ(rows[1].rfind("0,0,", 0), 0u);
  EXPECT_EQ(rows.back().rfind("2,1,", 0), 0u) << rows.back();
  const auto json = lines(stats);
  std::string all;
  for (const auto& l : json) all += l;
  EXPECT_NE(all.find("\"steps\": 3000"), std::string::npos) << "1000 RK4 steps per instance, 3 instances";
  fs::remove_all(dir);
}

TEST(Cli, CheckPassesOnAShippedModel) {
  const CliRun r = run_cli("check " + model("spatial_chain.json") + " --states 5");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("PASS"), std::string::npos);
}

TEST(Cli, ModelErrorNamesFilePointerAndReasonAndRunsNothing) {
  const fs::path dir = temp_dir();
  const fs::path bad = dir / "bad.json", out = dir / "never.csv";
  std::ofstream(bad) << R"({"format": "myriad-model", "version": 1,
    "bodies": [{"name": "b", "mass": -1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
    "joints": [{"name": "j", "type": "revolute", "parent": "ground", "child": "b", "axis": [0, 0, 1]}]})";
  const CliRun r = run_cli("simulate " + bad.string() + " --out " + out.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find(bad.string() + ": /bodies/0/mass:"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));
  fs::remove_all(dir);
}

TEST(Cli, BadParameterFileAndUnwritableOutputAreReported) {
  const fs::path dir = temp_dir();
  const fs::path params = dir / "p.csv";
  std::ofstream(params) << "k_s\nabc\n";
  CliRun r = run_cli("simulate " + model("quarter_car.json") + " --params " + params.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find(params.string() + ":2: column 'k_s': 'abc' is not a finite number"), std::string::npos)
      << r.output;
  r = run_cli("simulate " + model("pendulum_002.json") + " --t-end 0.1 --out " + (dir / "no/such/dir/x.csv").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--out"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("does not exist"), std::string::npos) << r.output;
  r = run_cli("simulate " + model("pendulum_002.json") + " --param nope=1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("'nope' is not a parameter"), std::string::npos) << r.output;
  fs::remove_all(dir);
}

TEST(Cli, InfoListsCoordinatesAndParameters) {
  const CliRun r = run_cli("info " + model("quarter_car.json"));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("nq = 2, nv = 2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("k_s"), std::string::npos);
}

}  // namespace cli_test

namespace cli_test {

TEST(Cli, ModesPrintsTheFrequenciesAndWritesThemAsJson) {
  const fs::path json = temp_dir() / "modes.json";
  const CliRun r = run_cli("modes " + model("quarter_car_benchmark.json") + " --param c_s=0 --json " + json.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("coordinates: body_heave, wheel_travel"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1.11557"), std::string::npos) << r.output;  // det(K - w^2 M) = 0 (tests/api/modes_test)
  EXPECT_NE(r.output.find("9.33133"), std::string::npos) << r.output;
  const nlohmann::json j = nlohmann::json::parse(myriad::test::read_text_file(json));
  ASSERT_EQ(j["undamped"].size(), 2u);
  EXPECT_NEAR(j["undamped"][0]["frequency_hz"].get<double>(), 1.1155705783422865, 1e-9);
  // Without damping the damped modes are the undamped ones.
  EXPECT_NEAR(j["modes"][1]["natural_hz"].get<double>(), 9.331334346864594, 1e-9);
  EXPECT_NEAR(j["modes"][1]["damping_ratio"].get<double>(), 0.0, 1e-12);
  fs::remove_all(temp_dir());
}

TEST(Cli, ModesRefusesAModelWithoutEquilibriumAndAnUnknownParameter) {
  CliRun r = run_cli("modes " + model("quarter_car_benchmark.json") + " --param k_z=1");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("k_z"), std::string::npos) << r.output;
  // k_t = 0: nothing holds the car up.
  r = run_cli("modes " + model("quarter_car_benchmark.json") + " --param k_t=0");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("no static equilibrium"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("quarter_car_benchmark.json"), std::string::npos) << r.output;
}

}  // namespace cli_test

namespace myriad::test {
namespace cli_test {

TEST(Cli, InfoNamesTemplatePartsAndExpandWritesTheSameModel) {
  const std::string corner = std::string(MYRIAD_SOURCE_DIR) + "/models/double_wishbone_corner.json";
  CliRun r = run_cli("info " + corner);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("front: double_wishbone, left side (/subsystems/0)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("bodies    front_lca  front_uca  front_upright  front_kingpin  front_wheel"), std::string::npos)
      << r.output;
  const std::filesystem::path dir = fresh_directory("cli_expand");
  r = run_cli("expand " + corner + " --out " + (dir / "expanded.json").string());
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string expanded = read_text_file(dir / "expanded.json");
  EXPECT_EQ(expanded.find("subsystems"), std::string::npos);
  EXPECT_NE(expanded.find("\"length\": \"design\""), std::string::npos);
  // The expanded file runs to the same numbers as the original, byte for byte.
  r = run_cli("simulate " + corner + " --t-end 0.1 -q --out " + (dir / "a.csv").string());
  ASSERT_EQ(r.status, 0) << r.output;
  r = run_cli("simulate " + (dir / "expanded.json").string() + " --t-end 0.1 -q --out " + (dir / "b.csv").string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(read_text_file(dir / "a.csv"), read_text_file(dir / "b.csv"));
  r = run_cli("kc " + corner + " --subsystem rear");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("no subsystem 'rear' (the model has: front)"), std::string::npos) << r.output;
}

// `codegen` writes what src/generated/ holds for the model (the header the CUDA library's kernel for it is compiled
// on), to stdout or atomically to --out, and refuses a name that is no C++ identifier before reading the model.
TEST(Cli, CodegenWritesTheCommittedHeaderAndRefusesABadName) {
  const std::string source = MYRIAD_SOURCE_DIR;
  const std::string generated = read_text_file(source + "/src/generated/quarter_car.hpp");
  const std::string quarter_car = source + "/models/quarter_car.json";
  CliRun r = run_cli("codegen " + quarter_car + " --name quarter_car --origin models/quarter_car.json");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, generated);
  const std::filesystem::path dir = fresh_directory("cli_codegen");
  r = run_cli("codegen " + quarter_car + " --name quarter_car --origin models/quarter_car.json --out " +
              (dir / "qc.hpp").string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(read_text_file(dir / "qc.hpp"), generated);
  r = run_cli("codegen " + quarter_car + " --name quarter-car");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--name 'quarter-car' is not a C++ identifier"), std::string::npos) << r.output;
  r = run_cli("codegen " + source + "/models/no_such_model.json --name x");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("no_such_model.json"), std::string::npos) << r.output;
}

}  // namespace cli_test
}  // namespace myriad::test
