#pragma once
// Support for the tests of refusals (limits, output names, axes, loop and reference-path errors): a small
// valid model to break, and an assertion that an action throws a ModelError whose file and JSON pointer are
// the expected ones and whose reason contains every expected part.
#include <gtest/gtest.h>

#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/model_error.hpp"
#include "model/model_loader.hpp"

namespace myriad::testing {

// One pendulum: a body on a revolute joint about z, its centre of mass 1 m below the pivot, one output.
inline nlohmann::ordered_json pendulum_model() {
  return nlohmann::ordered_json::parse(R"({
    "format": "myriad-model", "version": 1,
    "gravity": [0, -9.81, 0],
    "bodies": [{"name": "bob", "mass": 1, "center_of_mass": [0, -1, 0],
                "inertia": {"ixx": 0.01, "iyy": 0.01, "izz": 0.01}}],
    "joints": [{"name": "pivot", "type": "revolute", "parent": "ground", "child": "bob", "axis": [0, 0, 1],
                "position": [0.3]}],
    "outputs": [{"name": "angle", "type": "joint_coordinate", "joint": "pivot"}]
  })");
}

template <class Action>
::testing::AssertionResult throws_model_error(Action&& action, const std::string& file,
                                              const std::string& pointer,
                                              const std::vector<std::string>& reason_parts) {
  try {
    action();
  } catch (const ModelError& e) {
    const std::string what = "'" + std::string(e.what()) + "'";
    if (e.file() != file) return ::testing::AssertionFailure() << "file '" << e.file() << "' in " << what;
    if (e.pointer() != pointer)
      return ::testing::AssertionFailure()
             << "pointer '" << e.pointer() << "', expected '" << pointer << "' in " << what;
    for (const std::string& part : reason_parts)
      if (e.reason().find(part) == std::string::npos)
        return ::testing::AssertionFailure() << "reason lacks '" << part << "' in " << what;
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw a non-ModelError: " << e.what();
  }
  return ::testing::AssertionFailure() << "did not throw";
}

// load_model_text(text, "t.json") refused at `pointer` with a reason containing `reason_parts`.
inline ::testing::AssertionResult text_refused(const std::string& text, const std::string& pointer,
                                               const std::vector<std::string>& reason_parts) {
  return throws_model_error([&] { load_model_text(text, "t.json"); }, "t.json", pointer, reason_parts);
}

}  // namespace myriad::testing
