// The limits of model/model_limits.hpp (docs/model-format.md, "Limits"): each is refused with a ModelError
// naming the file, the pointer (or line and column) and the numbers, before the thing it bounds is read,
// parsed or allocated. A file without end, a deeply nested file and a very wide object must come back as
// errors, not as a hang, a stack overflow or quadratic time.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "ensemble/ensemble_result.hpp"
#include "model/model_limits.hpp"
#include "model/refusal_support.hpp"

namespace myriad {
namespace loader_limits_test {

using testing::pendulum_model;
using testing::text_refused;
using testing::throws_model_error;
using Json = nlohmann::ordered_json;

// ---- the file ----

TEST(LoaderLimits, file_without_end_is_refused_after_the_size_limit) {
  EXPECT_TRUE(throws_model_error([] { load_model_file("/dev/zero"); }, "/dev/zero", "/",
                                 {"file exceeds " + std::to_string(kMaxModelFileBytes) + " bytes"}));
}

TEST(LoaderLimits, directory_is_named_as_such) {
  const std::string models = std::string(MYRIAD_SOURCE_DIR) + "/models";
  EXPECT_TRUE(throws_model_error([&] { load_model_file(models); }, models, "/", {"is a directory"}));
}

// ---- the JSON text ----

TEST(LoaderLimits, deep_nesting_is_refused_before_parsing_with_line_and_column) {
  // 100,000 levels: nlohmann's recursive destruction of the parsed document would overflow the stack.
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  std::string pointer;
  for (int level = 0; level < kMaxJsonDepth; ++level) pointer += "/0";
  EXPECT_TRUE(text_refused(deep, pointer,
                           {"JSON nests deeper than " + std::to_string(kMaxJsonDepth) + " levels",
                            "(at line 1, column " + std::to_string(kMaxJsonDepth + 1) + ")"}));
}

TEST(LoaderLimits, nesting_at_the_limit_passes_the_scan) {
  // kMaxJsonDepth levels are allowed; the document is then refused for what it is, an array.
  const std::string deep = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(text_refused(deep, "/", {"expected an object, got array"}));
}

TEST(LoaderLimits, deep_pointer_names_keys_as_written_and_lines) {
  // Keys with escapes and a '/' come back as pointer tokens; the line is counted outside strings.
  Json m = pendulum_model();
  std::string text = m.dump();
  text.insert(text.size() - 1, ",\n\"x\\\"y/z\": {\"n\\u00e9\":\n  " + std::string(kMaxJsonDepth, '['));
  EXPECT_TRUE(text_refused(
      text,
      "/x\"y~1z/n\xc3\xa9" +
          [] {
            std::string p;
            for (int level = 2; level < kMaxJsonDepth; ++level) p += "/0";
            return p;
          }(),
      {"nests deeper than", "(at line 3, column " + std::to_string(kMaxJsonDepth - 2 + 3) + ")"}));
}

TEST(LoaderLimits, wide_object_is_refused_before_parsing) {
  // 100,000 parameters took 13.5 s (ordered_json inserts keys by linear search); the scan refuses the object.
  Json m = pendulum_model();
  std::string parameters = "{";
  for (int i = 0; i < 100000; ++i) parameters += (i ? ",\"p" : "\"p") + std::to_string(i) + "\": 1";
  parameters += "}";
  std::string text = m.dump();
  text.insert(text.size() - 1, ",\"parameters\": " + parameters);
  EXPECT_TRUE(text_refused(
      text, "/parameters",
      {"object has more than " + std::to_string(kMaxJsonObjectMembers) + " members", "(at line 1, column"}));
}

TEST(LoaderLimits, many_wide_objects_are_refused_together) {
  // Three objects of 10,000 members: each within its limit, their key comparisons (3 x 5 * 10^7) not.
  std::string text = "{\"a\": [";
  for (int o = 0; o < 3; ++o) {
    text += o ? ",{" : "{";
    for (std::size_t i = 0; i < kMaxJsonObjectMembers; ++i)
      text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\": 0";
    text += "}";
  }
  text += "]}";
  EXPECT_TRUE(text_refused(
      text, "/a/2",
      {"reading their keys takes more than " + std::to_string(kMaxJsonKeyComparisons) + " comparisons"}));
}

TEST(LoaderLimits, long_array_is_refused_before_parsing) {
  Json m = pendulum_model();
  std::string points = "[";
  for (std::size_t i = 0; i <= kMaxJsonArrayElements; ++i) points += i ? ",0" : "0";
  points += "]";
  std::string text = m.dump();
  text.insert(text.size() - 1, ",\"description\": " + points);
  EXPECT_TRUE(text_refused(text, "/description",
                           {"array has more than " + std::to_string(kMaxJsonArrayElements) + " elements"}));
}

TEST(LoaderLimits, document_with_too_many_values_is_refused) {
  // Twenty arrays of 100,000 numbers each: every container is within its limit, the document is not.
  std::string text = "{\"a\": [";
  for (int a = 0; a < 21; ++a) {
    text += a ? ",[" : "[";
    for (std::size_t i = 0; i < kMaxJsonArrayElements; ++i) text += i ? ",0" : "0";
    text += "]";
  }
  text += "]}";
  EXPECT_TRUE(
      text_refused(text, "/a/19/99978",
                   {"the document has more than " + std::to_string(kMaxJsonValues) + " JSON values"}));
}

// ---- counts of sections ----

TEST(LoaderLimits, section_counts_are_refused_with_both_numbers) {
  Json m = pendulum_model();
  m["parameters"] = Json::object();
  for (int i = 0; i <= kMaxParameters; ++i) m["parameters"]["p" + std::to_string(i)] = 1.0;
  EXPECT_TRUE(text_refused(m.dump(), "/parameters",
                           {std::to_string(kMaxParameters + 1) + " parameters, more than the " +
                            std::to_string(kMaxParameters) + " a model may have"}));

  m = pendulum_model();
  for (int i = 0; i < kMaxBodies; ++i) m["bodies"].push_back(m["bodies"][0]);
  EXPECT_TRUE(text_refused(m.dump(), "/bodies", {std::to_string(kMaxBodies + 1) + " bodies, more than the"}));

  m = pendulum_model();
  for (int i = 0; i < kMaxOutputs; ++i) m["outputs"].push_back(m["outputs"][0]);
  EXPECT_TRUE(text_refused(m.dump(), "/outputs", {std::to_string(kMaxOutputs + 1) + " outputs"}));

  m = pendulum_model();
  m["loops"] = Json::array();
  for (int i = 0; i <= kMaxLoops; ++i) m["loops"].push_back(Json::object());
  EXPECT_TRUE(text_refused(m.dump(), "/loops", {std::to_string(kMaxLoops + 1) + " loops"}));
}

TEST(LoaderLimits, largest_ladder_loads_within_the_limits) {
  EXPECT_NO_THROW(load_model_file(std::string(MYRIAD_SOURCE_DIR) + "/models/loops/ladder/ladder_L256.json"));
}

// ---- the output grid ----

TEST(LoaderLimits, output_time_count_is_the_size_of_the_output_grid) {
  for (const auto& grid : {std::array<double, 3>{0.0, 1.0, 0.01}, std::array<double, 3>{0.0, 1.0, 0.3},
                           std::array<double, 3>{0.5, 2.0, 0.5}, std::array<double, 3>{0.0, 0.0, 1.0},
                           std::array<double, 3>{0.0, 2.0, 0.005}, std::array<double, 3>{0.0, 10.0, 1e-4}})
    EXPECT_EQ(output_time_count(grid[0], grid[1], grid[2]), output_grid(grid[0], grid[1], grid[2]).size())
        << grid[0] << " " << grid[1] << " " << grid[2];
}

TEST(LoaderLimits, output_time_count_saturates_instead_of_overflowing) {
  EXPECT_EQ(output_time_count(0.0, 1.0, 1e-300), kOutputTimeCountUnbounded);
  EXPECT_EQ(output_time_count(0.0, 1e300, 1.0), kOutputTimeCountUnbounded);
  EXPECT_EQ(output_time_count(0.0, std::numeric_limits<double>::infinity(), 1.0), kOutputTimeCountUnbounded);
  EXPECT_EQ(output_time_count(0.0, 1e7, 1.0), std::size_t{10000001});
  EXPECT_THROW(output_time_count(0.0, 1.0, 0.0), std::invalid_argument);
  EXPECT_THROW(output_time_count(0.0, 1.0, -0.1), std::invalid_argument);
  EXPECT_THROW(output_time_count(1.0, 0.0, 0.1), std::invalid_argument);
  EXPECT_THROW(output_time_count(0.0, std::nan(""), 0.1), std::invalid_argument);
}

TEST(LoaderLimits, simulation_grid_over_the_output_time_limit_is_refused) {
  Json m = pendulum_model();
  m["simulation"] = Json::parse(R"({"t_end": 1e300, "dt_out": 1})");
  EXPECT_TRUE(text_refused(m.dump(), "/simulation/dt_out",
                           {"t_end = 1e+300 and dt_out = 1 give more than 2^53 output times, more than the " +
                            std::to_string(kMaxOutputTimes) + " a run may have"}));
  m["simulation"] = Json::parse(R"({"dt_out": 1e-300})");
  EXPECT_TRUE(text_refused(m.dump(), "/simulation/dt_out", {"t_end = 1 and dt_out = 1e-300"}));
  m["simulation"] = Json::parse(R"({"t_end": 1e6, "dt_out": 0.01})");
  EXPECT_TRUE(text_refused(m.dump(), "/simulation/dt_out", {"give 100000001 output times"}));
  m["simulation"] = Json::parse(R"({"t_end": 1e6})");  // dt_out defaults to 0.01: the t_end is named
  EXPECT_TRUE(text_refused(m.dump(), "/simulation/t_end", {"t_end = 1e+06 and dt_out = 0.01"}));
  m["simulation"] = Json::parse(R"({"t_end": 1e5, "dt_out": 0.01})");  // exactly 10^7 + 1 times
  EXPECT_TRUE(text_refused(m.dump(), "/simulation/dt_out", {"give 10000001 output times"}));
  m["simulation"] = Json::parse(R"({"t_end": 99999.99, "dt_out": 0.01})");  // 10^7 times: allowed
  EXPECT_NO_THROW(load_model_text(m.dump(), "t.json"));
}

}  // namespace loader_limits_test
}  // namespace myriad
