#include "model/output_reading.hpp"

#include <string>

namespace myriad {

namespace {

const std::vector<std::string>& output_type_names() {  // OutputKind order
  static const std::vector<std::string> names = {"joint_coordinate", "joint_velocity",   "joint_acceleration",
                                                 "body_position",    "body_orientation", "body_velocity",
                                                 "spring_length",    "spring_force",     "kinetic_energy",
                                                 "potential_energy", "total_energy",     "damper_force",
                                                 "bushing_force",    "tire_force",       "tire_slip"};
  return names;
}

// Output::component codes: the position in these lists (see model.hpp).
const std::vector<std::string> kPositionComponents = {"x", "y", "z"};
const std::vector<std::string> kOrientationComponents = {"qw", "qx", "qy", "qz"};
const std::vector<std::string> kVelocityComponents = {"wx", "wy", "wz", "vx", "vy", "vz"};
const std::vector<std::string> kBushingComponents = {"fx", "fy", "fz", "mx", "my", "mz"};
const std::vector<std::string> kTireForceComponents = {"fx", "fy", "fz", "mz"};
const std::vector<std::string> kTireSlipComponents = {"kappa", "alpha", "camber"};

std::vector<std::string> output_keys(OutputKind kind) {
  switch (kind) {
    case OutputKind::joint_coordinate:
    case OutputKind::joint_velocity:
    case OutputKind::joint_acceleration:
      return {"name", "type", "joint", "index"};
    case OutputKind::body_position:
    case OutputKind::body_velocity:
      return {"name", "type", "body", "point", "component"};
    case OutputKind::body_orientation:
      return {"name", "type", "body", "component"};
    case OutputKind::spring_length:
    case OutputKind::spring_force:
    case OutputKind::damper_force:
      return {"name", "type", "force"};
    case OutputKind::bushing_force:
    case OutputKind::tire_force:
    case OutputKind::tire_slip:
      return {"name", "type", "force", "component"};
    case OutputKind::kinetic_energy:
    case OutputKind::potential_energy:
    case OutputKind::total_energy:
      return {"name", "type"};
  }
  return {};
}

// Output names are written unquoted as CSV fields: columns of the result's header `instance,time,<names>` and
// values of the summary's and KPIs' `signal` column. So a name may not hold what would split or quote a field
// (a comma, a double quote), end a row (a line break or any other control character), be trimmed away by a
// reader (leading or trailing spaces), or repeat one of the result's own columns.
void check_output_name(const JsonNode& node, const std::string& name) {
  const std::string shown = "output name " + node.json().dump();  // JSON-escaped, so control characters show
  for (const char c : name) {
    const unsigned char byte = static_cast<unsigned char>(c);
    if (c == ',' || c == '"' || byte < 0x20 || byte == 0x7F)
      node.fail(shown + " contains " +
                (c == ','   ? "a comma"
                 : c == '"' ? "a double quote"
                            : "a control character") +
                " (output names are CSV columns: no commas, double quotes or control characters)");
  }
  if (name.front() == ' ' || name.back() == ' ')
    node.fail(shown + " begins or ends with a space (output names are CSV columns)");
  if (name == "instance" || name == "time")
    node.fail(shown + " is a column the result CSV already has (instance, time)");
}

void read_joint_signal(const JsonNode& node, Output& output, const ReadContext& context) {
  output.joint = resolve_name(node.at("joint"), context.joints);
  const Joint& joint = (*context.joint_list)[static_cast<size_t>(output.joint)];
  const bool positions = output.kind == OutputKind::joint_coordinate;
  const int count = positions ? joint_nq(joint.type) : joint_nv(joint.type);
  if (count == 0) node.at("joint").fail("joint '" + joint.name + "' is fixed and has no coordinates");
  if (!node.has("index")) return;
  const JsonNode index = node.at("index");
  output.index = index.as_index();
  if (output.index >= count)
    index.fail("index " + std::to_string(output.index) + " is out of range for joint '" + joint.name + "' (" +
               joint_type_name(joint.type) + (positions ? ", nq = " : ", nv = ") + std::to_string(count) +
               ")");
}

void read_body_signal(const JsonNode& node, Output& output, const ReadContext& context) {
  const JsonNode body = node.at("body");
  if (body.json() == "ground") body.fail("ground does not move; name a body");
  output.body = resolve_name(body, context.bodies);
  if (output.kind != OutputKind::body_orientation)
    output.point = read_optional_vector3(node, "point", context);
  const std::vector<std::string>& components = output.kind == OutputKind::body_position ? kPositionComponents
                                               : output.kind == OutputKind::body_orientation
                                                   ? kOrientationComponents
                                                   : kVelocityComponents;
  output.component = read_choice(node.at("component"), components,
                                 output_type_names()[static_cast<size_t>(output.kind)] + " component");
}

void read_spring_signal(const JsonNode& node, Output& output, const ReadContext& context) {
  const JsonNode force_node = node.at("force");
  output.force = resolve_name(force_node, context.forces);
  const ForceElement& force = (*context.force_list)[static_cast<size_t>(output.force)];
  if (output.kind == OutputKind::spring_length && force.type != ForceType::tsda)
    force_node.fail("spring_length needs a tsda, and force '" + force.name + "' is not one");
  if ((output.kind == OutputKind::spring_force || output.kind == OutputKind::damper_force) &&
      (force.type == ForceType::joint_actuator || force.type == ForceType::bushing || force.type == ForceType::tire))
    force_node.fail(output_type_names()[static_cast<size_t>(output.kind)] + " needs a tsda or a rsda, and force '" +
                    force.name + "' is a " + force_type_name(force.type));
  if (output.kind == OutputKind::bushing_force) {
    if (force.type != ForceType::bushing)
      force_node.fail("bushing_force needs a bushing, and force '" + force.name + "' is not one");
    output.component = read_choice(node.at("component"), kBushingComponents, "bushing_force component");
  }
  if (output.kind == OutputKind::tire_force || output.kind == OutputKind::tire_slip) {
    const std::string type = output_type_names()[static_cast<size_t>(output.kind)];
    if (force.type != ForceType::tire)
      force_node.fail(type + " needs a tire, and force '" + force.name + "' is not one");
    output.component = read_choice(node.at("component"), output.kind == OutputKind::tire_force
                                                             ? kTireForceComponents
                                                             : kTireSlipComponents,
                                   type + " component");
  }
}

}  // namespace

std::vector<Output> read_outputs(const JsonNode& outputs, const ReadContext& context) {
  std::vector<Output> result;
  NameTable names{"output", "/outputs", {}};
  int index = 0;
  for (const JsonNode& node : outputs.elements()) {
    node.expect_object();
    Output output;
    output.kind = static_cast<OutputKind>(read_choice(node.at("type"), output_type_names(), "output type"));
    node.allow_keys(output_keys(output.kind),
                    "a " + output_type_names()[static_cast<size_t>(output.kind)] + " output");
    output.name = read_entry_name(node, names, index++);
    check_output_name(node.at("name"), output.name);
    switch (output.kind) {
      case OutputKind::joint_coordinate:
      case OutputKind::joint_velocity:
      case OutputKind::joint_acceleration:
        read_joint_signal(node, output, context);
        break;
      case OutputKind::body_position:
      case OutputKind::body_orientation:
      case OutputKind::body_velocity:
        read_body_signal(node, output, context);
        break;
      case OutputKind::spring_length:
      case OutputKind::spring_force:
      case OutputKind::damper_force:
      case OutputKind::bushing_force:
      case OutputKind::tire_force:
      case OutputKind::tire_slip:
        read_spring_signal(node, output, context);
        break;
      default:
        break;  // energies: no keys beyond name and type
    }
    result.push_back(output);
  }
  return result;
}

}  // namespace myriad
