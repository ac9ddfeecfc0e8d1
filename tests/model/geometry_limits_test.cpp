// Points and frame origins beyond kMaxModelLength are refused by pointer: at 1e200 m the moments r x f cancel
// every digit of the geometry and the fast and reference paths disagree (the mutant suite's finding).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "model/model_error.hpp"
#include "model/model_loader.hpp"

namespace myriad {
namespace geometry_limits_test {

nlohmann::ordered_json undamped_chain() {
  std::ifstream in(std::string(MYRIAD_SOURCE_DIR) + "/models/undamped_chain.json");
  return nlohmann::ordered_json::parse(in);
}

TEST(GeometryLimits, AFrameOriginBeyondAMillionMetresIsRefusedByPointer) {
  nlohmann::ordered_json j = undamped_chain();
  j["joints"][0]["parent_frame"]["origin"][2] = 1.2e200;
  try {
    load_model_text(j.dump(), "far.json");
    FAIL() << "a frame origin at 1.2e200 m loaded";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.pointer(), "/joints/0/parent_frame/origin") << e.what();
    EXPECT_NE(e.reason().find("beyond the limit of"), std::string::npos) << e.what();
  }
  j["joints"][0]["parent_frame"]["origin"][2] = 9.9e5;  // within the limit: loads
  EXPECT_NO_THROW(load_model_text(j.dump(), "near.json"));
}

}  // namespace geometry_limits_test
}  // namespace myriad
