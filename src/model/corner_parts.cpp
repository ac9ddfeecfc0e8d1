#include "model/corner_parts.hpp"

#include <cmath>

namespace myriad {

// Copies the allowed keys of a force block (`spring`, `damper`) into a tsda entry as they are.
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


void add_upright_ball(TemplateOutput& out, const TemplateInput& in, const std::string& arm, const std::string& upright,
                      const HardPoint& ball, const HardPoint& steering, const JsonNode& at) {
  double norm2 = 0.0;
  for (const LinearExpression& c : steering) norm2 += std::pow(default_value(c, *in.parameters), 2);
  if (std::fabs(default_value(steering[2], *in.parameters)) < 0.1 * std::sqrt(norm2))
    at.fail("the steering axis lies within 6 degrees of the chassis x-y plane; the template's lower ball joint (a "
            "universal about x and y, then the steering axis) would be singular");
  const std::string kingpin = add_part(out, in, "body", "kingpin");
  Json body = Json::object();
  if (in.node.has("kingpin")) {
    body = body_entry(in, "kingpin", in.node.at("kingpin"), &ball);
  } else {
    body["name"] = kingpin;
    body["mass"] = 0.1;
    body["center_of_mass"] = json_point(ball);
    body["inertia"] = Json{{"ixx", 4e-6}, {"iyy", 4e-6}, {"izz", 4e-6}};
  }
  out.bodies.push_back(body);
  Json lower_ball = joint_entry(add_part(out, in, "joint", "lower_ball"), "universal", arm, kingpin, ball);
  lower_ball["axis"] = Json::array({1, 0, 0});
  lower_ball["axis2"] = Json::array({0, 1, 0});
  out.joints.push_back(lower_ball);
  Json steering_axis = joint_entry(add_part(out, in, "joint", "steering_axis"), "revolute", kingpin, upright, ball);
  steering_axis["axis"] = json_point(steering);
  out.joints.push_back(steering_axis);
}

std::string add_wheel_and_tire(TemplateOutput& out, const TemplateInput& in, const std::string& upright,
                               const HardPoint& wheel_center) {
  const JsonNode& node = in.node;
  const std::string wheel = add_part(out, in, "body", "wheel");
  const JsonNode wheel_block = node.at("wheel");
  wheel_block.expect_object();
  wheel_block.allow_keys({"mass", "center_of_mass", "inertia", "spin", "spin_velocity"}, "a template's wheel");
  bool spin = false;
  if (wheel_block.has("spin")) {
    if (!wheel_block.at("spin").json().is_boolean()) wheel_block.at("spin").fail_type("true or false");
    spin = wheel_block.at("spin").json().get<bool>();
  }
  if (wheel_block.has("spin_velocity") && !spin)
    wheel_block.at("spin_velocity").fail("a wheel's spin_velocity needs \"spin\": true (a fixed wheel has no spin coordinate)");
  Json block = wheel_block.json();
  block.erase("spin");
  block.erase("spin_velocity");
  out.bodies.push_back(body_entry(in, "wheel", JsonNode(block, wheel_block.pointer(), wheel_block.file()), &wheel_center));

  const std::string wheel_mount = add_part(out, in, "joint", "wheel_mount");
  Json mount = joint_entry(wheel_mount, spin ? "revolute" : "fixed", upright, wheel, wheel_center);
  if (spin) mount["axis"] = Json::array({0, in.mirror ? -1 : 1, 0});
  if (wheel_block.has("spin_velocity")) {
    // The rate about the left corner's +y (rolling forward: V / R_e); a mirrored wheel turns the same way about
    // the world, i.e. negatively about its own spin axis -y.
    const LinearExpression rate = read_expression(wheel_block.at("spin_velocity"), *in.parameters);
    mount["velocity"] = Json::array({json_value(in.mirror ? -1.0 * rate : rate)});
  }
  out.joints.push_back(mount);
  for (const auto& role : std::vector<std::pair<std::string, std::string>>{
           {"upright", upright}, {"wheel", wheel}, {"wheel_mount", wheel_mount}, {"spin_axis_y", in.mirror ? "-1" : "1"}})
    out.info.roles.push_back(role);

  if (node.has("tire")) {
    // A point-follower vertical tire: a compression-only spring from the wheel centre to a ground point 1 m + radius
    // - deflection below it, free length 1 m + radius, so it pushes once the wheel centre is within `radius` of the
    // road, never pulls, and its line stays near vertical over the travel.
    const JsonNode tire = node.at("tire");
    tire.expect_object();
    tire.allow_keys({"radius", "stiffness", "damping", "deflection", "road"}, "a template's tire");
    const LinearExpression radius = read_expression(tire.at("radius"), *in.parameters);
    const LinearExpression deflection = tire.has("deflection") ? read_expression(tire.at("deflection"), *in.parameters)
                                                               : constant_expression(0.0);
    const HardPoint ground = {wheel_center[0], wheel_center[1],
                              wheel_center[2] - constant_expression(kTireGroundDepth) - radius + deflection};
    const std::string name = add_part(out, in, "force", "tire");
    Json t = tsda_entry(name, wheel, wheel_center, "ground", ground);
    t["stiffness"] = tire.at("stiffness").json();
    if (tire.has("damping")) t["damping"] = tire.at("damping").json();
    t["free_length"] = json_value(constant_expression(kTireGroundDepth) + radius);
    t["acts"] = "compression";
    if (in.rig != nullptr) {
      // The four-post rig (docs/model-format.md, "Rigs"): the post under this wheel moves by sign * function(t),
      // the sign of the rig's mode for a front or rear, left or right wheel.
      if (tire.has("road"))
        tire.at("road").fail("the model's four-post rig (/rig) moves this tire's ground point: leave out the road");
      const std::string mode = in.rig->at("mode").as_string();
      const bool front = default_value(wheel_center[0], *in.parameters) > 0.0;
      const double pitch = front ? 1.0 : -1.0, roll = in.mirror ? -1.0 : 1.0;
      const double sign = mode == "heave" ? 1.0 : mode == "pitch" ? pitch : mode == "roll" ? roll : pitch * roll;
      Json motion = Json::object();
      motion["direction"] = Json::array({0, 0, sign});
      motion["function"] = in.rig->at("function").json();
      t["motion2"] = motion;
    } else if (tire.has("road")) {
      Json motion = Json::object();
      motion["direction"] = Json::array({0, 0, 1});
      Json road = tire.at("road").json();
      // A random road's right wheel runs on the right track unless the block says otherwise.
      if (in.mirror && road.is_object() && road.value("type", "") == "iso8608_road" && !road.contains("track"))
        road["track"] = "right";
      motion["function"] = road;
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
  z["point"] = json_point(wheel_center);
  z["component"] = "z";
  out.outputs.push_back(z);
  return wheel;
}

void add_spring_and_damper(TemplateOutput& out, const TemplateInput& in, const std::string& body,
                           const HardPoint& spring_chassis, const HardPoint& spring_body,
                           const HardPoint& damper_chassis, const HardPoint& damper_body) {
  const std::string spring = add_part(out, in, "force", "spring");
  Json spring_entry = tsda_entry(spring, in.chassis, spring_chassis, body, spring_body);
  copy_keys(in.node.at("spring"), {"stiffness", "free_length", "preload", "spring_table"}, spring_entry);
  out.forces.push_back(spring_entry);
  const std::string damper = add_part(out, in, "force", "damper");
  Json damper_entry = tsda_entry(damper, in.chassis, damper_chassis, body, damper_body);
  copy_keys(in.node.at("damper"), {"damping", "damper_table"}, damper_entry);
  out.forces.push_back(damper_entry);
  out.info.roles.emplace_back("spring", spring);
  out.info.roles.emplace_back("damper", damper);
  for (const char* kind : {"spring_force", "spring_length"}) {
    Json o = output(add_part(out, in, "output", kind), kind);
    o["force"] = spring;
    out.outputs.push_back(o);
  }
  Json d = output(add_part(out, in, "output", "damper_force"), "damper_force");
  d["force"] = damper;
  out.outputs.push_back(d);
}

Json tierod_mass_of(const TemplateInput& in) {
  if (!in.node.has("tierod")) return Json();
  const JsonNode rod = in.node.at("tierod");
  rod.expect_object();
  rod.allow_keys({"mass"}, "a template's tierod");
  return rod.at("mass").json();
}

void default_damper_points(std::map<std::string, HardPoint>& hp, const TemplateInput& in, const char* chassis_key,
                           const char* body_key, const char* spring_chassis_key, const char* spring_body_key) {
  if (hp.count(chassis_key) != hp.count(body_key))
    in.node.at("hardpoints").fail(std::string("give both ") + chassis_key + " and " + body_key +
                                  ", or neither (the damper then shares the spring's points)");
  if (hp.count(chassis_key) == 0) {
    hp[chassis_key] = hp[spring_chassis_key];
    hp[body_key] = hp[spring_body_key];
  }
}

}  // namespace myriad
