// The four-post rig (docs/model-format.md, "Rigs"): models/rigs/full_car_four_post.json's four posts driven in each
// mode by a 1.5 Hz, 10 mm sine. The car is left-right symmetric, so a symmetric input (heave, pitch) must leave its
// roll at zero, and an antisymmetric one (roll, warp) its heave and pitch at zero to first order; a roll input lifts
// the left side (the chassis rolls positive about x, following the posts); the posts' signs in the expanded model
// are those of the mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "model/model_loader.hpp"
#include "support/backend_comparison.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace four_post_rig_test {

using namespace testing;
using Json = nlohmann::ordered_json;

Model rig(const std::string& mode) {
  Json m = Json::parse(std::ifstream(model_path("rigs/full_car_four_post.json")));
  m["rig"]["mode"] = mode;
  m["rig"]["function"] = Json{{"type", "sine"}, {"amplitude", 0.01}, {"frequency", 1.5}};
  return load_model_text(m.dump(), "four_post_" + mode + ".json");
}

double post_sign(const Model& m, const std::string& tire) {
  for (const ForceElement& f : m.forces)
    if (f.name == tire) return f.end2.motion_direction[2].value;
  return 0.0;
}

struct Peaks {
  double heave = 0.0, pitch = 0.0, roll = 0.0, roll_follows = 0.0;
};

Peaks run(const Model& m) {
  const std::vector<double> times = output_grid(0.0, 0.6, 0.01);
  const EnsembleResult r = run_model(m, dopri5(1e-9, 1e-9), times);
  EXPECT_EQ(r.status[0], InstanceStatus::ok);
  int heave = -1, pitch = -1, roll = -1;
  for (std::size_t s = 0; s < m.outputs.size(); ++s) {
    if (m.outputs[s].name == "heave_z") heave = static_cast<int>(s);
    if (m.outputs[s].name == "pitch_angle") pitch = static_cast<int>(s);
    if (m.outputs[s].name == "roll_angle") roll = static_cast<int>(s);
  }
  Peaks p;
  for (int k = 0; k < r.n_times; ++k) {
    p.heave = std::max(p.heave, std::fabs(r.value(0, k, heave)));
    p.pitch = std::max(p.pitch, std::fabs(r.value(0, k, pitch)));
    p.roll = std::max(p.roll, std::fabs(r.value(0, k, roll)));
    p.roll_follows += r.value(0, k, roll) * std::sin(2 * M_PI * 1.5 * times[static_cast<std::size_t>(k)]);
  }
  std::printf("  heave %.3e m  pitch %.3e rad  roll %.3e rad\n", p.heave, p.pitch, p.roll);
  return p;
}

TEST(FourPostRig, PostsMoveAsTheModeSays) {
  const std::string tires[4] = {"front_left_tire", "front_right_tire", "rear_left_tire", "rear_right_tire"};
  const std::map<std::string, std::array<double, 4>> signs = {{"heave", {1, 1, 1, 1}},
                                                              {"pitch", {1, 1, -1, -1}},
                                                              {"roll", {1, -1, 1, -1}},
                                                              {"warp", {1, -1, -1, 1}}};
  for (const auto& [mode, expected] : signs) {
    const Model m = rig(mode);
    for (int c = 0; c < 4; ++c) EXPECT_EQ(post_sign(m, tires[c]), expected[static_cast<std::size_t>(c)]) << mode << " " << tires[c];
  }
}

TEST(FourPostRig, SymmetricModesLeaveRollAloneAndAntisymmetricOnesHeaveAndPitch) {
  const Peaks heave = run(rig("heave"));
  EXPECT_GT(heave.heave, 2e-3);
  EXPECT_LT(heave.roll, 1e-12);
  const Peaks pitch = run(rig("pitch"));
  EXPECT_GT(pitch.pitch, 1e-3);
  EXPECT_LT(pitch.roll, 1e-12);
  const Peaks roll = run(rig("roll"));
  EXPECT_GT(roll.roll, 5e-3);
  EXPECT_GT(roll.roll_follows, 0.0);  // left posts up: the chassis rolls positive about x
  EXPECT_LT(roll.heave, 1e-2 * roll.roll);  // second order only (geometric)
  EXPECT_LT(roll.pitch, 1e-2 * roll.roll);
  const Peaks warp = run(rig("warp"));
  EXPECT_LT(warp.heave, 1e-2 * 0.01);
  EXPECT_LT(warp.pitch, 1e-2 * 0.01);
}

TEST(FourPostRig, Refusals) {
  Json m = Json::parse(std::ifstream(model_path("rigs/full_car_four_post.json")));
  m["rig"]["mode"] = "bounce";
  try {
    load_model_text(m.dump(), "t.json");
    FAIL() << "accepted mode 'bounce'";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.pointer(), "/rig/mode");
    EXPECT_NE(e.reason().find("expected one of: heave, pitch, roll, warp"), std::string::npos) << e.what();
  }
  m = Json::parse(std::ifstream(model_path("full_car.json")));
  m["rig"] = Json{{"type", "four_post"}, {"mode", "heave"}, {"function", {{"type", "sine"}, {"amplitude", 0.01}, {"frequency", 1}}}};
  try {
    load_model_text(m.dump(), "t.json");
    FAIL() << "accepted a rig beside tire roads";
  } catch (const ModelError& e) {
    EXPECT_EQ(e.pointer(), "/subsystems/0/tire/road");
    EXPECT_NE(e.reason().find("four-post rig"), std::string::npos) << e.what();
  }
}

}  // namespace four_post_rig_test
}  // namespace myriad
