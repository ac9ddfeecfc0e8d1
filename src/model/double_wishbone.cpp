// The double-wishbone corner (docs/model-format.md, "Subsystems"): Chrono::Vehicle's DoubleWishbone topology
// written as Myriad's own entries. Every body frame coincides with the chassis frame in the design position, so a
// hardpoint is the same three numbers on every body that carries it and all joint coordinates are zero there.
//
//   chassis --revolute (lca_front -> lca_rear)--> lca --universal (lca_upright)--> kingpin
//     --revolute (lca_upright -> uca_upright)--> upright --fixed--> wheel
//   chassis --revolute (uca_front -> uca_rear)--> uca ==cut_spherical (uca_upright)== upright
//   chassis (tierod_chassis) ==distance, design length== upright (tierod_upright)
//
// Coordinates: lca 1 + uca 1 + kingpin 2 + upright 1 = 5, constraints 3 + 1 = 4: one degree of freedom, the wheel travel
// (a revolute wheel adds its spin).
#include "model/subsystem_templates.hpp"

#include <cmath>

namespace myriad {

namespace {

// Copies the allowed keys of a force block (`spring`, `damper`, `tire`'s) into a tsda entry as they are.
void copy_keys(const JsonNode& block, const std::vector<std::string>& keys, Json& entry) {
  block.expect_object();
  block.allow_keys(keys, "a template's " + block.pointer().substr(block.pointer().rfind('/') + 1));
  for (const auto& member : block.members()) entry[member.first] = member.second.json();
}

Json output(const std::string& name, const std::string& type) {
  Json o = Json::object();
  o["name"] = name;
  o["type"] = type;
  return o;
}

}  // namespace

TemplateOutput expand_double_wishbone(const TemplateInput& in) {
  const JsonNode& node = in.node;
  node.allow_keys({"name", "template", "chassis", "side", "hardpoints", "lca", "uca", "upright", "wheel", "spring_on",
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
  if (hp.count("damper_chassis") != hp.count("damper_arm"))
    node.at("hardpoints").fail("give both damper_chassis and damper_arm, or neither (the damper then shares the "
                               "spring's points)");
  if (hp.count("damper_chassis") == 0) {
    hp["damper_chassis"] = hp["spring_chassis"];
    hp["damper_arm"] = hp["spring_arm"];
  }

  TemplateOutput out;
  const std::string& chassis = in.chassis;
  const std::string lca = add_part(out, in, "body", "lca");
  const std::string uca = add_part(out, in, "body", "uca");
  const std::string upright = add_part(out, in, "body", "upright");
  const std::string wheel = add_part(out, in, "body", "wheel");
  out.bodies.push_back(body_entry(in, "lca", node.at("lca"), nullptr));
  out.bodies.push_back(body_entry(in, "uca", node.at("uca"), nullptr));
  out.bodies.push_back(body_entry(in, "upright", node.at("upright"), nullptr));

  const JsonNode wheel_block = node.at("wheel");
  wheel_block.expect_object();
  wheel_block.allow_keys({"mass", "center_of_mass", "inertia", "spin"}, "a template's wheel");
  bool spin = false;
  if (wheel_block.has("spin")) {
    if (!wheel_block.at("spin").json().is_boolean()) wheel_block.at("spin").fail_type("true or false");
    spin = wheel_block.at("spin").json().get<bool>();
  }
  {
    Json block = wheel_block.json();
    block.erase("spin");
    const JsonNode trimmed(block, wheel_block.pointer(), wheel_block.file());
    out.bodies.push_back(body_entry(in, "wheel", trimmed, &hp["wheel_center"]));
  }

  const auto pivot = [&](const std::string& part, const std::string& child, const HardPoint& front,
                         const HardPoint& rear) {
    Json j = joint_entry(add_part(out, in, "joint", part), "revolute", chassis, child, front);
    j["axis"] = json_point(difference(rear, front));
    out.joints.push_back(j);
  };
  pivot("lca_pivot", lca, hp["lca_front"], hp["lca_rear"]);
  pivot("uca_pivot", uca, hp["uca_front"], hp["uca_rear"]);
  // The lower ball joint as a universal (chassis x, then y) and a revolute about the steering axis through both
  // ball joints, on a light kingpin body between them: the loop code needs joints whose coordinates are their own
  // rates, so no spherical joint may stand in the tree of a model with loops. The three axes stay independent while
  // the steering axis is away from the chassis x-y plane (checked below at the defaults).
  const HardPoint steering = difference(hp["uca_upright"], hp["lca_upright"]);
  {
    double norm2 = 0.0;
    for (const LinearExpression& c : steering) norm2 += std::pow(default_value(c, *in.parameters), 2);
    if (std::fabs(default_value(steering[2], *in.parameters)) < 0.1 * std::sqrt(norm2))
      node.at("hardpoints").at("uca_upright").fail(
          "the steering axis from lca_upright to uca_upright lies within 6 degrees of the chassis x-y plane; the "
          "template's lower ball joint (a universal about x and y, then the steering axis) would be singular");
  }
  const std::string kingpin = add_part(out, in, "body", "kingpin");
  {
    Json body = Json::object();
    body["name"] = kingpin;
    if (node.has("kingpin")) {
      body = body_entry(in, "kingpin", node.at("kingpin"), &hp["lca_upright"]);
    } else {
      body["mass"] = 0.1;
      body["center_of_mass"] = json_point(hp["lca_upright"]);
      body["inertia"] = Json{{"ixx", 4e-6}, {"iyy", 4e-6}, {"izz", 4e-6}};
    }
    out.bodies.push_back(body);
  }
  Json lower_ball = joint_entry(add_part(out, in, "joint", "lower_ball"), "universal", lca, kingpin, hp["lca_upright"]);
  lower_ball["axis"] = Json::array({1, 0, 0});
  lower_ball["axis2"] = Json::array({0, 1, 0});
  out.joints.push_back(lower_ball);
  Json steering_axis =
      joint_entry(add_part(out, in, "joint", "steering_axis"), "revolute", kingpin, upright, hp["lca_upright"]);
  steering_axis["axis"] = json_point(steering);
  out.joints.push_back(steering_axis);
  const std::string wheel_mount = add_part(out, in, "joint", "wheel_mount");
  Json mount = joint_entry(wheel_mount, spin ? "revolute" : "fixed", upright, wheel, hp["wheel_center"]);
  if (spin) mount["axis"] = Json::array({0, in.mirror ? -1 : 1, 0});
  out.joints.push_back(mount);
  out.loops.push_back(ball_loop(add_part(out, in, "loop", "upper_ball"), uca, upright, hp["uca_upright"]));
  Json tierod_mass;
  if (node.has("tierod")) {
    const JsonNode rod = node.at("tierod");
    rod.expect_object();
    rod.allow_keys({"mass"}, "a template's tierod");
    tierod_mass = rod.at("mass").json();
  }
  out.loops.push_back(link_loop(add_part(out, in, "loop", "tierod"), chassis, hp["tierod_chassis"], upright,
                                hp["tierod_upright"], tierod_mass));

  std::string arm = lca;
  if (node.has("spring_on")) {
    const std::vector<std::string> arms = {"lca", "uca"};
    arm = arms[static_cast<size_t>(read_choice(node.at("spring_on"), arms, "arm"))] == "lca" ? lca : uca;
  }
  const std::string spring = add_part(out, in, "force", "spring");
  Json spring_entry = tsda_entry(spring, chassis, hp["spring_chassis"], arm, hp["spring_arm"]);
  copy_keys(node.at("spring"), {"stiffness", "free_length", "preload", "spring_table"}, spring_entry);
  out.forces.push_back(spring_entry);
  const std::string damper = add_part(out, in, "force", "damper");
  Json damper_entry = tsda_entry(damper, chassis, hp["damper_chassis"], arm, hp["damper_arm"]);
  copy_keys(node.at("damper"), {"damping", "damper_table"}, damper_entry);
  out.forces.push_back(damper_entry);

  out.info.roles = {{"chassis", chassis}, {"upright", upright}, {"wheel", wheel}, {"wheel_mount", wheel_mount},
                    {"spring", spring}, {"damper", damper}, {"spin_axis_y", in.mirror ? "-1" : "1"}};

  if (node.has("tire")) {
    // A point-follower vertical tire (docs/model-format.md, "Subsystems"): a compression-only spring from the wheel
    // centre to a ground point 1 m below the road, free length 1 m + radius, so it pushes once the wheel centre is
    // within `radius` of the road and the line stays near vertical over the travel.
    const JsonNode tire = node.at("tire");
    tire.expect_object();
    tire.allow_keys({"radius", "stiffness", "damping", "deflection", "road"}, "a template's tire");
    const LinearExpression radius = read_expression(tire.at("radius"), *in.parameters);
    const LinearExpression deflection = tire.has("deflection")
                                            ? read_expression(tire.at("deflection"), *in.parameters)
                                            : constant_expression(0.0);
    const HardPoint& c = hp["wheel_center"];
    const HardPoint ground = {c[0], c[1], c[2] - constant_expression(1.0) - radius + deflection};
    const std::string name = add_part(out, in, "force", "tire");
    Json t = tsda_entry(name, wheel, c, "ground", ground);
    t["stiffness"] = tire.at("stiffness").json();
    if (tire.has("damping")) t["damping"] = tire.at("damping").json();
    t["free_length"] = json_value(constant_expression(1.0) + radius);
    t["acts"] = "compression";
    if (tire.has("road")) {
      Json motion = Json::object();
      motion["direction"] = Json::array({0, 0, 1});
      motion["function"] = tire.at("road").json();
      t["motion2"] = motion;
    }
    out.forces.push_back(t);
    out.info.roles.emplace_back("tire", name);
    Json o = output(add_part(out, in, "output", "tire_force"), "spring_force");
    o["force"] = name;
    out.outputs.push_back(o);
  }

  Json z = output(add_part(out, in, "output", "wheel_z"), "body_position");
  z["body"] = wheel;
  z["point"] = json_point(hp["wheel_center"]);
  z["component"] = "z";
  out.outputs.push_back(z);
  for (const char* kind : {"spring_force", "spring_length"}) {
    Json o = output(add_part(out, in, "output", kind), kind);
    o["force"] = spring;
    out.outputs.push_back(o);
  }
  Json d = output(add_part(out, in, "output", "damper_force"), "damper_force");
  d["force"] = damper;
  out.outputs.push_back(d);
  return out;
}

}  // namespace myriad
