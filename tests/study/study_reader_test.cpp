// A bad study file is refused before anything runs, with the file, the JSON pointer of the value at fault and the
// reason: one test per error class of docs/study-format.md.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "study/design.hpp"
#include "study/run_study.hpp"
#include "study/study_error.hpp"
#include "study/study_reader.hpp"
#include "support/cli_run.hpp"

namespace myriad::study {
namespace study_reader_test {

const std::string kModel = std::string(MYRIAD_SOURCE_DIR) + "/models/quarter_car_road.json";

std::string study_text(const std::string& parameters, const std::string& sampler, const std::string& rest = "") {
  return R"({"model": ")" + kModel + R"(", "parameters": [)" + parameters + R"(], "sampler": )" + sampler + rest + "}";
}

const std::string kUniform = R"({"name": "k_s", "distribution": "uniform", "lower": 1e4, "upper": 4e4})";
const std::string kLhs = R"({"type": "latin_hypercube", "samples": 8, "seed": 1})";

// The refusal of `text` as a StudyFileError; fails the test when there is none.
StudyFileError refusal(const std::string& text, bool against_model = false) {
  try {
    const StudySpec spec = read_study_text(text, "bad.json", "/tmp");
    if (against_model) {
      const api::LoadedModel model = api::load_model(spec.model);
      check_study_against_model(spec, {model.parameter_names(), model.kpi_names(), model.signal_names(), 0.001});
    }
  } catch (const StudyFileError& e) {
    return e;
  }
  ADD_FAILURE() << "accepted: " << text;
  return StudyFileError("", "", "");
}

void expect_refusal(const StudyFileError& e, const std::string& pointer, const std::string& reason_part) {
  EXPECT_EQ(e.file(), "bad.json");
  EXPECT_EQ(e.pointer(), pointer);
  EXPECT_NE(e.reason().find(reason_part), std::string::npos) << e.what();
  EXPECT_EQ(std::string(e.what()).rfind("bad.json: " + (pointer.empty() ? "/" : pointer) + ": ", 0), 0u) << e.what();
}

TEST(StudyFile, UnknownDistributionIsNamedAtItsPointer) {
  const StudyFileError e =
      refusal(study_text(kUniform + R"(, {"name": "c_s", "distribution": "weibull", "lower": 1, "upper": 2})", kLhs));
  expect_refusal(e, "/parameters/1/distribution", "unknown distribution 'weibull'");
}

TEST(StudyFile, ReversedBoundsAreRefused) {
  expect_refusal(refusal(study_text(R"({"name": "k_s", "distribution": "uniform", "lower": 4e4, "upper": 1e4})", kLhs)),
                 "/parameters/0/upper", "bounds reversed");
  expect_refusal(refusal(study_text(R"({"name": "k_s", "distribution": "truncated_normal", "mean": 2e4, "sd": 1e3,
                                       "lower": 3e4, "upper": 3e4})", kLhs)),
                 "/parameters/0/upper", "bounds reversed");
}

TEST(StudyFile, SobolAndSaltelliSizesMustBePowersOfTwo) {
  expect_refusal(refusal(study_text(kUniform, R"({"type": "sobol", "samples": 1000})")), "/sampler/samples",
                 "1000 is not a power of two");
  const StudyFileError e = refusal(study_text(kUniform, R"({"type": "saltelli", "samples": 100})"));
  expect_refusal(e, "/sampler/samples", "not a power of two");
  EXPECT_NE(e.reason().find("64 or 128"), std::string::npos) << e.what();
  // A Latin hypercube takes any size.
  EXPECT_NO_THROW(read_study_text(study_text(kUniform, R"({"type": "latin_hypercube", "samples": 1000})"), "ok.json",
                                  "/tmp"));
}

TEST(StudyFile, UnknownParameterKpiAndOutputAreNamedWithTheModelsNames) {
  const StudyFileError parameter = refusal(
      study_text(R"({"name": "k_spring", "distribution": "uniform", "lower": 1, "upper": 2})", kLhs), true);
  expect_refusal(parameter, "/parameters/0/name", "unknown parameter 'k_spring'");
  EXPECT_NE(parameter.reason().find("k_s"), std::string::npos);
  expect_refusal(refusal(study_text(kUniform, kLhs, R"(, "fixed": {"sped": 20})"), true), "/fixed/sped",
                 "unknown parameter 'sped'");
  const StudyFileError kpi = refusal(study_text(kUniform, kLhs, R"(, "kpis": ["comfort_wk_rms", "comfort"])"), true);
  expect_refusal(kpi, "/kpis/1", "unknown KPI 'comfort'");
  EXPECT_NE(kpi.reason().find("comfort_vdv"), std::string::npos);
  expect_refusal(refusal(study_text(kUniform, kLhs, R"(, "series": {"signals": ["a_body"]})"), true),
                 "/series/signals/0", "unknown output 'a_body'");
  expect_refusal(refusal(study_text(kUniform, kLhs, R"(, "series": {"signals": ["a_b"], "dt": 0.0025})"), true),
                 "/series/dt", "whole multiple");
}

TEST(StudyFile, UnreadableTablesAreNamedAtTheSamplersFile) {
  const std::filesystem::path dir = myriad::test::fresh_directory("study_table");
  const auto design_error = [&](const std::string& file, const std::string& content) {
    if (!content.empty()) std::ofstream(dir / file) << content;
    const StudySpec spec = read_study_text(
        R"({"model": ")" + kModel + R"(", "parameters": [{"name": "k_s"}], "sampler": {"type": "table", "file": ")" +
            file + R"("}})",
        "bad.json",
        dir.string());
    try {
      make_design(spec);
    } catch (const StudyFileError& e) {
      return e;
    }
    ADD_FAILURE() << file << " was read";
    return StudyFileError("", "", "");
  };
  expect_refusal(design_error("missing.csv", ""), "/sampler/file", "unreadable table");
  expect_refusal(design_error("text.csv", "k_s,c_s\n1e4,abc\n"), "/sampler/file", "unreadable table");
  expect_refusal(design_error("not.npy", "k_s\n1\n"), "/sampler/file", "unreadable table");
  std::filesystem::remove_all(dir);
}

TEST(StudyFile, MalformedJsonUnknownKeysAndWrongTypesAreNamed) {
  expect_refusal(refusal("{\"model\": "), "", "not valid JSON");
  expect_refusal(refusal(study_text(kUniform, kLhs, R"(, "chunk": 1e999)")), "", "not valid JSON");  // fuzzer find
  expect_refusal(refusal(study_text(kUniform, kLhs, R"(, "fixed": {"speed": 20, "speed": 30})")), "",
                 "the key 'speed' appears twice in one object");
  expect_refusal(refusal(study_text(kUniform, kLhs, R"(, "chunks": 4)")), "/chunks", "unknown key 'chunks'");
  expect_refusal(refusal(study_text(kUniform, R"({"type": "latin_hypercube", "samples": "many"})")),
                 "/sampler/samples", "expected a whole number");
  expect_refusal(refusal(study_text(kUniform, R"({"type": "montecarlo", "samples": 4})")), "/sampler/type",
                 "unknown sampler 'montecarlo'");
  expect_refusal(refusal(study_text(R"({"name": "k_s", "distribution": "normal", "mean": 1, "sd": -1})", kLhs)),
                 "/parameters/0/sd", "must be positive");
  expect_refusal(refusal(study_text(R"({"name": "k_s", "distribution": "uniform", "lower": 1, "upper": 2, "sd": 1})",
                                    kLhs)),
                 "/parameters/0/sd", "takes no 'sd'");
}

TEST(StudyFile, DerivedParametersAreCheckedForSyntaxNamesAndConflicts) {
  expect_refusal(refusal(study_text(kUniform, kLhs, R"(, "derived": {"l0_s": "0.3 + $m_b * 9.81 /"})")),
                 "/derived/l0_s", "not an expression: at character 20");
  expect_refusal(refusal(study_text(kUniform, kLhs, R"(, "derived": {"k_s": "2 * $m_b"})")), "/derived/k_s",
                 "both sampled and derived");
  expect_refusal(refusal(study_text(kUniform, kLhs, R"(, "derived": {"l0_s": "$l0_t", "l0_t": "1"})")),
                 "/derived/l0_s", "uses the derived parameter $l0_t");
  expect_refusal(refusal(study_text(kUniform, kLhs, R"(, "derived": {"l0_spring": "1"})"), true), "/derived/l0_spring",
                 "unknown parameter 'l0_spring'");
  expect_refusal(refusal(study_text(kUniform, kLhs, R"(, "derived": {"l0_s": "$mass / $k_s"})"), true), "/derived/l0_s",
                 "uses $mass, which is not a parameter of the model");
}

TEST(ShippedStudies, ReadDrawAndNameOnlyWhatTheirModelsHave) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(MYRIAD_SOURCE_DIR) + "/models/studies")) {
    if (entry.path().extension() != ".json") continue;
    ++count;
    SCOPED_TRACE(entry.path().string());
    const StudySpec spec = read_study_file(entry.path().string());
    if (spec.model != kIshigamiModel) {
      const api::LoadedModel model = api::load_model(spec.model);
      EXPECT_NO_THROW(check_study_against_model(
          spec, {model.parameter_names(), model.kpi_names(), model.signal_names(), model.defaults().dt_out}));
    }
    const Design design = make_design(spec);
    EXPECT_EQ(design.rows, design_rows(spec));
    EXPECT_EQ(design.values.size(), static_cast<std::size_t>(design.rows) * spec.parameters.size());
  }
  EXPECT_GE(count, 3);
}

TEST(StudyFile, ToleranceIsThreeStandardDeviations) {
  const StudySpec spec = read_study_text(
      study_text(R"({"name": "k_s", "distribution": "normal", "nominal": 2e4, "tolerance": 3e3})", kLhs), "ok.json",
      "/tmp");
  EXPECT_EQ(spec.parameters[0].distribution.mean, 2e4);
  EXPECT_EQ(spec.parameters[0].distribution.sd, 1e3);
}

}  // namespace study_reader_test
}  // namespace myriad::study
