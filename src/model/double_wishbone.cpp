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
//
// With a `uca_bushing` (seed 000 sec. 5.2's HMMWV, whose stiffness sits in tsdas between the upper arms and the
// chassis) the upper arm turns on a universal joint at uca_front instead, about its pivot axis and about the axis
// that swings uca_rear along the bushing, and the stiff bushing holds that swing as a rear bearing would:
//
//   chassis --universal (uca_front -> uca_rear, then the swing)--> uca
//   chassis (uca_bushing_chassis) --tsda, free at its design length-- uca (uca_rear)
//
// Coordinates 6, the same 4 constraints: two degrees of freedom, the wheel travel and the arm's swing. (A ball
// joint there, the paper's count of three per corner, leaves the arm a spin about the line through its two balls
// that nothing holds: it drifts after a bump and folds the corner.)
#include <cmath>

#include "model/corner_parts.hpp"
#include "model/number_text.hpp"
#include "model/subsystem_templates.hpp"
#include "spatial/vec3.hpp"

namespace myriad {

namespace {

Vec3<double> constant_point(const HardPoint& p) {
  return {p[0].constant, p[1].constant, p[2].constant};
}

// The upper arm on its bushing (the file comment's second sketch). The bushing's free length is its design
// length, so it is unloaded in the design position, and the swing axis is computed from the points: both need
// uca_front, uca_rear and uca_bushing_chassis as plain numbers, the same for every instance.
void add_uca_bushing_mount(TemplateOutput& out, const TemplateInput& in, const std::string& uca,
                           std::map<std::string, HardPoint>& hp) {
  const JsonNode& node = in.node;
  const JsonNode hardpoints = node.at("hardpoints");
  if (!hp.count("uca_bushing_chassis"))
    hardpoints.fail("a uca_bushing needs the hardpoint uca_bushing_chassis (the bushing's end on the chassis)");
  for (const char* key : {"uca_front", "uca_rear", "uca_bushing_chassis"})
    for (const LinearExpression& c : hp[key])
      if (!c.is_constant())
        hardpoints.at(key).fail(std::string(key) + " must be plain numbers with a uca_bushing: the bushing's free "
                                "length and the arm's swing axis are computed from it, the same for every instance");
  const Vec3<double> front = constant_point(hp["uca_front"]), rear = constant_point(hp["uca_rear"]);
  const Vec3<double> line = constant_point(hp["uca_bushing_chassis"]) - rear;
  const double length = norm(line);
  // The swing that moves uca_rear along the bushing: about (rear - front) x line, perpendicular to the pivot axis.
  const Vec3<double> swing = cross(rear - front, line);
  if (!(length > 1e-6) || !(norm(swing) > 1e-6 * length * norm(rear - front)))
    hardpoints.at("uca_bushing_chassis")
        .fail("the bushing must leave uca_rear at an angle to the arm's pivot axis (uca_front -> uca_rear); got a "
              "line of length " + number_text(length) + " m along it");
  Json joint = joint_entry(add_part(out, in, "joint", "uca_mount"), "universal", in.chassis, uca, hp["uca_front"]);
  joint["axis"] = json_point(difference(hp["uca_rear"], hp["uca_front"]));
  joint["axis2"] = Json::array({swing.x, swing.y, swing.z});
  out.joints.push_back(joint);
  const std::string bushing = add_part(out, in, "force", "uca_bushing");
  Json tsda = tsda_entry(bushing, in.chassis, hp["uca_bushing_chassis"], uca, hp["uca_rear"]);
  copy_keys(node.at("uca_bushing"), {"stiffness", "damping"}, tsda);
  tsda["free_length"] = length;
  out.forces.push_back(tsda);
  Json o = output(add_part(out, in, "output", "uca_bushing_force"), "spring_force");
  o["force"] = bushing;
  out.outputs.push_back(o);
}

}  // namespace

TemplateOutput expand_double_wishbone(const TemplateInput& in) {
  const JsonNode& node = in.node;
  node.allow_keys({"name", "template", "chassis", "side", "location", "hardpoints", "lca", "uca", "upright", "wheel", "spring_on",
                   "spring", "damper", "tire", "tierod", "kingpin", "uca_bushing", "tierod_body"},
                  "a double_wishbone subsystem");
  auto hp = read_hardpoints(
      in,
      {"lca_front", "lca_rear", "lca_upright", "uca_front", "uca_rear", "uca_upright", "tierod_chassis",
       "tierod_upright", "spring_chassis", "spring_arm", "wheel_center"},
      {"damper_chassis", "damper_arm", "uca_bushing_chassis"},
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
  if (node.has("uca_bushing"))
    add_uca_bushing_mount(out, in, uca, hp);
  else
    pivot("uca_pivot", uca, hp["uca_front"], hp["uca_rear"]);
  add_upright_ball(out, in, lca, upright, hp["lca_upright"], difference(hp["uca_upright"], hp["lca_upright"]),
                   node.at("hardpoints").at("uca_upright"));
  add_wheel_and_tire(out, in, upright, hp["wheel_center"]);

  out.loops.push_back(ball_loop(add_part(out, in, "loop", "upper_ball"), uca, upright, hp["uca_upright"]));
  const Json tierod_mass = tierod_mass_of(in);
  // `tierod_body`: the tie rod's inner end on a body of the file (a steering rack on the chassis) instead.
  const std::string tierod_inner = node.has("tierod_body") ? node.at("tierod_body").as_string() : chassis;
  out.loops.push_back(link_loop(add_part(out, in, "loop", "tierod"), tierod_inner, hp["tierod_chassis"], upright,
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
