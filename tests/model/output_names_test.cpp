// Output names are written unquoted into CSV files (the result's header `instance,time,<names>`, the
// summary's and KPIs' `signal` column), so the loader refuses every name that would break a row or a column.
#include <gtest/gtest.h>

#include <string>

#include "model/refusal_support.hpp"

namespace myriad {
namespace output_names_test {

using testing::pendulum_model;
using testing::text_refused;

std::string with_output_name(const std::string& name) {
  nlohmann::ordered_json m = pendulum_model();
  m["outputs"][0]["name"] = name;
  return m.dump();
}

TEST(OutputNames, names_that_break_a_csv_row_are_refused) {
  EXPECT_TRUE(
      text_refused(with_output_name("x,y"), "/outputs/0/name", {"output name \"x,y\" contains a comma"}));
  EXPECT_TRUE(text_refused(with_output_name("say \"hi\""), "/outputs/0/name", {"contains a double quote"}));
  EXPECT_TRUE(text_refused(with_output_name("two\nlines"), "/outputs/0/name",
                           {"output name \"two\\nlines\" contains a control character"}));
  EXPECT_TRUE(
      text_refused(with_output_name("tab\there"), "/outputs/0/name", {"contains a control character"}));
  EXPECT_TRUE(text_refused(with_output_name("cr\r"), "/outputs/0/name", {"contains a control character"}));
  EXPECT_TRUE(text_refused(with_output_name("del\x7f"), "/outputs/0/name", {"contains a control character"}));
}

TEST(OutputNames, names_with_surrounding_spaces_are_refused) {
  EXPECT_TRUE(text_refused(with_output_name(" angle"), "/outputs/0/name", {"begins or ends with a space"}));
  EXPECT_TRUE(text_refused(with_output_name("angle "), "/outputs/0/name", {"begins or ends with a space"}));
}

TEST(OutputNames, the_result_csv_columns_are_reserved) {
  EXPECT_TRUE(text_refused(with_output_name("time"), "/outputs/0/name",
                           {"output name \"time\" is a column the result CSV already has (instance, time)"}));
  EXPECT_TRUE(text_refused(with_output_name("instance"), "/outputs/0/name", {"is a column the result CSV"}));
}

TEST(OutputNames, ordinary_names_load) {
  for (const std::string name : {"angle", "time_s", "Time", "wheel travel", "\xce\x94x (m)", "q[0]", "a;b"})
    EXPECT_NO_THROW(load_model_text(with_output_name(name), "t.json")) << name;
}

}  // namespace output_names_test
}  // namespace myriad
