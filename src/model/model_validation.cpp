#include "model/model_validation.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <tuple>

#include "model/json_reader.hpp"
#include "model/model_geometry.hpp"
#include "model/model_limits.hpp"
#include "model/model_numbers.hpp"
#include "model/model_pointers.hpp"
#include "model/number_text.hpp"

namespace myriad {

namespace {

using Numbers = std::vector<const Number*>;

template <size_t N>
Numbers numbers_of(const std::array<Number, N>& values) {
  Numbers result;
  for (const Number& n : values) result.push_back(&n);
  return result;
}

Numbers numbers_of(const std::vector<Number>& values) {
  Numbers result;
  for (const Number& n : values) result.push_back(&n);
  return result;
}

// Throws the ModelErrors of one validation run: file, label and the parameter names behind a field.
class Reporter {
 public:
  Reporter(const Model& model, const std::string& label) : model_(model), label_(label) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& reason,
                         const Numbers& sources) const {
    std::vector<std::string> names;
    const auto add = [&](int parameter) {
      if (parameter < 0 || parameter >= static_cast<int>(model_.parameters.size())) return;
      const std::string name = "'" + model_.parameters[static_cast<size_t>(parameter)].name + "'";
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    };
    for (const Number* n : sources) {
      add(n->parameter);
      for (const ParameterTerm& t : n->terms) add(t.parameter);
    }
    std::string note;
    if (!names.empty())
      note = (names.size() == 1 ? " (from parameter " : " (from parameters ") + join_names(names) + ")";
    throw ModelError(model_.source_file, pointer, (label_.empty() ? "" : label_ + ": ") + reason + note);
  }

  void require_finite(const std::string& pointer, const Numbers& numbers) const {
    for (const Number* n : numbers)
      if (!std::isfinite(n->value))
        fail(pointer, "number is not finite (got " + number_text(n->value) + ")", {n});
  }

  // A point or length of the geometry: finite and within kMaxModelLength (model_limits.hpp).
  void require_length(const std::string& pointer, const Numbers& numbers) const {
    require_finite(pointer, numbers);
    for (const Number* n : numbers)
      if (std::abs(n->value) > kMaxModelLength)
        fail(pointer, "coordinate " + number_text(n->value) + " m is beyond the limit of " +
                          number_text(kMaxModelLength) + " m (past it, double arithmetic loses the geometry's digits)",
             {n});
  }

  void require_nonzero(const std::string& pointer, const Vector3& v, const std::string& what) const {
    require_finite(pointer, numbers_of(v));
    // Not the norm: that of [1e-170, 0, 0] underflows to 0 although the direction is well defined.
    if (largest_magnitude(v) == 0.0) fail(pointer, what + " must be non-zero", numbers_of(v));
  }

 private:
  const Model& model_;
  std::string label_;
};

// At least 2 points, the first entries strictly increasing (`what`, `symbol`: how the messages name them).
void check_point_table(const Reporter& report, const std::vector<std::array<Number, 2>>& table,
                       const std::string& pointer, const std::string& what, const std::string& symbol) {
  if (table.size() < 2)
    report.fail(pointer, "a table needs at least 2 points, got " + std::to_string(table.size()), {});
  for (size_t i = 1; i < table.size(); ++i)
    if (!(table[i][0].value > table[i - 1][0].value))
      report.fail(pointer + "/" + std::to_string(i) + "/0",
                  "table " + what + " must be strictly increasing (" + symbol + " = " +
                      number_text(table[i][0].value) + " follows " + symbol + " = " +
                      number_text(table[i - 1][0].value) + ")",
                  {&table[i - 1][0], &table[i][0]});
}

Numbers time_function_numbers(const TimeFunction& f) {
  Numbers result = {&f.t0,        &f.t1,        &f.value,  &f.before,   &f.after, &f.slope,    &f.offset,
                    &f.amplitude, &f.frequency, &f.phase,  &f.from,     &f.to,    &f.duration, &f.height,
                    &f.gd_n0,     &f.speed,     &f.distance, &f.n_min, &f.n_max, &f.seed,     &f.coherence,
                    &f.fade_in,   &f.f0,        &f.f1,       &f.velocity, &f.radius, &f.tire_radius};
  for (const auto& point : f.table)
    for (const Number& n : point) result.push_back(&n);
  return result;
}

// An ISO 8608 road's numbers, any of which a parameter may set.
void check_road(const Reporter& report, const TimeFunction& f, const std::string& pointer) {
  if (!(f.gd_n0.value > 0.0))
    report.fail(pointer + "/gd_n0", "gd_n0 must be positive, got " + number_text(f.gd_n0.value), {&f.gd_n0});
  if (!(f.speed.value >= 0.0))
    report.fail(pointer + "/speed", "speed must not be negative, got " + number_text(f.speed.value), {&f.speed});
  if (!(f.n_min.value > 0.0))
    report.fail(pointer + "/n_min", "n_min must be positive, got " + number_text(f.n_min.value), {&f.n_min});
  if (!(f.n_max.value > f.n_min.value))
    report.fail(pointer + "/n_max",
                "n_max must be greater than n_min (got n_min = " + number_text(f.n_min.value) +
                    ", n_max = " + number_text(f.n_max.value) + ")",
                {&f.n_min, &f.n_max});
  if (!(f.coherence.value >= 0.0 && f.coherence.value <= 1.0))
    report.fail(pointer + "/coherence", "coherence must be in [0, 1], got " + number_text(f.coherence.value),
                {&f.coherence});
  if (!(f.fade_in.value >= 0.0))
    report.fail(pointer + "/fade_in", "fade_in must not be negative, got " + number_text(f.fade_in.value),
                {&f.fade_in});
  const double seed = f.seed.value;
  if (!(seed >= 0.0 && seed < 9007199254740992.0 && seed == std::floor(seed)))
    report.fail(pointer + "/seed", "seed must be a whole number from 0 to 2^53 - 1, got " + number_text(seed),
                {&f.seed});
}

void check_time_function(const Reporter& report, const TimeFunction& f, const std::string& pointer) {
  report.require_finite(pointer, time_function_numbers(f));
  switch (f.kind) {
    case TimeFunction::Kind::smooth_step:
      if (!(f.t1.value > f.t0.value))
        report.fail(pointer + "/t1",
                    "t1 must be greater than t0 (got t0 = " + number_text(f.t0.value) +
                        ", t1 = " + number_text(f.t1.value) + ")",
                    {&f.t0, &f.t1});
      break;
    case TimeFunction::Kind::sine_sweep:
    case TimeFunction::Kind::velocity_sweep:
      for (const auto& [key, n] : {std::make_pair("f0", &f.f0), std::make_pair("f1", &f.f1)})
        if (!(n->value > 0.0))
          report.fail(pointer + "/" + key, std::string(key) + " must be positive, got " + number_text(n->value), {n});
      [[fallthrough]];
    case TimeFunction::Kind::haversine_bump:
    case TimeFunction::Kind::half_sine_bump:
      if (!(f.duration.value > 0.0))
        report.fail(pointer + "/duration", "duration must be positive, got " + number_text(f.duration.value),
                    {&f.duration});
      break;
    case TimeFunction::Kind::table:
      check_point_table(report, f.table, pointer + "/points", "times", "t");
      break;
    case TimeFunction::Kind::iso8608_road:
      check_road(report, f, pointer);
      break;
    case TimeFunction::Kind::cylinder_bump:
      for (const auto& [key, n] : {std::make_pair("radius", &f.radius), std::make_pair("tire_radius", &f.tire_radius)})
        if (!(n->value > 0.0))
          report.fail(pointer + "/" + key, std::string(key) + " must be positive, got " + number_text(n->value), {n});
      [[fallthrough]];
    case TimeFunction::Kind::profile:
      if (!(f.speed.value > 0.0))
        report.fail(pointer + "/speed", "speed must be positive, got " + number_text(f.speed.value), {&f.speed});
      break;
    default:
      break;
  }
}

void check_rotation(const Reporter& report, const Rotation& r, const std::string& pointer) {
  switch (r.kind) {
    case Rotation::Kind::identity:
      break;
    case Rotation::Kind::axis_angle:
      report.require_nonzero(pointer + "/axis", r.axis, "rotation axis");
      report.require_finite(pointer + "/angle", {&r.angle});
      break;
    case Rotation::Kind::rpy:
      report.require_finite(pointer + "/rpy", numbers_of(r.rpy));
      break;
    case Rotation::Kind::quaternion: {
      report.require_finite(pointer + "/quaternion", numbers_of(r.quaternion));
      bool zero = true;
      for (const Number& n : r.quaternion) zero = zero && n.value == 0.0;
      if (zero) report.fail(pointer + "/quaternion", "quaternion must be non-zero", numbers_of(r.quaternion));
      break;
    }
    case Rotation::Kind::matrix: {
      const std::string at = pointer + "/matrix";
      report.require_finite(at, numbers_of(r.matrix));
      const Mat3<double> R = rotation_matrix(r);
      const Mat3<double> RRt = R * transpose(R);
      double error = 0.0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) error = std::max(error, std::abs(RRt.m[i][j] - (i == j ? 1.0 : 0.0)));
      if (error > 1e-9)
        report.fail(at,
                    "rotation matrix is not orthonormal (max |R R^T - I| = " + number_text(error) +
                        ", tolerance 1e-9)",
                    numbers_of(r.matrix));
      const double det = R.m[0][0] * (R.m[1][1] * R.m[2][2] - R.m[1][2] * R.m[2][1]) -
                         R.m[0][1] * (R.m[1][0] * R.m[2][2] - R.m[1][2] * R.m[2][0]) +
                         R.m[0][2] * (R.m[1][0] * R.m[2][1] - R.m[1][1] * R.m[2][0]);
      if (std::abs(det - 1.0) > 1e-9)
        report.fail(at,
                    "rotation matrix has determinant " + number_text(det) + " (a reflection); it must be +1",
                    numbers_of(r.matrix));
      break;
    }
  }
}

void check_frame(const Reporter& report, const Frame& frame, const std::string& pointer) {
  report.require_length(pointer + "/origin", numbers_of(frame.origin));
  check_rotation(report, frame.rotation, pointer + "/rotation");
}

void check_body(const Reporter& report, const Body& body, const std::string& pointer) {
  std::string reason = check_mass(body.mass.value);
  if (!reason.empty()) report.fail(pointer + "/mass", reason, {&body.mass});
  report.require_length(pointer + "/center_of_mass", numbers_of(body.center_of_mass));
  reason = check_inertia(inertia_matrix(body.inertia));
  if (!reason.empty()) report.fail(pointer + "/inertia", reason, numbers_of(body.inertia));
}

void check_joint(const Reporter& report, const Joint& joint, const std::string& pointer) {
  check_frame(report, joint.parent_frame, pointer + "/parent_frame");
  check_frame(report, joint.child_frame, pointer + "/child_frame");
  switch (joint.type) {
    case JointType::revolute:
    case JointType::prismatic:
    case JointType::cylindrical:
    case JointType::planar:
      report.require_nonzero(pointer + "/axis", joint.axis, "axis");
      break;
    case JointType::universal: {
      report.require_nonzero(pointer + "/axis", joint.axis, "axis");
      report.require_nonzero(pointer + "/axis2", joint.axis2, "axis2");
      const double cosine = dot(unit_vector3(joint.axis), unit_vector3(joint.axis2));
      if (!(std::abs(cosine) < 1e-9)) {
        Numbers sources = numbers_of(joint.axis);
        for (const Number& n : joint.axis2) sources.push_back(&n);
        report.fail(pointer + "/axis2",
                    "axis2 must be perpendicular to axis (|cos| = " + number_text(std::abs(cosine)) +
                        ", tolerance 1e-9)",
                    sources);
      }
      break;
    }
    default:
      break;
  }
  report.require_finite(pointer + "/position", numbers_of(joint.initial_position));
  report.require_finite(pointer + "/velocity", numbers_of(joint.initial_velocity));
  // The quaternion of a spherical joint is its whole position; a free joint's follows the translation.
  const size_t quaternion_start = joint.type == JointType::spherical
                                      ? 0
                                      : (joint.type == JointType::free ? 3 : joint.initial_position.size());
  if (quaternion_start + 4 <= joint.initial_position.size()) {
    Numbers quaternion;
    bool zero = true;
    for (size_t i = quaternion_start; i < quaternion_start + 4; ++i) {
      quaternion.push_back(&joint.initial_position[i]);
      zero = zero && joint.initial_position[i].value == 0.0;
    }
    if (zero)
      report.fail(pointer + "/position", "the initial quaternion (w, x, y, z) must be non-zero", quaternion);
  }
}

void check_end(const Reporter& report, const BodyPoint& end, const std::string& pointer,
               const std::string& suffix) {
  report.require_length(pointer + "/point" + suffix, numbers_of(end.point));
  if (!end.moves) return;
  report.require_nonzero(pointer + "/motion" + suffix + "/direction", end.motion_direction, "direction");
  check_time_function(report, end.motion, pointer + "/motion" + suffix + "/function");
}

void check_force(const Reporter& report, const Model& model, const ForceElement& force,
                 const std::string& pointer) {
  for (const auto& scalar :
       {std::make_pair("/stiffness", &force.stiffness), std::make_pair("/damping", &force.damping),
        std::make_pair("/free_length", &force.free_length), std::make_pair("/zero_angle", &force.zero_angle),
        std::make_pair("/preload", &force.preload)})
    report.require_finite(pointer + scalar.first, {scalar.second});
  if (force.has_actuator)
    check_time_function(report, force.actuator,
                        pointer + (force.type == ForceType::joint_actuator ? "/function" : "/actuator"));
  if (force.type == ForceType::bushing) {
    check_rotation(report, force.frame1.rotation, pointer + "/frame1/rotation");
    check_rotation(report, force.frame2.rotation, pointer + "/frame2/rotation");
    report.require_finite(pointer + "/frame1/origin", numbers_of(force.frame1.origin));
    report.require_finite(pointer + "/frame2/origin", numbers_of(force.frame2.origin));
    for (const auto& [key, values] : {std::make_pair("/stiffness", &force.bushing_stiffness),
                                      std::make_pair("/damping", &force.bushing_damping)})
      for (size_t i = 0; i < 6; ++i) {
        const Number& n = (*values)[i];
        report.require_finite(pointer + key + "/" + std::to_string(i), {&n});
        if (n.value < 0.0)
          report.fail(pointer + key + "/" + std::to_string(i),
                      std::string(key + 1) + " must not be negative, got " + number_text(n.value), {&n});
      }
    return;
  }
  if (force.type == ForceType::tire) {
    report.require_length(pointer + "/center", numbers_of(force.end1.point));
    report.require_nonzero(pointer + "/axis", force.tire_axis, "axis");
    for (const auto& [key, n, positive] : {std::make_tuple("/radius", &force.free_length, true),
                                           std::make_tuple("/stiffness", &force.stiffness, true),
                                           std::make_tuple("/damping", &force.damping, false),
                                           std::make_tuple("/min_speed", &force.tire_speed, true)}) {
      report.require_finite(pointer + key, {n});
      if (positive ? !(n->value > 0.0) : !(n->value >= 0.0))
        report.fail(pointer + key,
                    std::string(key + 1) + (positive ? " must be positive" : " must not be negative") + ", got " +
                        number_text(n->value),
                    {n});
    }
    if (force.end1.moves) check_time_function(report, force.end1.motion, pointer + "/road");
    return;
  }
  if (force.type != ForceType::tsda) return;
  for (const auto& [table, key, symbol] : {std::make_tuple(&force.spring_table, "/spring_table", "l - l0"),
                                           std::make_tuple(&force.damper_table, "/damper_table", "dl/dt")}) {
    if (table->empty()) continue;
    Numbers entries;
    for (const auto& point : *table)
      for (const Number& n : point) entries.push_back(&n);
    report.require_finite(pointer + key, entries);
    check_point_table(report, *table, pointer + key, "entries " + std::string(symbol), symbol);
  }
  check_end(report, force.end1, pointer, "1");
  check_end(report, force.end2, pointer, "2");
  const BodyPoint &a = force.end1, &b = force.end2;
  if (a.body == b.body && a.point[0].value == b.point[0].value && a.point[1].value == b.point[1].value &&
      a.point[2].value == b.point[2].value) {
    const std::string body = a.body < 0 ? "ground" : model.bodies[static_cast<size_t>(a.body)].name;
    Numbers sources = numbers_of(a.point);
    for (const Number& n : b.point) sources.push_back(&n);
    report.fail(pointer + "/point2",
                "the two ends of tsda '" + force.name + "' coincide on body '" + body +
                    "' (the spring length would be zero; the points must differ)",
                sources);
  }
}

void check_loop(const Reporter& report, const Loop& loop, const std::string& pointer) {
  switch (loop.type) {
    case LoopType::cut_spherical:
    case LoopType::cut_revolute:
    case LoopType::cut_universal:
    case LoopType::cut_planar_revolute:
      check_frame(report, loop.frame1, pointer + "/frame1");
      check_frame(report, loop.frame2, pointer + "/frame2");
      if (loop.type != LoopType::cut_spherical) report.require_nonzero(pointer + "/axis", loop.axis, "axis");
      if (loop.type == LoopType::cut_universal) report.require_nonzero(pointer + "/axis2", loop.axis2, "axis2");
      break;
    case LoopType::distance:
    case LoopType::rod:
      report.require_length(pointer + "/point1", numbers_of(loop.point1));
      report.require_length(pointer + "/point2", numbers_of(loop.point2));
      if (loop.length_from_design && !(std::isfinite(loop.length.value) && loop.length.value > 0.0)) {
        Numbers sources = numbers_of(loop.point1);
        for (const Number* n : numbers_of(loop.point2)) sources.push_back(n);
        report.fail(pointer + "/length",
                    "the design length (the points' distance with every joint at zero coordinates) is " +
                        number_text(loop.length.value) + ": the two points coincide there",
                    sources);
      }
      if (!(std::isfinite(loop.length.value) && loop.length.value > 0.0))
        report.fail(pointer + "/length",
                    "length must be positive and finite, got " + number_text(loop.length.value) +
                        " (the two points of a distance constraint may not coincide)",
                    {&loop.length});
      // A massless rod is a distance constraint: allowed, so that a study can scale the rods' masses to zero
      // (seed 001 Table 5's first row).
      if (loop.type == LoopType::rod && !(std::isfinite(loop.mass.value) && loop.mass.value >= 0.0))
        report.fail(pointer + "/mass", "rod mass must be zero or positive and finite, got " +
                                           number_text(loop.mass.value), {&loop.mass});
      break;
  }
}

}  // namespace

void validate_model_values(const Model& model, const std::string& label) {
  const Reporter report(model, label);
  for (const Parameter& p : model.parameters)
    if (!std::isfinite(p.value))
      report.fail("/parameters/" + json_pointer_token(p.name),
                  "parameter '" + p.name + "' is not finite (got " + number_text(p.value) + ")", {});
  report.require_finite("/gravity", numbers_of(model.gravity));
  for (size_t i = 0; i < model.bodies.size(); ++i)
    check_body(report, model.bodies[i], "/bodies/" + std::to_string(i));
  for (size_t i = 0; i < model.joints.size(); ++i)
    check_joint(report, model.joints[i], joint_pointer(model, static_cast<int>(i)));
  for (size_t i = 0; i < model.forces.size(); ++i)
    check_force(report, model, model.forces[i], force_pointer(static_cast<int>(i)));
  for (size_t i = 0; i < model.outputs.size(); ++i)
    report.require_length("/outputs/" + std::to_string(i) + "/point", numbers_of(model.outputs[i].point));
  for (size_t i = 0; i < model.loops.size(); ++i)
    check_loop(report, model.loops[i], loop_pointer(model, static_cast<int>(i)));
  for (size_t i = 0; i < model.drivers.size(); ++i)
    check_time_function(report, model.drivers[i].function, driver_pointer(static_cast<int>(i)) + "/function");
}

void validate_instance_values(const Model& literal_model, const std::string& instance_label) {
  validate_model_values(literal_model, instance_label);
}

void validate_instance_values(const Model& model, const std::vector<double>& parameter_values,
                              const std::string& instance_label) {
  if (parameter_values.size() != model.parameters.size())
    throw std::invalid_argument("validate_instance_values: expected " +
                                std::to_string(model.parameters.size()) + " parameter values, got " +
                                std::to_string(parameter_values.size()));
  // Like apply_parameters, but the Numbers keep their parameter index so that messages can name it.
  Model instance = model;
  for_each_number(instance, [&](Number& n) {
    if (depends_on_parameters(n)) n.value = number_value(n, parameter_values);
  });
  resolve_design_lengths(instance);
  for (size_t i = 0; i < instance.parameters.size(); ++i) instance.parameters[i].value = parameter_values[i];
  validate_model_values(instance, instance_label);
}

}  // namespace myriad
