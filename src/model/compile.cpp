#include "model/compile.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "loops/loop_structure.hpp"
#include "model/model_error.hpp"
#include "model/model_geometry.hpp"
#include "model/model_pointers.hpp"
#include "model/time_function_packing.hpp"
#include "spatial/quaternion.hpp"

namespace myriad {
namespace {

void append(std::vector<double>& out, const Vec3<double>& v) { out.insert(out.end(), {v.x, v.y, v.z}); }

void append(std::vector<double>& out, const Mat3<double>& m) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out.push_back(m.m[i][j]);
}

int as_int(size_t n) { return static_cast<int>(n); }

// The loader refuses sections over these counts already (model/model_limits.hpp); models built in code meet
// them here, named the same way.
void require_capacity(const Model& model, size_t count, int capacity, const char* section) {
  if (count > static_cast<size_t>(capacity))
    throw ModelError(model.source_file, std::string("/") + section,
                     std::to_string(count) + " " + section + ", more than the " + std::to_string(capacity) +
                         " a model may have");
}

// One walk over the model lays out the constants and, when `compiled` is given, records the offsets and
// topology. compile() and pack_constants() both call it, so the layout cannot drift between them.
// Offsets the loop structure needs from the walk: each loop's constants block, each driver's time function.
struct LoopOffsets {
  std::vector<int> loop_constants, driver_functions;
};

// The placement constants of a revolute or prismatic joint (kJointPlacementA0 ... kJointSubspaceC): with
// X_MC = X_CM^-1 and K = [axis]x, X_PC = X_PF Rot(axis, q) X_MC expands to A0 = R_PF R_MC, A1 = R_PF K R_MC,
// A2 = R_PF K^2 R_MC, b0 = p_PF + R_PF p_MC, b1 = R_PF K p_MC, b2 = R_PF K^2 p_MC (revolute) and
// X_PF Trans(q axis) X_MC to A0, b0 and b1 = R_PF axis (prismatic).
void append_placement_constants(bool revolute, const Transform<double>& X_PF, const Transform<double>& X_CM,
                                const Vec3<double>& axis, std::vector<double>& k) {
  const Transform<double> X_MC = inverse(X_CM);
  const Mat3<double> K = skew(axis), K2 = K * K, zero = Mat3<double>::zero();
  append(k, X_PF.R * X_MC.R);
  append(k, revolute ? X_PF.R * K * X_MC.R : zero);
  append(k, revolute ? X_PF.R * K2 * X_MC.R : zero);
  append(k, X_PF.p + X_PF.R * X_MC.p);
  append(k, revolute ? X_PF.R * (K * X_MC.p) : X_PF.R * axis);
  append(k, revolute ? X_PF.R * (K2 * X_MC.p) : Vec3<double>::zero());
  const Vec3<double> axis_C = X_CM.R * axis;
  append(k, revolute ? axis_C : Vec3<double>::zero());
  append(k, revolute ? cross(X_CM.p, axis_C) : axis_C);
}

void lay_out(const Model& model, CompiledModel* compiled, std::vector<double>& k, LoopOffsets* loops = nullptr) {
  k.clear();
  const int gravity = as_int(k.size());
  append(k, vector3(model.gravity));

  std::vector<int> tree_body(model.bodies.size(), -1);
  int q_index = 0, v_index = 0;
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& joint = model.joints[j];
    const int joint_constants = as_int(k.size());
    const Transform<double> X_PF = frame_transform(joint.parent_frame);
    const Transform<double> X_CM = frame_transform(joint.child_frame);
    append(k, X_PF.R);
    append(k, X_PF.p);
    append(k, X_CM.R);
    append(k, X_CM.p);
    const Vec3<double> axis = unit_vector3(joint.axis);
    Vec3<double> aux1 = Vec3<double>::zero(), aux2 = Vec3<double>::zero();
    if (joint.type == JointType::universal) aux1 = unit_vector3(joint.axis2);
    if (joint.type == JointType::planar) planar_basis(axis, aux1, aux2);
    append(k, axis);
    append(k, aux1);
    append(k, aux2);
    if (joint.type == JointType::revolute || joint.type == JointType::prismatic)
      append_placement_constants(joint.type == JointType::revolute, X_PF, X_CM, axis, k);

    const int body_constants = as_int(k.size());
    const Body& body = model.bodies[static_cast<size_t>(joint.child)];
    k.push_back(body.mass.value);
    append(k, vector3(body.center_of_mass));
    for (const Number& n : body.inertia) k.push_back(n.value);

    tree_body[static_cast<size_t>(joint.child)] = as_int(j);
    if (compiled) {
      CompiledJoint& c = compiled->joints[j];
      c.type = static_cast<int>(joint.type);
      c.parent = joint.parent < 0 ? -1 : tree_body[static_cast<size_t>(joint.parent)];
      if (joint.parent >= 0 && c.parent < 0)
        throw std::invalid_argument("compile: joints are not in parent-first order at joint '" + joint.name + "'");
      c.q_index = q_index;
      c.v_index = v_index;
      c.nq = joint_nq(joint.type);
      c.nv = joint_nv(joint.type);
      c.constants = joint_constants;
      c.body_constants = body_constants;
      compiled->model_body[j] = joint.child;
    }
    q_index += joint_nq(joint.type);
    v_index += joint_nv(joint.type);
  }

  int n_time_functions = 0;
  // `pointer`: where the function is in the file, named when it is one too many.
  auto add_time_function = [&](const TimeFunction& f, const std::string& pointer) {
    const int offset = as_int(k.size());
    const int points = pack_time_function(f, k);
    if (compiled) {
      if (n_time_functions >= kMaxTimeFunctions)
        throw ModelError(model.source_file, pointer,
                         "time function " + std::to_string(n_time_functions + 1) + " of the model (ground " +
                             "motions, actuators and driver functions count), more than the " +
                             std::to_string(kMaxTimeFunctions) + " a model may have");
      compiled->time_functions[n_time_functions] = {packed_time_function_kind(f), offset, points,
                                                    f.kind == TimeFunction::Kind::input ? f.input : -1, f.gain};
    }
    return n_time_functions++;
  };
  auto tree = [&](int model_body) { return model_body < 0 ? -1 : tree_body[static_cast<size_t>(model_body)]; };

  for (size_t i = 0; i < model.forces.size(); ++i) {
    const ForceElement& f = model.forces[i];
    CompiledForce c{static_cast<int>(f.type), -1, -1, f.joint, f.index, as_int(k.size()), -1, -1, -1,
                    static_cast<int>(f.acts), 0, 0, 0, 0};
    switch (f.type) {
      case ForceType::tsda:
        c.body1 = tree(f.end1.body);
        c.body2 = tree(f.end2.body);
        append(k, vector3(f.end1.point));
        append(k, vector3(f.end2.point));
        k.insert(k.end(), {f.stiffness.value, f.damping.value, f.free_length.value});
        append(k, unit_vector3(f.end1.motion_direction));
        append(k, unit_vector3(f.end2.motion_direction));
        k.push_back(f.preload.value);
        if (f.end1.moves) c.motion1 = add_time_function(f.end1.motion, force_pointer(as_int(i)) + "/motion1");
        if (f.end2.moves) c.motion2 = add_time_function(f.end2.motion, force_pointer(as_int(i)) + "/motion2");
        c.spring_table = as_int(k.size());
        c.spring_points = as_int(f.spring_table.size());
        for (const auto& point : f.spring_table) k.insert(k.end(), {point[0].value, point[1].value});
        c.damper_table = as_int(k.size());
        c.damper_points = as_int(f.damper_table.size());
        for (const auto& point : f.damper_table) k.insert(k.end(), {point[0].value, point[1].value});
        break;
      case ForceType::rsda: {
        const Joint& joint = model.joints[static_cast<size_t>(f.joint)];
        const double q_initial = joint.initial_position.empty() ? 0.0 : joint.initial_position[0].value;
        k.insert(k.end(), {f.stiffness.value, f.damping.value,
                           rsda_effective_zero_angle(f.zero_angle.value, q_initial, f.shortest_initial_deflection)});
        break;
      }
      case ForceType::joint_actuator: break;
      case ForceType::bushing: {
        c.body1 = tree(f.end1.body);
        c.body2 = tree(f.end2.body);
        const Transform<double> X1 = frame_transform(f.frame1), X2 = frame_transform(f.frame2);
        append(k, X1.R);
        append(k, X1.p);
        append(k, X2.R);
        append(k, X2.p);
        for (const Number& n : f.bushing_stiffness) k.push_back(n.value);
        for (const Number& n : f.bushing_damping) k.push_back(n.value);
        break;
      }
      case ForceType::tire: {  // TireConstant layout (compiled_model.hpp)
        c.body1 = tree(f.end1.body);
        c.index = static_cast<int>(f.tire_formula);
        append(k, vector3(f.end1.point));
        append(k, unit_vector3(f.tire_axis));
        k.insert(k.end(), {f.free_length.value, f.stiffness.value, f.damping.value, f.tire_speed.value});
        k.insert(k.end(), f.tire_coefficients.begin(), f.tire_coefficients.end());
        if (f.end1.moves) c.motion1 = add_time_function(f.end1.motion, force_pointer(as_int(i)) + "/road");
        break;
      }
    }
    if (f.has_actuator || f.type == ForceType::joint_actuator)
      c.actuator = add_time_function(
          f.actuator,
          force_pointer(as_int(i)) + (f.type == ForceType::joint_actuator ? "/function" : "/actuator"));
    if (compiled) compiled->forces[i] = c;
  }

  for (size_t i = 0; i < model.outputs.size(); ++i) {
    const Output& o = model.outputs[i];
    const int offset = as_int(k.size());
    append(k, vector3(o.point));
    if (compiled)
      compiled->outputs[i] = {static_cast<int>(o.kind), o.joint, o.index, tree(o.body), o.component, o.force, offset};
  }

  // Loops: both frames (distances: the points as origins), axes, in-plane basis, length. Drivers: their
  // functions, after the force elements' so existing time-function indices do not move.
  for (const Loop& loop : model.loops) {
    if (loops) loops->loop_constants.push_back(as_int(k.size()));
    const bool points = loop.type == LoopType::distance || loop.type == LoopType::rod;
    const Transform<double> X1 = points ? Transform<double>{Mat3<double>::identity(), vector3(loop.point1)}
                                        : frame_transform(loop.frame1);
    const Transform<double> X2 = points ? Transform<double>{Mat3<double>::identity(), vector3(loop.point2)}
                                        : frame_transform(loop.frame2);
    append(k, X1.R);
    append(k, X1.p);
    append(k, X2.R);
    append(k, X2.p);
    const bool has_axis = loop.type == LoopType::cut_revolute || loop.type == LoopType::cut_universal ||
                          loop.type == LoopType::cut_planar_revolute;
    const Vec3<double> axis = has_axis ? unit_vector3(loop.axis) : Vec3<double>{0.0, 0.0, 1.0};
    const Vec3<double> axis2 =
        loop.type == LoopType::cut_universal ? unit_vector3(loop.axis2) : Vec3<double>::zero();
    Vec3<double> e1, e2;
    planar_basis(axis, e1, e2);
    append(k, axis);
    append(k, axis2);
    append(k, e1);
    append(k, e2);
    k.push_back(points ? loop.length.value : 0.0);
    k.push_back(loop.type == LoopType::rod ? loop.mass.value : 0.0);
  }
  for (size_t d = 0; d < model.drivers.size(); ++d) {
    const int index = add_time_function(model.drivers[d].function, driver_pointer(as_int(d)) + "/function");
    if (loops) loops->driver_functions.push_back(index);
  }

  if (compiled) {
    compiled->n_bodies = as_int(model.joints.size());
    compiled->nq = q_index;
    compiled->nv = v_index;
    compiled->n_forces = as_int(model.forces.size());
    compiled->n_time_functions = n_time_functions;
    compiled->n_outputs = as_int(model.outputs.size());
    compiled->n_constants = as_int(k.size());
    compiled->gravity = gravity;
    compiled->has_quaternions = 0;
    for (const Joint& joint : model.joints)
      if (joint.type == JointType::spherical || joint.type == JointType::free) compiled->has_quaternions = 1;
    for (size_t b = 0; b < model.bodies.size(); ++b) compiled->tree_body[b] = tree_body[b];
    compiled->n_kpis = as_int(model.kpis.size());
    for (size_t i = 0; i < model.kpis.size(); ++i) {
      const Kpi& kpi = model.kpis[i];
      compiled->kpis[i] = {kpi.type, kpi.output, kpi.scale, kpi.threshold, kpi.from};
    }
  }
}

}  // namespace

std::vector<std::vector<InputSlot>> input_slots(const Model& model, const CompiledModel& compiled) {
  std::vector<std::vector<InputSlot>> slots(model.inputs.size());
  for (int i = 0; i < compiled.n_time_functions; ++i) {
    const CompiledTimeFunction& f = compiled.time_functions[i];
    if (f.input >= 0 && static_cast<size_t>(f.input) < slots.size())
      slots[static_cast<size_t>(f.input)].push_back({f.constants, f.gain});
  }
  return slots;
}

std::unique_ptr<CompiledModel> compile(const Model& model) {
  require_capacity(model, model.joints.size(), kMaxBodies, "joints");
  require_capacity(model, model.bodies.size(), kMaxBodies, "bodies");
  require_capacity(model, model.forces.size(), kMaxForces, "forces");
  require_capacity(model, model.outputs.size(), kMaxOutputs, "outputs");
  require_capacity(model, model.kpis.size(), kMaxKpis, "kpis");
  if (model.joints.size() != model.bodies.size())
    throw std::invalid_argument("compile: every body needs exactly one joint");
  auto compiled = std::make_unique<CompiledModel>();
  std::vector<double> constants;
  LoopOffsets loops;
  lay_out(model, compiled.get(), constants, &loops);
  loops::build_loop_structure(model, loops.loop_constants, loops.driver_functions, *compiled);
  return compiled;
}

void pack_constants(const CompiledModel& compiled, const Model& literal_model, double* constants) {
  std::vector<double> k;
  lay_out(literal_model, nullptr, k);
  if (static_cast<int>(k.size()) != compiled.n_constants)
    throw std::invalid_argument("pack_constants: model does not match its compiled layout");
  for (size_t i = 0; i < k.size(); ++i) constants[i] = k[i];
}

void initial_state(const Model& literal_model, double* q, double* v) {
  int qi = 0, vi = 0;
  for (const Joint& joint : literal_model.joints) {
    const int nq = joint_nq(joint.type), nv = joint_nv(joint.type);
    for (int i = 0; i < nq; ++i)
      q[qi + i] = static_cast<size_t>(i) < joint.initial_position.size() ? joint.initial_position[static_cast<size_t>(i)].value : 0.0;
    for (int i = 0; i < nv; ++i)
      v[vi + i] = static_cast<size_t>(i) < joint.initial_velocity.size() ? joint.initial_velocity[static_cast<size_t>(i)].value : 0.0;
    // Quaternion blocks: spherical q = (w,x,y,z); free q = (x,y,z,w,x,y,z).
    const int quat = joint.type == JointType::spherical ? qi : (joint.type == JointType::free ? qi + 3 : -1);
    if (quat >= 0 && !normalize_quaternion(q + quat)) {  // zero (validation refuses it): the identity
      q[quat] = 1.0;
      for (int i = 1; i < 4; ++i) q[quat + i] = 0.0;
    }
    qi += nq;
    vi += nv;
  }
}

}  // namespace myriad
