// The MacPherson strut corner (docs/model-format.md, "Subsystems"): Chrono::Vehicle's MacPhersonStrut topology
// written as Myriad's own entries, body frames at the chassis frame in the design position.
//
//   chassis --revolute (lca_front -> lca_rear)--> lca --universal (lca_upright)--> kingpin
//     --revolute (lca_upright -> strut_chassis, the steering axis)--> upright --fixed--> wheel
//   upright (strut axis from strut_upright towards strut_chassis) ==cut_planar_revolute== chassis (strut_chassis)
//   chassis (tierod_chassis) ==distance, design length== upright (tierod_upright)
//
// The strut's rod slides and turns in its tube, which the upright carries, and its top mount is a ball joint on the
// chassis: all that constrains is that the top mount stays on the strut's axis, the two equations of a
// cut_planar_revolute whose axis is the strut (the origins coincide in the plane normal to it). Coordinates lca 1 +
// kingpin 2 + upright 1 = 4, constraints 2 + 1 = 3: one degree of freedom (two with a spinning wheel).
#include "model/corner_parts.hpp"
#include "model/subsystem_templates.hpp"

namespace myriad {

TemplateOutput expand_macpherson(const TemplateInput& in) {
  const JsonNode& node = in.node;
  node.allow_keys({"name", "template", "chassis", "side", "location", "hardpoints", "lca", "upright", "wheel", "spring", "damper",
                   "tire", "tierod", "kingpin"},
                  "a macpherson subsystem");
  auto hp = read_hardpoints(
      in,
      {"lca_front", "lca_rear", "lca_upright", "strut_chassis", "strut_upright", "tierod_chassis", "tierod_upright",
       "wheel_center"},
      {"spring_chassis", "spring_upright", "damper_chassis", "damper_upright"},
      {{"lca_front", "lca_rear", "the lower arm's pivot axis runs from one to the other"},
       {"strut_chassis", "strut_upright", "the strut's axis runs from one to the other"},
       {"lca_upright", "strut_chassis", "the steering axis runs from the lower ball joint to the strut's top mount"},
       {"tierod_chassis", "tierod_upright", "the tie rod would have zero length"},
       {"spring_chassis", "spring_upright", "the spring would have zero length"},
       {"damper_chassis", "damper_upright", "the damper would have zero length"}});
  if (hp.count("spring_chassis") != hp.count("spring_upright"))
    node.at("hardpoints").fail("give both spring_chassis and spring_upright, or neither (the spring then runs along "
                               "the strut, strut_chassis to strut_upright)");
  if (hp.count("spring_chassis") == 0) {
    hp["spring_chassis"] = hp["strut_chassis"];
    hp["spring_upright"] = hp["strut_upright"];
  }
  default_damper_points(hp, in, "damper_chassis", "damper_upright", "spring_chassis", "spring_upright");

  TemplateOutput out;
  const std::string& chassis = in.chassis;
  const std::string lca = add_part(out, in, "body", "lca");
  const std::string upright = add_part(out, in, "body", "upright");
  out.bodies.push_back(body_entry(in, "lca", node.at("lca"), nullptr));
  out.bodies.push_back(body_entry(in, "upright", node.at("upright"), nullptr));
  out.info.roles.emplace_back("chassis", chassis);

  Json pivot = joint_entry(add_part(out, in, "joint", "lca_pivot"), "revolute", chassis, lca, hp["lca_front"]);
  pivot["axis"] = json_point(difference(hp["lca_rear"], hp["lca_front"]));
  out.joints.push_back(pivot);
  add_upright_ball(out, in, lca, upright, hp["lca_upright"], difference(hp["strut_chassis"], hp["lca_upright"]),
                   node.at("hardpoints").at("strut_chassis"));
  add_wheel_and_tire(out, in, upright, hp["wheel_center"]);

  Json strut = Json::object();
  strut["name"] = add_part(out, in, "loop", "strut");
  strut["type"] = "cut_planar_revolute";
  strut["body1"] = upright;
  strut["frame1"] = origin_frame(hp["strut_upright"]);
  strut["body2"] = chassis;
  strut["frame2"] = origin_frame(hp["strut_chassis"]);
  strut["axis"] = json_point(difference(hp["strut_chassis"], hp["strut_upright"]));
  out.loops.push_back(strut);
  const Json tierod_mass = tierod_mass_of(in);
  out.loops.push_back(link_loop(add_part(out, in, "loop", "tierod"), chassis, hp["tierod_chassis"], upright,
                                hp["tierod_upright"], tierod_mass));
  add_spring_and_damper(out, in, upright, hp["spring_chassis"], hp["spring_upright"], hp["damper_chassis"],
                        hp["damper_upright"]);
  return out;
}

}  // namespace myriad
