// The five-link corner (docs/model-format.md, "Subsystems"): the upright held to the chassis by five rods, each a
// distance constraint, or with `link_masses` a rod carrying its mass on its two ends (seed 001 sec. 3: the
// rod-removal technique, rods of 2, 2, 4, 1 and 3 kg in its Table 9). Body frames at the chassis frame in the design
// position.
//
//   chassis --prismatic z--> carrier --planar (normal z)--> swivel --universal (x, y)--> upright --fixed--> wheel
//   chassis (linkN_chassis) ==rod or distance, design length== upright (linkN_upright), N = 1 .. 5
//
// The upright's six coordinates (all joints whose coordinates are their own rates, as the loop code needs; their
// frames at the wheel centre) go through two light carrier bodies (0.1 kg each, as the kingpin of the other
// corners). Coordinates 1 + 3 + 2 = 6, constraints 5: one degree of freedom (two with a spinning wheel).
#include "model/corner_parts.hpp"
#include "model/subsystem_templates.hpp"

namespace myriad {

namespace {

Json light_body(const std::string& name, const HardPoint& at) {
  Json body = Json::object();
  body["name"] = name;
  body["mass"] = 0.1;
  body["center_of_mass"] = json_point(at);
  body["inertia"] = Json{{"ixx", 4e-6}, {"iyy", 4e-6}, {"izz", 4e-6}};
  return body;
}

}  // namespace

TemplateOutput expand_five_link(const TemplateInput& in) {
  const JsonNode& node = in.node;
  node.allow_keys({"name", "template", "chassis", "side", "location", "hardpoints", "upright", "wheel", "link_masses", "spring",
                   "damper", "tire"},
                  "a five_link subsystem");
  std::vector<std::string> required;
  std::vector<DistinctPair> distinct;
  static const char* const reasons[5] = {"link 1 would have zero length", "link 2 would have zero length",
                                         "link 3 would have zero length", "link 4 would have zero length",
                                         "link 5 would have zero length"};
  std::vector<std::string> keys;
  for (int k = 1; k <= 5; ++k) {
    keys.push_back("link" + std::to_string(k) + "_chassis");
    keys.push_back("link" + std::to_string(k) + "_upright");
  }
  for (int k = 0; k < 5; ++k)
    distinct.push_back({keys[static_cast<std::size_t>(2 * k)].c_str(), keys[static_cast<std::size_t>(2 * k + 1)].c_str(),
                        reasons[k]});
  required = keys;
  required.insert(required.end(), {"spring_chassis", "spring_upright", "wheel_center"});
  distinct.push_back({"spring_chassis", "spring_upright", "the spring would have zero length"});
  distinct.push_back({"damper_chassis", "damper_upright", "the damper would have zero length"});
  auto hp = read_hardpoints(in, required, {"damper_chassis", "damper_upright"}, distinct);
  default_damper_points(hp, in, "damper_chassis", "damper_upright", "spring_chassis", "spring_upright");

  std::vector<Json> masses(5);
  if (node.has("link_masses")) {
    const std::vector<JsonNode> items = node.at("link_masses").elements(5, "rod masses (kg), links 1 .. 5");
    for (std::size_t k = 0; k < 5; ++k) masses[k] = items[k].json();
  }

  TemplateOutput out;
  const std::string& chassis = in.chassis;
  const HardPoint& c = hp["wheel_center"];
  out.info.roles.emplace_back("chassis", chassis);
  const std::string carrier = add_part(out, in, "body", "carrier");
  const std::string swivel = add_part(out, in, "body", "swivel");
  const std::string upright = add_part(out, in, "body", "upright");
  out.bodies.push_back(light_body(carrier, c));
  out.bodies.push_back(light_body(swivel, c));
  out.bodies.push_back(body_entry(in, "upright", node.at("upright"), nullptr));

  Json heave = joint_entry(add_part(out, in, "joint", "heave"), "prismatic", chassis, carrier, c);
  heave["axis"] = Json::array({0, 0, 1});
  out.joints.push_back(heave);
  Json plane = joint_entry(add_part(out, in, "joint", "plane"), "planar", carrier, swivel, c);
  plane["axis"] = Json::array({0, 0, 1});
  out.joints.push_back(plane);
  Json tilt = joint_entry(add_part(out, in, "joint", "tilt"), "universal", swivel, upright, c);
  tilt["axis"] = Json::array({1, 0, 0});
  tilt["axis2"] = Json::array({0, 1, 0});
  out.joints.push_back(tilt);
  add_wheel_and_tire(out, in, upright, c);

  for (std::size_t k = 0; k < 5; ++k)
    out.loops.push_back(link_loop(add_part(out, in, "loop", "link" + std::to_string(k + 1)), chassis,
                                  hp[keys[2 * k]], upright, hp[keys[2 * k + 1]], masses[k]));
  add_spring_and_damper(out, in, upright, hp["spring_chassis"], hp["spring_upright"], hp["damper_chassis"],
                        hp["damper_upright"]);
  return out;
}

}  // namespace myriad
