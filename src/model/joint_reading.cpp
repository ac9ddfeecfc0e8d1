#include "model/joint_reading.hpp"

#include <algorithm>
#include <string>

namespace myriad {

namespace {

const std::vector<std::string>& joint_type_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (JointType type :
         {JointType::revolute, JointType::prismatic, JointType::cylindrical, JointType::universal,
          JointType::spherical, JointType::planar, JointType::free, JointType::fixed})
      list.push_back(joint_type_name(type));
    return list;
  }();
  return names;
}

bool uses_axis(JointType type) {
  return type == JointType::revolute || type == JointType::prismatic || type == JointType::cylindrical ||
         type == JointType::universal || type == JointType::planar;
}

// Keys depend on the type so that, e.g., an `axis` on a spherical joint is reported instead of ignored.
std::vector<std::string> joint_keys(JointType type) {
  std::vector<std::string> keys = {"name", "type", "parent", "child", "parent_frame", "child_frame"};
  if (uses_axis(type)) keys.push_back("axis");
  if (type == JointType::universal) keys.push_back("axis2");
  keys.insert(keys.end(), {"position", "velocity"});
  return keys;
}

// Identity rotations read as a quaternion (1, 0, 0, 0): the default pose of spherical and free joints.
std::vector<Number> default_position(JointType type) {
  std::vector<Number> position(static_cast<size_t>(joint_nq(type)));
  if (type == JointType::spherical) position[0].value = 1.0;
  if (type == JointType::free) position[3].value = 1.0;
  return position;
}

// "position coordinate" or "position coordinates", to follow the count in "expected an array of N ...".
std::string coordinate_noun(int count, const char* what) {
  return std::string(what) + (count == 1 ? "" : "s");
}

const char* const kRotationForms = "{\"axis\", \"angle\"}, {\"rpy\"}, {\"quaternion\"}, {\"matrix\"}";

Joint read_joint(const JsonNode& node, int file_index, ReadContext& context) {
  node.expect_object();
  Joint joint;
  joint.file_index = file_index;
  joint.type = static_cast<JointType>(read_choice(node.at("type"), joint_type_names(), "joint type"));
  const std::string type_name = joint_type_name(joint.type);
  node.allow_keys(joint_keys(joint.type), "a " + type_name + " joint");
  joint.name = read_entry_name(node, context.joints, file_index);

  joint.parent = resolve_name(node.at("parent"), context.bodies, true);
  const JsonNode child = node.at("child");
  if (child.json() == "ground")
    child.fail("the child of a joint must be a body, not ground (ground is the root)");
  joint.child = resolve_name(child, context.bodies);
  if (joint.child == joint.parent) child.fail("joint '" + joint.name + "' connects a body to itself");

  if (node.has("parent_frame")) joint.parent_frame = read_frame(node.at("parent_frame"), context);
  if (node.has("child_frame")) joint.child_frame = read_frame(node.at("child_frame"), context);
  if (uses_axis(joint.type)) joint.axis = read_vector3(node.at("axis"), context);
  if (joint.type == JointType::universal) joint.axis2 = read_vector3(node.at("axis2"), context);

  const int nq = joint_nq(joint.type), nv = joint_nv(joint.type);
  const std::string per_type = " of a " + type_name + " joint";
  joint.initial_position = node.has("position")
                               ? read_numbers(node.at("position"), static_cast<size_t>(nq),
                                              coordinate_noun(nq, "position coordinate") + per_type, context)
                               : default_position(joint.type);
  joint.initial_velocity = node.has("velocity")
                               ? read_numbers(node.at("velocity"), static_cast<size_t>(nv),
                                              coordinate_noun(nv, "velocity coordinate") + per_type, context)
                               : std::vector<Number>(static_cast<size_t>(nv));
  return joint;
}

}  // namespace

Rotation read_rotation(const JsonNode& node, const ReadContext& context) {
  node.expect_object();
  Rotation rotation;
  std::vector<std::string> forms;
  for (const auto& member : node.members()) {
    const std::string& key = member.first;
    if (key != "axis" && key != "angle" && key != "rpy" && key != "quaternion" && key != "matrix")
      member.second.fail("unknown rotation type '" + key + "' (a rotation is one of: " + kRotationForms +
                         ")");
    const std::string form = key == "angle" ? "axis" : key;
    if (std::find(forms.begin(), forms.end(), form) == forms.end()) forms.push_back(form);
  }
  if (forms.empty()) node.fail(std::string("empty rotation (a rotation is one of: ") + kRotationForms + ")");
  if (forms.size() > 1)
    node.fail("a rotation gives exactly one of " + std::string(kRotationForms) + ", got '" + forms[0] +
              "' and '" + forms[1] + "'");
  if (forms[0] == "axis") {
    rotation.kind = Rotation::Kind::axis_angle;
    rotation.axis = read_vector3(node.at("axis"), context);
    rotation.angle = read_number(node.at("angle"), context);
  } else if (forms[0] == "rpy") {
    rotation.kind = Rotation::Kind::rpy;
    rotation.rpy = read_vector3(node.at("rpy"), context);
  } else if (forms[0] == "quaternion") {
    rotation.kind = Rotation::Kind::quaternion;
    const std::vector<Number> q = read_numbers(node.at("quaternion"), 4, "numbers (w, x, y, z)", context);
    for (size_t i = 0; i < 4; ++i) rotation.quaternion[i] = q[i];
  } else {
    rotation.kind = Rotation::Kind::matrix;
    const std::vector<JsonNode> rows = node.at("matrix").elements(3, "rows");
    for (size_t i = 0; i < 3; ++i) {
      const std::vector<Number> row = read_numbers(rows[i], 3, "numbers", context);
      for (size_t j = 0; j < 3; ++j) rotation.matrix[3 * i + j] = row[j];
    }
  }
  return rotation;
}

Frame read_frame(const JsonNode& node, const ReadContext& context) {
  node.allow_keys({"origin", "rotation"}, "a frame");
  Frame frame;
  frame.origin = read_optional_vector3(node, "origin", context);
  if (node.has("rotation")) frame.rotation = read_rotation(node.at("rotation"), context);
  return frame;
}

std::vector<Joint> read_joints(const JsonNode& joints, ReadContext& context) {
  std::vector<Joint> result;
  int file_index = 0;
  for (const JsonNode& node : joints.elements()) result.push_back(read_joint(node, file_index++, context));
  return result;
}

}  // namespace myriad
