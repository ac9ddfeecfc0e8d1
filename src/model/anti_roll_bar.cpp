// The anti-roll bar (docs/model-format.md, "Subsystems"): Chrono::Vehicle's AntirollBarRSD topology written as
// Myriad's own entries, always on both sides, joined by droplinks to a part of a two-sided corner subsystem.
//
//   chassis --revolute (y at pivot)--> arb_left --revolute (y, the bar's twist)--> arb_right
//   rsda on the twist joint: the bar's torsion stiffness and damping
//   arb_left (arm_end) ==droplink: distance or rod, design length== <corner>_left_<part> (droplink_lower), mirrored
//
// Coordinates 2, constraints 2: the bar adds no degree of freedom, only the torsion spring between the corners.
#include "model/subsystem_templates.hpp"

namespace myriad {

TemplateOutput expand_anti_roll_bar(const TemplateInput& in) {
  const JsonNode& node = in.node;
  node.allow_keys({"name", "template", "chassis", "side", "location", "hardpoints", "arm", "stiffness", "damping",
                   "corner", "corner_part", "droplink_mass"},
                  "an anti_roll_bar subsystem");
  if (in.mirror) node.at("side").fail("an anti_roll_bar spans both sides: give \"side\": \"both\" or leave it out");
  const std::string corner = node.at("corner").as_string();
  const std::string part = node.has("corner_part") ? node.at("corner_part").as_string() : std::string("lca");

  TemplateInput left = in;
  left.mirror = false;
  TemplateInput right = in;
  right.mirror = true;
  const auto hp_left = read_hardpoints(left, {"pivot", "arm_end", "droplink_lower"}, {},
                                       {{"pivot", "arm_end", "the bar's arm would have zero length"},
                                        {"arm_end", "droplink_lower", "the droplink would have zero length"}});
  const auto hp_right = read_hardpoints(right, {"pivot", "arm_end", "droplink_lower"}, {}, {});

  TemplateOutput out;
  out.info.roles.emplace_back("chassis", in.chassis);
  const std::string arm_left = add_part(out, in, "body", "arm_left");
  const std::string arm_right = add_part(out, in, "body", "arm_right");
  Json body_left = body_entry(left, "arm", node.at("arm"), nullptr);
  body_left["name"] = arm_left;
  Json body_right = body_entry(right, "arm", node.at("arm"), nullptr);
  body_right["name"] = arm_right;
  out.bodies.push_back(body_left);
  out.bodies.push_back(body_right);

  const HardPoint& pivot = hp_left.at("pivot");
  Json mount = joint_entry(add_part(out, in, "joint", "pivot"), "revolute", in.chassis, arm_left, pivot);
  mount["axis"] = Json::array({0, 1, 0});
  out.joints.push_back(mount);
  const std::string twist_name = add_part(out, in, "joint", "twist");
  Json twist = joint_entry(twist_name, "revolute", arm_left, arm_right, pivot);
  twist["axis"] = Json::array({0, 1, 0});
  out.joints.push_back(twist);

  Json torsion = Json::object();
  torsion["name"] = add_part(out, in, "force", "torsion");
  torsion["type"] = "rsda";
  torsion["joint"] = twist_name;
  torsion["stiffness"] = node.at("stiffness").json();
  if (node.has("damping")) torsion["damping"] = node.at("damping").json();
  out.forces.push_back(torsion);
  out.info.roles.emplace_back("torsion", torsion["name"].get<std::string>());

  const Json mass = node.has("droplink_mass") ? node.at("droplink_mass").json() : Json();
  out.loops.push_back(link_loop(add_part(out, in, "loop", "droplink_left"), arm_left, hp_left.at("arm_end"),
                                corner + "_left_" + part, hp_left.at("droplink_lower"), mass));
  out.loops.push_back(link_loop(add_part(out, in, "loop", "droplink_right"), arm_right, hp_right.at("arm_end"),
                                corner + "_right_" + part, hp_right.at("droplink_lower"), mass));
  Json torque = Json::object();
  torque["name"] = add_part(out, in, "output", "torque");
  torque["type"] = "spring_force";
  torque["force"] = torsion["name"];
  out.outputs.push_back(torque);
  return out;
}

}  // namespace myriad
