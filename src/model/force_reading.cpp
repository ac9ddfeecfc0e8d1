#include "model/force_reading.hpp"

#include <cmath>
#include <string>
#include <tuple>

#include "model/joint_reading.hpp"
#include "model/model_limits.hpp"
#include "model/profile_file.hpp"
#include "model/road_packing.hpp"
#include "tire/tir_file.hpp"

namespace myriad {

namespace {

// Required and optional coefficient keys of each kind, in TimeFunction::Kind order.
struct TimeFunctionKeys {
  const char* type;
  std::vector<std::string> required, optional;
};

const std::vector<TimeFunctionKeys>& time_function_keys() {
  static const std::vector<TimeFunctionKeys> kinds = {
      {"constant", {"value"}, {}},
      {"step", {"t0", "before", "after"}, {}},
      {"ramp", {"t0", "slope"}, {"offset"}},
      {"sine", {"amplitude", "frequency"}, {"phase", "offset"}},
      {"smooth_step", {"t0", "t1", "from", "to"}, {}},
      {"half_sine_bump", {"t0", "duration", "height"}, {}},
      {"table", {"points"}, {}},
      {"input", {"input"}, {"gain"}},
      {"iso8608_road",
       {"speed"},
       {"class", "class_value", "gd_n0", "distance", "n_min", "n_max", "harmonics", "seed", "track", "coherence",
        "fade_in", "vary_by_instance"}},
      {"haversine_bump", {"t0", "duration", "height"}, {}},
      {"sine_sweep", {"amplitude", "f0", "f1", "t0", "duration"}, {}},
      {"velocity_sweep", {"velocity", "f0", "f1", "t0", "duration"}, {}},
      {"profile", {"file", "speed"}, {"distance"}},
      {"cylinder_bump", {"t0", "speed", "radius", "tire_radius"}, {}},
  };
  return kinds;
}

Number* coefficient(TimeFunction& f, const std::string& key) {
  if (key == "t0") return &f.t0;
  if (key == "t1") return &f.t1;
  if (key == "value") return &f.value;
  if (key == "before") return &f.before;
  if (key == "after") return &f.after;
  if (key == "slope") return &f.slope;
  if (key == "offset") return &f.offset;
  if (key == "amplitude") return &f.amplitude;
  if (key == "frequency") return &f.frequency;
  if (key == "phase") return &f.phase;
  if (key == "from") return &f.from;
  if (key == "to") return &f.to;
  if (key == "duration") return &f.duration;
  if (key == "height") return &f.height;
  if (key == "f0") return &f.f0;
  if (key == "f1") return &f.f1;
  if (key == "velocity") return &f.velocity;
  if (key == "speed") return &f.speed;
  if (key == "radius") return &f.radius;
  if (key == "tire_radius") return &f.tire_radius;
  return nullptr;
}

// At least two [x, y] pairs (a time function's points, a force table).
std::vector<std::array<Number, 2>> read_point_table(const JsonNode& points, const std::string& what,
                                                    const ReadContext& context) {
  const std::vector<JsonNode> rows = points.elements();
  if (rows.size() < 2) points.fail("a table needs at least 2 points, got " + std::to_string(rows.size()));
  std::vector<std::array<Number, 2>> table;
  for (const JsonNode& row : rows) {
    const std::vector<Number> pair = read_numbers(row, 2, what, context);
    table.push_back({pair[0], pair[1]});
  }
  return table;
}

// An end of a tsda: body, point and, for an end on ground only, its motion.
BodyPoint read_end(const JsonNode& node, const std::string& suffix, const ReadContext& context) {
  BodyPoint end;
  const JsonNode body = node.at("body" + suffix);
  end.body = resolve_name(body, context.bodies, true);
  end.point = read_optional_vector3(node, "point" + suffix, context);
  const std::string motion_key = "motion" + suffix;
  if (node.has(motion_key)) {
    const JsonNode motion = node.at(motion_key);
    if (end.body >= 0)
      motion.fail(motion_key + " is only allowed for an end on ground, and body" + suffix + " is '" +
                  body.as_string() + "'");
    motion.allow_keys({"direction", "function"}, "a ground motion");
    end.moves = true;
    end.motion_direction = read_vector3(motion.at("direction"), context);
    end.motion = read_time_function(motion.at("function"), context);
  }
  return end;
}

// A bushing's bodies, frames (default: the body frame) and six stiffnesses and dampings (default 0).
void read_bushing(const JsonNode& node, ForceElement& force, const ReadContext& context) {
  force.end1.body = resolve_name(node.at("body1"), context.bodies, true);
  force.end2.body = resolve_name(node.at("body2"), context.bodies, true);
  if (force.end1.body == force.end2.body)
    node.at("body2").fail("a bushing joins two different bodies, and both ends are on '" +
                          node.at("body1").as_string() + "'");
  if (node.has("frame1")) force.frame1 = read_frame(node.at("frame1"), context);
  if (node.has("frame2")) force.frame2 = read_frame(node.at("frame2"), context);
  const char* what = "numbers [x, y, z, rx, ry, rz] (N/m, N m/rad; damping N s/m, N m s/rad)";
  for (const auto& [key, target] : {std::make_pair("stiffness", &force.bushing_stiffness),
                                    std::make_pair("damping", &force.bushing_damping)}) {
    if (!node.has(key)) continue;
    const std::vector<Number> values = read_numbers(node.at(key), 6, what, context);
    for (int i = 0; i < 6; ++i) (*target)[static_cast<size_t>(i)] = values[static_cast<size_t>(i)];
  }
}

// A handling tire (dynamics/tire_force.hpp): its wheel, centre and spin axis, the `.tir` file it reads (a PAC2002 /
// MF 5.2 Magic Formula or a FIALA file, by its [MODEL] PROPERTY_FILE_FORMAT), the radius (default the file's
// UNLOADED_RADIUS), the vertical stiffness and damping, the road's height function and v0.
void read_tire(const JsonNode& node, ForceElement& force, const ReadContext& context) {
  const JsonNode wheel = node.at("wheel");
  force.end1.body = resolve_name(wheel, context.bodies, true);
  if (force.end1.body < 0) wheel.fail("a tire sits on a wheel body, not on ground");
  force.end1.point = read_optional_vector3(node, "center", context);
  if (node.has("axis")) {
    force.tire_axis = read_vector3(node.at("axis"), context);
  } else {
    force.tire_axis[1].value = 1.0;  // the wheel frame's y, ISO's left
  }
  const JsonNode file = node.at("file");
  force.tire_file = resolve_beside(node.file(), file.as_string());
  double file_radius = 0.0;
  try {
    const std::string text = read_tir_text(force.tire_file);
    const std::string format = tir_property_format(text);
    if (format == "FIALA") {
      const FialaParameters p = parse_fiala_tir(text, force.tire_file);
      force.tire_formula = TireFormula::fiala;
      force.tire_coefficients = {p.unloaded_radius, p.width, p.c_slip, p.c_alpha, p.u_min, p.u_max};
      file_radius = p.unloaded_radius;
    } else {
      const TirCoefficients p = parse_tir(text, force.tire_file);
      force.tire_formula = TireFormula::magic_formula;
      force.tire_coefficients.assign(p.begin(), p.end());
      file_radius = p[kTirUnloadedRadius];
    }
  } catch (const TirFileError& error) {
    file.fail(std::string("tire file: ") + error.what());
  }
  force.free_length = read_optional_number(node, "radius", file_radius, context);
  force.stiffness = read_number(node.at("stiffness"), context);
  force.damping = read_optional_number(node, "damping", 0.0, context);
  force.tire_speed = read_optional_number(node, "min_speed", 1.0, context);
  if (node.has("road")) {
    force.end1.moves = true;
    force.end1.motion_direction[2].value = 1.0;
    force.end1.motion = read_time_function(node.at("road"), context);
  }
}

// The joint a rsda or joint_actuator acts on.
int read_joint_reference(const JsonNode& node, const ReadContext& context) {
  return resolve_name(node.at("joint"), context.joints);
}

ForceElement read_force(const JsonNode& node, int index, ReadContext& context) {
  node.expect_object();
  ForceElement force;
  force.type =
      static_cast<ForceType>(
          read_choice(node.at("type"), {"tsda", "rsda", "joint_actuator", "bushing", "tire"}, "force type"));
  switch (force.type) {
    case ForceType::tsda:
      node.allow_keys({"name", "type", "body1", "point1", "body2", "point2", "stiffness", "damping",
                       "free_length", "actuator", "motion1", "motion2", "acts", "spring_table", "damper_table",
                       "preload"},
                      "a tsda");
      break;
    case ForceType::rsda:
      node.allow_keys(
          {"name", "type", "joint", "stiffness", "damping", "zero_angle", "actuator", "initial_deflection"},
          "a rsda");
      break;
    case ForceType::joint_actuator:
      node.allow_keys({"name", "type", "joint", "index", "function"}, "a joint_actuator");
      break;
    case ForceType::bushing:
      node.allow_keys({"name", "type", "body1", "frame1", "body2", "frame2", "stiffness", "damping"}, "a bushing");
      break;
    case ForceType::tire:
      node.allow_keys({"name", "type", "wheel", "center", "axis", "file", "radius", "stiffness", "damping",
                       "min_speed", "road"},
                      "a tire");
      break;
  }
  force.name = read_entry_name(node, context.forces, index);
  if (force.type == ForceType::bushing) {
    read_bushing(node, force, context);
    return force;
  }
  if (force.type == ForceType::tire) {
    read_tire(node, force, context);
    return force;
  }

  if (force.type == ForceType::tsda) {
    force.end1 = read_end(node, "1", context);
    force.end2 = read_end(node, "2", context);
    if (node.has("acts"))
      force.acts = static_cast<TsdaActs>(read_choice(node.at("acts"), {"both", "compression", "tension"}, "acts"));
    for (const auto& [table_key, linear_key, what] :
         {std::make_tuple("spring_table", "stiffness", "numbers [l - l0, force]"),
          std::make_tuple("damper_table", "damping", "numbers [dl/dt, force]")}) {
      if (!node.has(table_key)) continue;
      if (node.has(linear_key))
        node.at(table_key).fail(std::string("give ") + linear_key + " or " + table_key + ", not both");
      (std::string(table_key) == "spring_table" ? force.spring_table : force.damper_table) =
          read_point_table(node.at(table_key), what, context);
    }
  } else {
    force.joint = read_joint_reference(node, context);
  }
  const Joint joint = force.joint >= 0 ? (*context.joint_list)[force.joint] : Joint{};
  if (force.type == ForceType::rsda && joint.type != JointType::revolute)
    node.at("joint").fail("a rsda acts on a revolute joint, and joint '" + joint.name + "' is " +
                          joint_type_name(joint.type));
  if (force.type != ForceType::joint_actuator) {
    force.stiffness = read_optional_number(node, "stiffness", 0.0, context);
    force.damping = read_optional_number(node, "damping", 0.0, context);
    if (force.type == ForceType::tsda) {
      force.free_length = read_optional_number(node, "free_length", 0.0, context);
      force.preload = read_optional_number(node, "preload", 0.0, context);
    }
    if (force.type == ForceType::rsda)
      force.zero_angle = read_optional_number(node, "zero_angle", 0.0, context);
    force.has_actuator = node.has("actuator");
    if (force.has_actuator) force.actuator = read_time_function(node.at("actuator"), context, true);
  }
  if (force.type == ForceType::rsda && node.has("initial_deflection"))
    force.shortest_initial_deflection =
        read_choice(node.at("initial_deflection"), {"shortest", "literal"}, "initial_deflection") == 0;
  if (force.type == ForceType::joint_actuator) {
    if (node.has("index")) {
      const JsonNode index_node = node.at("index");
      force.index = index_node.as_index();
      const int nv = joint_nv(joint.type);
      if (force.index >= nv)
        index_node.fail("index " + std::to_string(force.index) + " is out of range for joint '" + joint.name +
                        "' (" + joint_type_name(joint.type) + ", nv = " + std::to_string(nv) + ")");
    } else if (joint_nv(joint.type) == 0) {
      node.at("joint").fail("joint '" + joint.name + "' is fixed and has no coordinates to actuate");
    }
    force.has_actuator = true;
    force.actuator = read_time_function(node.at("function"), context, true);
  }
  return force;
}

// An ISO 8608 road (docs/model-format.md, "Roads"): the roughness as a class or as G_d(n0), the rest numbers with
// the standard's band 0.011-2.83 cycles/m and 64 harmonics by default.
void read_road(const JsonNode& node, TimeFunction& f, const ReadContext& context) {
  const bool has_class = node.has("class"), has_value = node.has("gd_n0");
  if (has_class == has_value)
    node.fail(has_class ? "give class or gd_n0, not both" : "an iso8608_road needs class (A-H) or gd_n0 (m^3)");
  if (has_class) {
    const JsonNode class_node = node.at("class");
    const int letter = read_choice(class_node, {"A", "B", "C", "D", "E", "F", "G", "H"}, "ISO 8608 road class");
    int bound = 0;
    if (node.has("class_value")) bound = read_choice(node.at("class_value"), {"lower", "mean", "upper"}, "class_value") - 1;
    const double value = iso8608_class_value(static_cast<char>('A' + letter), bound);
    if (!std::isfinite(value))
      node.at("class_value").fail(std::string("ISO 8608 gives class ") + static_cast<char>('A' + letter) + " no " +
                                  (bound < 0 ? "lower" : "upper") + " bound");
    f.gd_n0 = literal_number(value);
  } else {
    if (node.has("class_value")) node.at("class_value").fail("class_value goes with class, not with gd_n0");
    f.gd_n0 = read_number(node.at("gd_n0"), context);
  }
  f.speed = read_number(node.at("speed"), context);
  f.distance = read_optional_number(node, "distance", 0.0, context);
  f.n_min = read_optional_number(node, "n_min", 0.011, context);
  f.n_max = read_optional_number(node, "n_max", 2.83, context);
  f.seed = read_optional_number(node, "seed", 0.0, context);
  f.coherence = read_optional_number(node, "coherence", 0.0, context);
  f.fade_in = read_optional_number(node, "fade_in", 0.0, context);
  f.harmonics = 64;
  if (node.has("harmonics")) {
    const JsonNode harmonics = node.at("harmonics");
    f.harmonics = harmonics.as_index();
    if (f.harmonics < 1 || f.harmonics > kMaxRoadHarmonics)
      harmonics.fail("harmonics must be from 1 to " + std::to_string(kMaxRoadHarmonics) + ", got " +
                     std::to_string(f.harmonics));
  }
  if (node.has("track")) f.track = read_choice(node.at("track"), {"left", "right"}, "track");
  if (node.has("vary_by_instance")) {
    const JsonNode vary = node.at("vary_by_instance");
    if (!vary.json().is_boolean()) vary.fail_type("true or false");
    f.vary_by_instance = vary.json().get<bool>();
  }
}

}  // namespace

TimeFunction read_time_function(const JsonNode& node, const ReadContext& context, bool allow_input) {
  node.expect_object();
  std::vector<std::string> types;
  for (const TimeFunctionKeys& kind : time_function_keys()) types.push_back(kind.type);
  TimeFunction f;
  const int kind = read_choice(node.at("type"), types, "time function type");
  f.kind = static_cast<TimeFunction::Kind>(kind);
  const TimeFunctionKeys& keys = time_function_keys()[static_cast<size_t>(kind)];
  std::vector<std::string> allowed = {"type"};
  allowed.insert(allowed.end(), keys.required.begin(), keys.required.end());
  allowed.insert(allowed.end(), keys.optional.begin(), keys.optional.end());
  node.allow_keys(allowed, std::string("a ") + keys.type + " function");

  if (f.kind == TimeFunction::Kind::input) {
    if (!allow_input)
      node.at("type").fail("an input function is only allowed as a force's actuator or a joint_actuator's function");
    const JsonNode input = node.at("input");
    f.input = resolve_name(input, context.inputs);
    if (node.has("gain")) {
      const JsonNode gain = node.at("gain");
      if (gain.json().is_string()) gain.fail("gain is a plain number (parameters cannot set it)");
      f.gain = gain.as_plain_number();
    }
    const double value = f.gain * (*context.input_list)[static_cast<size_t>(f.input)].value;
    if (!std::isfinite(value)) node.fail("gain * the input's default is not finite");
    f.value = literal_number(value);
    return f;
  }
  if (f.kind == TimeFunction::Kind::table) {
    f.table = read_point_table(node.at("points"), "numbers [t, value]", context);
    return f;
  }
  if (f.kind == TimeFunction::Kind::iso8608_road) {
    read_road(node, f, context);
    return f;
  }
  if (f.kind == TimeFunction::Kind::profile) {
    const JsonNode file = node.at("file");
    f.file = resolve_beside(node.file(), file.as_string());
    f.table = read_profile_file(f.file, file);
    f.speed = read_number(node.at("speed"), context);
    f.distance = read_optional_number(node, "distance", 0.0, context);
    return f;
  }
  for (const std::string& key : keys.required) *coefficient(f, key) = read_number(node.at(key), context);
  for (const std::string& key : keys.optional)
    *coefficient(f, key) = read_optional_number(node, key, 0.0, context);
  return f;
}

std::vector<ForceElement> read_forces(const JsonNode& forces, ReadContext& context) {
  std::vector<ForceElement> result;
  int index = 0;
  for (const JsonNode& node : forces.elements()) result.push_back(read_force(node, index++, context));
  return result;
}

}  // namespace myriad
