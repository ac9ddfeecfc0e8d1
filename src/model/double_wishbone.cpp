// The double-wishbone corner (docs/model-format.md, "Subsystems"): Chrono::Vehicle's DoubleWishbone topology
// written as Myriad's own entries. Every body frame coincides with the chassis frame in the design position, so a
// hardpoint is the same three numbers on every body that carries it and all joint coordinates are zero there.
//
//   chassis --revolute (lca_front -> lca_rear)--> lca --universal (lca_upright)--> kingpin
//     --revolute (lca_upright -> uca_upright)--> upright --fixed--> wheel
//   chassis --revolute (uca_front -> uca_rear)--> uca ==cut_spherical (uca_upright)== upright
//   chassis (tierod_chassis) ==distance, design length== upright (tierod_upright)
//
// Coordinates: lca 1 + uca 1 + kingpin 2 + upright 1 = 5, constraints 3 + 1 = 4: one degree of freedom, the wheel
// travel (a revolute wheel adds its spin).
#include "model/corner_parts.hpp"
#include "model/subsystem_templates.hpp"

namespace myriad {

TemplateOutput expand_double_wishbone(const TemplateInput& in) {
  const JsonNode& node = in.node;
  node.allow_keys({"name", "template", "chassis", "side", "location", "hardpoints", "lca", "uca", "upright", "wheel", "spring_on",
                   "spring", "damper", "tire", "tierod", "kingpin"},
                  "a double_wishbone subsystem");
  auto hp = read_hardpoints(
      in,
      {"lca_front", "lca_rear", "lca_upright", "uca_front", "uca_rear", "uca_upright", "tierod_chassis",
       "tierod_upright", "spring_chassis", "spring_arm", "wheel_center"},
      {"damper_chassis", "damper_arm"},
      {{"lca_front", "lca_rear", "the lower arm's pivot axis runs from one to the other"},
       {"uca_front", "uca_rear", "the upper arm's pivot axis runs from one to the other"},
       {"lca_upright", "uca_upright", "the upright's steering axis runs through both ball joints"},
       {"tierod_chassis", "tierod_upright", "the tie rod would have zero length"},
       {"spring_chassis", "spring_arm", "the spring would have zero length"},
       {"damper_chassis", "damper_arm", "the damper would have zero length"}});
  default_damper_points(hp, in, "damper_chassis", "damper_arm", "spring_chassis", "spring_arm");

  TemplateOutput out;
  const std::string& chassis = in.chassis;
  const std::string lca = add_part(out, in, "body", "lca");
  const std::string uca = add_part(out, in, "body", "uca");
  const std::string upright = add_part(out, in, "body", "upright");
  out.bodies.push_back(body_entry(in, "lca", node.at("lca"), nullptr));
  out.bodies.push_back(body_entry(in, "uca", node.at("uca"), nullptr));
  out.bodies.push_back(body_entry(in, "upright", node.at("upright"), nullptr));
  out.info.roles.emplace_back("chassis", chassis);

  const auto pivot = [&](const std::string& part, const std::string& child, const HardPoint& front,
                         const HardPoint& rear) {
    Json j = joint_entry(add_part(out, in, "joint", part), "revolute", chassis, child, front);
    j["axis"] = json_point(difference(rear, front));
    out.joints.push_back(j);
  };
  pivot("lca_pivot", lca, hp["lca_front"], hp["lca_rear"]);
  pivot("uca_pivot", uca, hp["uca_front"], hp["uca_rear"]);
  add_upright_ball(out, in, lca, upright, hp["lca_upright"], difference(hp["uca_upright"], hp["lca_upright"]),
                   node.at("hardpoints").at("uca_upright"));
  add_wheel_and_tire(out, in, upright, hp["wheel_center"]);

  out.loops.push_back(ball_loop(add_part(out, in, "loop", "upper_ball"), uca, upright, hp["uca_upright"]));
  const Json tierod_mass = tierod_mass_of(in);
  out.loops.push_back(link_loop(add_part(out, in, "loop", "tierod"), chassis, hp["tierod_chassis"], upright,
                                hp["tierod_upright"], tierod_mass));

  std::string arm = lca;
  if (node.has("spring_on")) {
    const std::vector<std::string> arms = {"lca", "uca"};
    arm = read_choice(node.at("spring_on"), arms, "arm") == 0 ? lca : uca;
  }
  add_spring_and_damper(out, in, arm, hp["spring_chassis"], hp["spring_arm"], hp["damper_chassis"], hp["damper_arm"]);
  return out;
}

}  // namespace myriad
