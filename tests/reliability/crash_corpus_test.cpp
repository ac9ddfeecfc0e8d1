// The inputs that once crashed, hung or misled Myriad (found by the hostile-tester round of issue 15 and by the
// fuzzing targets, tests/fuzz/), kept in tests/data/crashers/: each model must now be refused with a ModelError
// naming its file, or load, compile and run a short integration; each parameter file must be refused with a
// message naming it, or parse. A crash here ends the test binary, which ctest reports as a failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ensemble/cpu_runner.hpp"
#include "ensemble/parameter_table.hpp"
#include "model/compile.hpp"
#include "model/model_error.hpp"
#include "model/model_loader.hpp"

namespace myriad {
namespace crash_corpus_test {

namespace fs = std::filesystem;

std::vector<fs::path> corpus(const std::string& kind) {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(MYRIAD_SOURCE_DIR) / "tests/data/crashers" / kind;
  if (fs::is_directory(dir))
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(CrashCorpus, EveryModelIsRefusedByNameOrLoadsAndRuns) {
  const std::vector<fs::path> files = corpus("model");
  ASSERT_FALSE(files.empty()) << "tests/data/crashers/model is the corpus this test keeps";
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    try {
      const Model model = load_model_file(file.string());
      const auto compiled = compile(model);
      const Ensemble ensemble = build_ensemble(model, *compiled, 1, nullptr, {});
      RunSpec spec;
      spec.method = Method::rk4;
      spec.h = 1e-3;
      const EnsembleResult result = run_ensemble_cpu(*compiled, ensemble, spec, {0.0, 0.01}, 1);
      const int status = static_cast<int>(result.status[0]);
      EXPECT_TRUE(status >= 0 && status < kInstanceStatusCount);
    } catch (const ModelError& e) {
      EXPECT_EQ(e.file(), file.string()) << e.what();
      EXPECT_FALSE(e.reason().empty());
    } catch (const std::invalid_argument& e) {  // a per-instance value (build_ensemble) names the instance
      EXPECT_NE(std::string(e.what()).find("instance"), std::string::npos) << e.what();
    }
  }
}

TEST(CrashCorpus, EveryParameterFileIsRefusedByNameOrParses) {
  const std::vector<fs::path> files = corpus("csv");
  ASSERT_FALSE(files.empty()) << "tests/data/crashers/csv is the corpus this test keeps";
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    try {
      const ParameterTable table = read_parameter_csv(file.string());
      EXPECT_FALSE(table.names.empty());
      for (const auto& row : table.rows) EXPECT_EQ(row.size(), table.names.size());
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(file.string() + ":", 0), 0u) << e.what();
    }
  }
}

}  // namespace crash_corpus_test
}  // namespace myriad
