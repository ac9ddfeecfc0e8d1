#include "model/loop_reading.hpp"

#include <string>

#include "model/force_reading.hpp"
#include "model/joint_reading.hpp"

namespace myriad {

namespace {

const std::vector<std::string>& loop_type_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (LoopType type : {LoopType::cut_spherical, LoopType::cut_revolute, LoopType::cut_universal,
                          LoopType::cut_planar_revolute, LoopType::distance, LoopType::rod})
      list.push_back(loop_type_name(type));
    return list;
  }();
  return names;
}

bool is_cut_joint(LoopType type) {
  return type == LoopType::cut_spherical || type == LoopType::cut_revolute ||
         type == LoopType::cut_universal || type == LoopType::cut_planar_revolute;
}

bool uses_axis(LoopType type) {
  return type == LoopType::cut_revolute || type == LoopType::cut_universal ||
         type == LoopType::cut_planar_revolute;
}

// Keys depend on the type so that, e.g., a `length` on a cut joint is reported instead of ignored.
std::vector<std::string> loop_keys(LoopType type) {
  std::vector<std::string> keys = {"name", "type", "body1", "body2"};
  if (is_cut_joint(type)) {
    keys.insert(keys.end(), {"frame1", "frame2"});
    if (uses_axis(type)) keys.push_back("axis");
    if (type == LoopType::cut_universal) keys.push_back("axis2");
  } else {
    keys.insert(keys.end(), {"point1", "point2", "length"});
    if (type == LoopType::rod) keys.push_back("mass");
  }
  return keys;
}

std::string body_name(const ReadContext& context, int body) {
  if (body < 0) return "ground";
  for (const auto& entry : context.bodies.index)
    if (entry.second == body) return entry.first;
  return std::to_string(body);
}

Loop read_loop(const JsonNode& node, int index, NameTable& names, const ReadContext& context) {
  node.expect_object();
  Loop loop;
  loop.file_index = index;
  loop.type = static_cast<LoopType>(read_choice(node.at("type"), loop_type_names(), "loop type"));
  const std::string type_name = loop_type_name(loop.type);
  node.allow_keys(loop_keys(loop.type), "a " + type_name + " loop");
  loop.name = read_entry_name(node, names, index);
  loop.body1 = resolve_name(node.at("body1"), context.bodies, true);
  loop.body2 = resolve_name(node.at("body2"), context.bodies, true);
  if (loop.body1 == loop.body2 && !is_cut_joint(loop.type)) {
    const Vector3 p1 = read_optional_vector3(node, "point1", context);
    const Vector3 p2 = read_optional_vector3(node, "point2", context);
    if (p1[0].value == p2[0].value && p1[1].value == p2[1].value && p1[2].value == p2[2].value)
      node.at("body2").fail("the two points of " + type_name + " '" + loop.name + "' coincide on body '" +
                            body_name(context, loop.body1) + "' (the length would be zero)");
  }
  if (loop.body1 == loop.body2)
    node.at("body2").fail(
        loop.body1 < 0
            ? "loop '" + loop.name + "' connects ground to itself"
            : "loop '" + loop.name + "' connects body '" + body_name(context, loop.body1) +
                  "' to itself (a constraint within one rigid body is either always or never met)");
  if (is_cut_joint(loop.type)) {
    if (node.has("frame1")) loop.frame1 = read_frame(node.at("frame1"), context);
    if (node.has("frame2")) loop.frame2 = read_frame(node.at("frame2"), context);
    if (uses_axis(loop.type)) loop.axis = read_vector3(node.at("axis"), context);
    if (loop.type == LoopType::cut_universal) loop.axis2 = read_vector3(node.at("axis2"), context);
  } else {
    loop.point1 = read_optional_vector3(node, "point1", context);
    loop.point2 = read_optional_vector3(node, "point2", context);
    const JsonNode length = node.at("length");
    if (length.json().is_string() && length.json().get<std::string>() == "design")
      loop.length_from_design = true;
    else
      loop.length = read_number(length, context);
    if (loop.type == LoopType::rod) loop.mass = read_number(node.at("mass"), context);
  }
  return loop;
}

// Joints whose position coordinates are their own rates (q' = v), the only ones a driver may act on.
bool drivable(JointType type) {
  return type == JointType::revolute || type == JointType::prismatic || type == JointType::cylindrical ||
         type == JointType::universal || type == JointType::planar;
}

// Reads `index` (default 0) of a coordinate of `joint`, which must have `count` of them.
int read_coordinate_index(const JsonNode& node, const Joint& joint, int count, const char* what) {
  if (!node.has("index")) {
    if (count == 0) node.at("joint").fail("joint '" + joint.name + "' is fixed and has no coordinates");
    return 0;
  }
  const JsonNode index_node = node.at("index");
  const int index = index_node.as_index();
  if (index >= count)
    index_node.fail("index " + std::to_string(index) + " is out of range for joint '" + joint.name + "' (" +
                    joint_type_name(joint.type) + ", " + what + " = " + std::to_string(count) + ")");
  return index;
}

}  // namespace

std::vector<Loop> read_loops(const JsonNode& loops, const ReadContext& context) {
  NameTable names{"loop", "/loops", {}};
  std::vector<Loop> result;
  int index = 0;
  for (const JsonNode& node : loops.elements()) result.push_back(read_loop(node, index++, names, context));
  return result;
}

std::vector<Driver> read_drivers(const JsonNode& drivers, const ReadContext& context) {
  NameTable names{"driver", "/drivers", {}};
  std::vector<Driver> result;
  int position = 0;
  for (const JsonNode& node : drivers.elements()) {
    node.expect_object();
    node.allow_keys({"name", "joint", "index", "function"}, "a driver");
    Driver driver;
    driver.name = read_entry_name(node, names, position);
    driver.joint = resolve_name(node.at("joint"), context.joints);
    const Joint& joint = (*context.joint_list)[static_cast<size_t>(driver.joint)];
    if (!drivable(joint.type))
      node.at("joint").fail(
          "a driver acts on a revolute, prismatic, cylindrical, universal or planar joint, "
          "and joint '" +
          joint.name + "' is " + joint_type_name(joint.type));
    driver.index = read_coordinate_index(node, joint, joint_nq(joint.type), "nq");
    for (size_t k = 0; k < result.size(); ++k)
      if (result[k].joint == driver.joint && result[k].index == driver.index)
        node.at(node.has("index") ? "index" : "joint")
            .fail("coordinate " + std::to_string(driver.index) + " of joint '" + joint.name +
                  "' is already driven by driver '" + result[k].name + "' (/drivers/" + std::to_string(k) +
                  ")");
    driver.function = read_time_function(node.at("function"), context);
    result.push_back(driver);
    ++position;
  }
  return result;
}

std::vector<IndependentCoordinate> read_independent(const JsonNode& independent, const ReadContext& context,
                                                    const std::vector<Driver>& drivers) {
  std::vector<IndependentCoordinate> result;
  for (const JsonNode& node : independent.elements()) {
    node.expect_object();
    node.allow_keys({"joint", "index"}, "an independent coordinate");
    IndependentCoordinate c;
    c.joint = resolve_name(node.at("joint"), context.joints);
    const Joint& joint = (*context.joint_list)[static_cast<size_t>(c.joint)];
    c.index = read_coordinate_index(node, joint, joint_nv(joint.type), "nv");
    const JsonNode at = node.has("index") ? node.at("index") : node.at("joint");
    for (size_t k = 0; k < result.size(); ++k)
      if (result[k].joint == c.joint && result[k].index == c.index)
        at.fail("coordinate " + std::to_string(c.index) + " of joint '" + joint.name +
                "' is already named independent (/independent/" + std::to_string(k) + ")");
    for (const Driver& driver : drivers)
      if (driver.joint == c.joint && driver.index == c.index)
        at.fail("coordinate " + std::to_string(c.index) + " of joint '" + joint.name +
                "' is driven by driver '" + driver.name + "' and cannot be independent");
    result.push_back(c);
  }
  return result;
}

}  // namespace myriad
