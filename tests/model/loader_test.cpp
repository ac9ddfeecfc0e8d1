// Valid model files load into the Model the format describes: every key, parameters in file order, defaults,
// parent-first joint order and the coordinate layout it implies.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "model/model_loader.hpp"

namespace myriad {
namespace loader_test {

// The example of docs/model-format.md, verbatim.
const char* const kDocExample = R"({
  "format": "myriad-model",
  "version": 1,
  "name": "pendulum",
  "description": "free-swinging slender rod",
  "gravity": [0, 0, -9.81],
  "parameters": { "L": 4.0, "m": {"value": 78.0, "unit": "kg", "description": "rod mass"} },
  "bodies": [
    { "name": "rod", "mass": "$m", "center_of_mass": [0, 0, 0],
      "inertia": {"ixx": 0.0325, "iyy": 104, "izz": 104} }
  ],
  "joints": [
    { "name": "pivot", "type": "revolute", "parent": "ground", "child": "rod",
      "parent_frame": {"origin": [0, 0, 0]},
      "child_frame": {"origin": [-2, 0, 0]},
      "axis": [0, 1, 0], "position": [0.785398], "velocity": [0] }
  ],
  "forces": [],
  "outputs": [
    { "name": "theta", "type": "joint_coordinate", "joint": "pivot" },
    { "name": "E", "type": "total_energy" }
  ],
  "simulation": { "t_end": 5, "dt_out": 0.01, "integrator": "dopri5", "rtol": 1e-8, "atol": 1e-10 },
  "loops": [],
  "drivers": []
})";

Model load(const std::string& text) { return load_model_text(text, "t.json"); }

// A minimal body with unit inertia, for models whose bodies do not matter.
std::string body(const std::string& name) {
  return R"({"name": ")" + name + R"(", "mass": 1, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}})";
}

std::string model_text(const std::string& bodies, const std::string& joints, const std::string& rest = "") {
  return R"({"format": "myriad-model", "version": 1, "bodies": [)" + bodies + R"(], "joints": [)" + joints +
         "]" + (rest.empty() ? "" : ", " + rest) + "}";
}

void expect_vector(const Vector3& v, double x, double y, double z) {
  EXPECT_DOUBLE_EQ(v[0].value, x);
  EXPECT_DOUBLE_EQ(v[1].value, y);
  EXPECT_DOUBLE_EQ(v[2].value, z);
}

TEST(Loader, doc_example_loads_every_top_level_key) {
  const Model m = load(kDocExample);
  EXPECT_EQ(m.name, "pendulum");
  EXPECT_EQ(m.description, "free-swinging slender rod");
  EXPECT_EQ(m.source_file, "t.json");
  expect_vector(m.gravity, 0, 0, -9.81);

  ASSERT_EQ(m.parameters.size(), 2u);
  EXPECT_EQ(m.parameters[0].name, "L");
  EXPECT_DOUBLE_EQ(m.parameters[0].value, 4.0);
  EXPECT_EQ(m.parameters[1].name, "m");
  EXPECT_DOUBLE_EQ(m.parameters[1].value, 78.0);
  EXPECT_EQ(m.parameters[1].unit, "kg");
  EXPECT_EQ(m.parameters[1].description, "rod mass");

  ASSERT_EQ(m.bodies.size(), 1u);
  EXPECT_EQ(m.bodies[0].name, "rod");
  EXPECT_DOUBLE_EQ(m.bodies[0].mass.value, 78.0);
  EXPECT_EQ(m.bodies[0].mass.parameter, 1);
  EXPECT_DOUBLE_EQ(m.bodies[0].inertia[0].value, 0.0325);
  EXPECT_DOUBLE_EQ(m.bodies[0].inertia[1].value, 104);
  EXPECT_DOUBLE_EQ(m.bodies[0].inertia[2].value, 104);
  EXPECT_EQ(m.bodies[0].inertia[0].parameter, -1);

  ASSERT_EQ(m.joints.size(), 1u);
  const Joint& j = m.joints[0];
  EXPECT_EQ(j.name, "pivot");
  EXPECT_EQ(j.type, JointType::revolute);
  EXPECT_EQ(j.parent, -1);
  EXPECT_EQ(j.child, 0);
  EXPECT_EQ(j.file_index, 0);
  expect_vector(j.child_frame.origin, -2, 0, 0);
  expect_vector(j.axis, 0, 1, 0);
  ASSERT_EQ(j.initial_position.size(), 1u);
  EXPECT_DOUBLE_EQ(j.initial_position[0].value, 0.785398);
  ASSERT_EQ(j.initial_velocity.size(), 1u);

  EXPECT_TRUE(m.forces.empty());
  ASSERT_EQ(m.outputs.size(), 2u);
  EXPECT_EQ(m.outputs[0].name, "theta");
  EXPECT_EQ(m.outputs[0].kind, OutputKind::joint_coordinate);
  EXPECT_EQ(m.outputs[0].joint, 0);
  EXPECT_EQ(m.outputs[0].index, 0);
  EXPECT_EQ(m.outputs[1].kind, OutputKind::total_energy);

  EXPECT_DOUBLE_EQ(m.simulation.t_end, 5);
  EXPECT_DOUBLE_EQ(m.simulation.dt_out, 0.01);
  EXPECT_EQ(m.simulation.integrator, "dopri5");
  EXPECT_DOUBLE_EQ(m.simulation.rtol, 1e-8);
  EXPECT_DOUBLE_EQ(m.simulation.atol, 1e-10);
  EXPECT_DOUBLE_EQ(m.simulation.h, SimulationDefaults{}.h);  // not given: default
}

TEST(Loader, parameters_keep_file_order_and_link_numbers) {
  const Model m = load(model_text(
      R"({"name": "a", "mass": "$zeta", "center_of_mass": ["$alpha", 0, "$zeta"],
          "inertia": {"ixx": "$mid", "iyy": "$mid", "izz": "$mid", "ixy": "$alpha"}})",
      R"({"name": "j", "type": "free", "parent": "ground", "child": "a"})",
      R"("parameters": {"zeta": 3, "alpha": {"value": 0.25}, "mid": {"value": 2, "unit": "kg m^2"}})"));
  ASSERT_EQ(m.parameters.size(), 3u);
  EXPECT_EQ(m.parameters[0].name, "zeta");
  EXPECT_EQ(m.parameters[1].name, "alpha");
  EXPECT_EQ(m.parameters[2].name, "mid");
  EXPECT_EQ(m.parameters[2].unit, "kg m^2");
  EXPECT_EQ(m.parameters[1].unit, "");
  const Body& b = m.bodies[0];
  EXPECT_EQ(b.mass.parameter, 0);
  EXPECT_DOUBLE_EQ(b.mass.value, 3);
  EXPECT_EQ(b.center_of_mass[0].parameter, 1);
  EXPECT_DOUBLE_EQ(b.center_of_mass[0].value, 0.25);
  EXPECT_EQ(b.center_of_mass[1].parameter, -1);
  EXPECT_EQ(b.center_of_mass[2].parameter, 0);
  EXPECT_EQ(b.inertia[0].parameter, 2);
  EXPECT_EQ(b.inertia[3].parameter, 1);
  EXPECT_DOUBLE_EQ(b.inertia[3].value, 0.25);

  // The link survives: applying other values changes exactly the linked fields.
  const Model applied = apply_parameters(m, {5, 0.5, 4});
  EXPECT_DOUBLE_EQ(applied.bodies[0].mass.value, 5);
  EXPECT_DOUBLE_EQ(applied.bodies[0].center_of_mass[0].value, 0.5);
  EXPECT_DOUBLE_EQ(applied.bodies[0].center_of_mass[2].value, 5);
  EXPECT_DOUBLE_EQ(applied.bodies[0].inertia[1].value, 4);
}

TEST(Loader, defaults_fill_omitted_keys) {
  const Model m = load(model_text(body("s") + "," + body("f") + "," + body("r") + "," + body("w"),
                                  R"({"name": "ball", "type": "spherical", "parent": "ground", "child": "s"},
         {"name": "float", "type": "free", "parent": "ground", "child": "f"},
         {"name": "hinge", "type": "revolute", "parent": "f", "child": "r", "axis": [0, 0, 2]},
         {"name": "weld", "type": "fixed", "parent": "r", "child": "w"})"));
  expect_vector(m.gravity, 0, 0, 0);
  EXPECT_TRUE(m.parameters.empty());
  EXPECT_TRUE(m.forces.empty());
  EXPECT_TRUE(m.outputs.empty());
  EXPECT_EQ(m.name, "");
  const SimulationDefaults defaults;
  EXPECT_EQ(m.simulation.integrator, defaults.integrator);
  EXPECT_DOUBLE_EQ(m.simulation.t_end, defaults.t_end);

  expect_vector(m.bodies[0].center_of_mass, 0, 0, 0);
  for (size_t k = 3; k < 6; ++k) EXPECT_DOUBLE_EQ(m.bodies[0].inertia[k].value, 0.0);

  auto values = [](const std::vector<Number>& numbers) {
    std::vector<double> v;
    for (const Number& n : numbers) v.push_back(n.value);
    return v;
  };
  EXPECT_EQ(values(m.joints[0].initial_position), (std::vector<double>{1, 0, 0, 0}));
  EXPECT_EQ(values(m.joints[0].initial_velocity), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(values(m.joints[1].initial_position), (std::vector<double>{0, 0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(values(m.joints[1].initial_velocity), (std::vector<double>(6, 0.0)));
  EXPECT_EQ(values(m.joints[2].initial_position), (std::vector<double>{0}));
  EXPECT_TRUE(m.joints[3].initial_position.empty());
  EXPECT_TRUE(m.joints[3].initial_velocity.empty());
  EXPECT_EQ(m.joints[0].parent_frame.rotation.kind, Rotation::Kind::identity);
  EXPECT_EQ(m.joints[0].child_frame.rotation.kind, Rotation::Kind::identity);
  expect_vector(m.joints[0].parent_frame.origin, 0, 0, 0);
  expect_vector(m.joints[2].axis, 0, 0, 2);  // stored as given; normalized on use
}

TEST(Loader, reads_every_rotation_form_and_frame) {
  const Model m = load(model_text(body("a") + "," + body("b") + "," + body("c") + "," + body("d"),
                                  R"({"name": "j0", "type": "fixed", "parent": "ground", "child": "a",
          "parent_frame": {"origin": [1, 2, 3], "rotation": {"axis": [0, 0, 1], "angle": 0.5}}},
         {"name": "j1", "type": "fixed", "parent": "a", "child": "b",
          "child_frame": {"rotation": {"rpy": [0.1, 0.2, 0.3]}}},
         {"name": "j2", "type": "fixed", "parent": "b", "child": "c",
          "parent_frame": {"rotation": {"quaternion": [2, 0, 0, 0]}}},
         {"name": "j3", "type": "fixed", "parent": "c", "child": "d",
          "parent_frame": {"rotation": {"matrix": [[0, -1, 0], [1, 0, 0], [0, 0, 1]]}}})"));
  const Rotation& r0 = m.joints[0].parent_frame.rotation;
  EXPECT_EQ(r0.kind, Rotation::Kind::axis_angle);
  expect_vector(r0.axis, 0, 0, 1);
  EXPECT_DOUBLE_EQ(r0.angle.value, 0.5);
  expect_vector(m.joints[0].parent_frame.origin, 1, 2, 3);
  const Rotation& r1 = m.joints[1].child_frame.rotation;
  EXPECT_EQ(r1.kind, Rotation::Kind::rpy);
  expect_vector(r1.rpy, 0.1, 0.2, 0.3);
  const Rotation& r2 = m.joints[2].parent_frame.rotation;
  EXPECT_EQ(r2.kind, Rotation::Kind::quaternion);
  EXPECT_DOUBLE_EQ(r2.quaternion[0].value, 2);
  const Rotation& r3 = m.joints[3].parent_frame.rotation;
  EXPECT_EQ(r3.kind, Rotation::Kind::matrix);
  EXPECT_DOUBLE_EQ(r3.matrix[1].value, -1);  // row-major: r01
  EXPECT_DOUBLE_EQ(r3.matrix[3].value, 1);   // r10
}

TEST(Loader, reads_every_joint_type_with_axes_and_coordinates) {
  const Model m = load(
      model_text(body("a") + "," + body("b") + "," + body("c") + "," + body("d") + "," + body("e"),
                 R"({"name": "pr", "type": "prismatic", "parent": "ground", "child": "a", "axis": [1, 0, 0],
          "position": [0.5], "velocity": [-1]},
         {"name": "cy", "type": "cylindrical", "parent": "a", "child": "b", "axis": [0, 1, 0],
          "position": [0.1, 0.2], "velocity": [0.3, 0.4]},
         {"name": "un", "type": "universal", "parent": "b", "child": "c", "axis": [1, 0, 0], "axis2": [0, 0, 1],
          "position": [0.1, -0.1]},
         {"name": "pl", "type": "planar", "parent": "c", "child": "d", "axis": [0, 0, 1],
          "position": [1, 2, 3], "velocity": [4, 5, 6]},
         {"name": "fr", "type": "free", "parent": "d", "child": "e",
          "position": [1, 2, 3, 0, 1, 0, 0], "velocity": [1, 2, 3, 4, 5, 6]})"));
  ASSERT_EQ(m.joints.size(), 5u);
  EXPECT_EQ(m.joints[0].type, JointType::prismatic);
  EXPECT_DOUBLE_EQ(m.joints[0].initial_velocity[0].value, -1);
  EXPECT_EQ(m.joints[1].type, JointType::cylindrical);
  EXPECT_DOUBLE_EQ(m.joints[1].initial_velocity[1].value, 0.4);
  EXPECT_EQ(m.joints[2].type, JointType::universal);
  expect_vector(m.joints[2].axis2, 0, 0, 1);
  EXPECT_DOUBLE_EQ(m.joints[2].initial_position[1].value, -0.1);
  EXPECT_EQ(m.joints[3].type, JointType::planar);
  EXPECT_DOUBLE_EQ(m.joints[3].initial_position[2].value, 3);
  EXPECT_EQ(m.joints[4].type, JointType::free);
  EXPECT_DOUBLE_EQ(m.joints[4].initial_position[4].value, 1);
  EXPECT_DOUBLE_EQ(m.joints[4].initial_velocity[5].value, 6);
  EXPECT_EQ(m.joints[4].parent, 3);
  EXPECT_EQ(m.joints[4].child, 4);
}

TEST(Loader, reads_forces_and_every_time_function) {
  const Model m = load(model_text(
      body("a") + "," + body("b"),
      R"({"name": "slide", "type": "prismatic", "parent": "ground", "child": "a", "axis": [0, 0, 1]},
         {"name": "hinge", "type": "revolute", "parent": "a", "child": "b", "axis": [0, 1, 0]})",
      R"("parameters": {"k": 100, "t_late": 2},
         "forces": [
           {"name": "spring", "type": "tsda", "body1": "a", "point1": [0, 0, 1], "body2": "ground",
            "point2": [0, 0, 0], "stiffness": "$k", "damping": 3, "free_length": 0.5,
            "actuator": {"type": "constant", "value": 7},
            "motion2": {"direction": [0, 0, 2], "function": {"type": "sine", "amplitude": 0.1, "frequency": 2}}},
           {"name": "torsion", "type": "rsda", "joint": "hinge", "stiffness": 5, "damping": 0.5,
            "zero_angle": 4.7, "initial_deflection": "literal",
            "actuator": {"type": "step", "t0": 1, "before": 0, "after": 2}},
           {"name": "push", "type": "joint_actuator", "joint": "slide",
            "function": {"type": "ramp", "t0": 0.5, "slope": 2}},
           {"name": "bump", "type": "joint_actuator", "joint": "hinge", "index": 0,
            "function": {"type": "half_sine_bump", "t0": 1, "duration": 0.2, "height": 3}},
           {"name": "ease", "type": "joint_actuator", "joint": "slide",
            "function": {"type": "smooth_step", "t0": 1, "t1": "$t_late", "from": -1, "to": 1}},
           {"name": "profile", "type": "joint_actuator", "joint": "slide",
            "function": {"type": "table", "points": [[0, 0], [1, "$k"], [3, -2]]}},
           {"name": "wave", "type": "joint_actuator", "joint": "slide",
            "function": {"type": "sine", "amplitude": 1, "frequency": 0.5, "phase": 0.25, "offset": 3}}
         ])"));
  ASSERT_EQ(m.forces.size(), 7u);
  const ForceElement& spring = m.forces[0];
  EXPECT_EQ(spring.type, ForceType::tsda);
  EXPECT_EQ(spring.name, "spring");
  EXPECT_EQ(spring.end1.body, 0);
  expect_vector(spring.end1.point, 0, 0, 1);
  EXPECT_FALSE(spring.end1.moves);
  EXPECT_EQ(spring.end2.body, -1);
  EXPECT_TRUE(spring.end2.moves);
  expect_vector(spring.end2.motion_direction, 0, 0, 2);
  EXPECT_EQ(spring.end2.motion.kind, TimeFunction::Kind::sine);
  EXPECT_DOUBLE_EQ(spring.end2.motion.amplitude.value, 0.1);
  EXPECT_DOUBLE_EQ(spring.end2.motion.frequency.value, 2);
  EXPECT_DOUBLE_EQ(spring.end2.motion.phase.value, 0);
  EXPECT_EQ(spring.stiffness.parameter, 0);
  EXPECT_DOUBLE_EQ(spring.stiffness.value, 100);
  EXPECT_DOUBLE_EQ(spring.damping.value, 3);
  EXPECT_DOUBLE_EQ(spring.free_length.value, 0.5);
  EXPECT_TRUE(spring.has_actuator);
  EXPECT_EQ(spring.actuator.kind, TimeFunction::Kind::constant);
  EXPECT_DOUBLE_EQ(spring.actuator.value.value, 7);

  const ForceElement& torsion = m.forces[1];
  EXPECT_EQ(torsion.type, ForceType::rsda);
  EXPECT_EQ(torsion.joint, 1);
  EXPECT_DOUBLE_EQ(torsion.zero_angle.value, 4.7);
  EXPECT_FALSE(torsion.shortest_initial_deflection);
  EXPECT_EQ(torsion.actuator.kind, TimeFunction::Kind::step);
  EXPECT_DOUBLE_EQ(torsion.actuator.after.value, 2);

  EXPECT_EQ(m.forces[2].type, ForceType::joint_actuator);
  EXPECT_EQ(m.forces[2].joint, 0);
  EXPECT_EQ(m.forces[2].index, 0);
  EXPECT_TRUE(m.forces[2].has_actuator);
  EXPECT_EQ(m.forces[2].actuator.kind, TimeFunction::Kind::ramp);
  EXPECT_DOUBLE_EQ(m.forces[2].actuator.slope.value, 2);
  EXPECT_DOUBLE_EQ(m.forces[2].actuator.offset.value, 0);
  EXPECT_EQ(m.forces[3].actuator.kind, TimeFunction::Kind::half_sine_bump);
  EXPECT_DOUBLE_EQ(m.forces[3].actuator.duration.value, 0.2);
  EXPECT_EQ(m.forces[4].actuator.kind, TimeFunction::Kind::smooth_step);
  EXPECT_EQ(m.forces[4].actuator.t1.parameter, 1);
  EXPECT_DOUBLE_EQ(m.forces[4].actuator.from.value, -1);
  const TimeFunction& table = m.forces[5].actuator;
  EXPECT_EQ(table.kind, TimeFunction::Kind::table);
  ASSERT_EQ(table.table.size(), 3u);
  EXPECT_EQ(table.table[1][1].parameter, 0);
  EXPECT_DOUBLE_EQ(table.table[2][0].value, 3);
  EXPECT_DOUBLE_EQ(m.forces[6].actuator.phase.value, 0.25);
  EXPECT_DOUBLE_EQ(m.forces[6].actuator.offset.value, 3);
}

TEST(Loader, force_defaults) {
  const Model m = load(model_text(
      body("a"),
      R"({"name": "hinge", "type": "revolute", "parent": "ground", "child": "a", "axis": [0, 1, 0]})",
      R"("forces": [{"name": "s", "type": "tsda", "body1": "a", "body2": "ground", "point2": [0, 0, 1]},
                    {"name": "r", "type": "rsda", "joint": "hinge"}])"));
  const ForceElement& s = m.forces[0];
  expect_vector(s.end1.point, 0, 0, 0);
  EXPECT_DOUBLE_EQ(s.stiffness.value, 0);
  EXPECT_DOUBLE_EQ(s.damping.value, 0);
  EXPECT_DOUBLE_EQ(s.free_length.value, 0);
  EXPECT_FALSE(s.has_actuator);
  EXPECT_FALSE(s.end2.moves);
  EXPECT_TRUE(m.forces[1].shortest_initial_deflection);
  EXPECT_FALSE(m.forces[1].has_actuator);
}

TEST(Loader, reads_every_output_kind_and_component) {
  const Model m = load(model_text(
      body("a") + "," + body("b"),
      R"({"name": "ball", "type": "spherical", "parent": "ground", "child": "a"},
         {"name": "hinge", "type": "revolute", "parent": "a", "child": "b", "axis": [0, 1, 0]})",
      R"("forces": [{"name": "s", "type": "tsda", "body1": "b", "body2": "ground", "point2": [0, 0, 1]},
                    {"name": "r", "type": "rsda", "joint": "hinge", "stiffness": 1}],
         "outputs": [
           {"name": "q3", "type": "joint_coordinate", "joint": "ball", "index": 3},
           {"name": "w2", "type": "joint_velocity", "joint": "ball", "index": 2},
           {"name": "a0", "type": "joint_acceleration", "joint": "hinge"},
           {"name": "py", "type": "body_position", "body": "b", "point": [1, 0, 0], "component": "y"},
           {"name": "oqz", "type": "body_orientation", "body": "a", "component": "qz"},
           {"name": "ow", "type": "body_orientation", "body": "a", "component": "qw"},
           {"name": "vwy", "type": "body_velocity", "body": "a", "component": "wy"},
           {"name": "vvx", "type": "body_velocity", "body": "b", "point": [0, 0, 2], "component": "vx"},
           {"name": "vvz", "type": "body_velocity", "body": "b", "component": "vz"},
           {"name": "len", "type": "spring_length", "force": "s"},
           {"name": "ft", "type": "spring_force", "force": "s"},
           {"name": "fr", "type": "spring_force", "force": "r"},
           {"name": "T", "type": "kinetic_energy"},
           {"name": "V", "type": "potential_energy"},
           {"name": "E", "type": "total_energy"}
         ])"));
  ASSERT_EQ(m.outputs.size(), 15u);
  const std::vector<Output>& o = m.outputs;
  EXPECT_EQ(o[0].kind, OutputKind::joint_coordinate);
  EXPECT_EQ(o[0].joint, 0);
  EXPECT_EQ(o[0].index, 3);
  EXPECT_EQ(o[1].kind, OutputKind::joint_velocity);
  EXPECT_EQ(o[1].index, 2);
  EXPECT_EQ(o[2].kind, OutputKind::joint_acceleration);
  EXPECT_EQ(o[2].joint, 1);
  EXPECT_EQ(o[3].kind, OutputKind::body_position);
  EXPECT_EQ(o[3].body, 1);
  expect_vector(o[3].point, 1, 0, 0);
  EXPECT_EQ(o[3].component, 1);
  EXPECT_EQ(o[4].kind, OutputKind::body_orientation);
  EXPECT_EQ(o[4].component, 3);
  EXPECT_EQ(o[5].component, 0);
  EXPECT_EQ(o[6].kind, OutputKind::body_velocity);
  EXPECT_EQ(o[6].component, 1);  // wy
  EXPECT_EQ(o[7].component, 3);  // vx
  expect_vector(o[7].point, 0, 0, 2);
  EXPECT_EQ(o[8].component, 5);  // vz
  EXPECT_EQ(o[9].kind, OutputKind::spring_length);
  EXPECT_EQ(o[9].force, 0);
  EXPECT_EQ(o[10].kind, OutputKind::spring_force);
  EXPECT_EQ(o[11].force, 1);
  EXPECT_EQ(o[12].kind, OutputKind::kinetic_energy);
  EXPECT_EQ(o[13].kind, OutputKind::potential_energy);
  EXPECT_EQ(o[14].kind, OutputKind::total_energy);
}

TEST(Loader, reads_simulation_settings) {
  const Model m =
      load(model_text(body("a"), R"({"name": "j", "type": "free", "parent": "ground", "child": "a"})",
                      R"("simulation": {"t_end": 2, "dt_out": 0.5, "integrator": "rk4", "h": 1e-4,
                                                    "rtol": 1e-5, "atol": 1e-7})"));
  EXPECT_DOUBLE_EQ(m.simulation.t_end, 2);
  EXPECT_DOUBLE_EQ(m.simulation.dt_out, 0.5);
  EXPECT_EQ(m.simulation.integrator, "rk4");
  EXPECT_DOUBLE_EQ(m.simulation.h, 1e-4);
  EXPECT_DOUBLE_EQ(m.simulation.rtol, 1e-5);
  EXPECT_DOUBLE_EQ(m.simulation.atol, 1e-7);
}

// A chain listed child-first: c hangs from b, b from a, a from ground, plus a second root d.
const char* const kScrambledJoints = R"(
  {"name": "jc", "type": "revolute", "parent": "b", "child": "c", "axis": [0, 0, 1]},
  {"name": "jd", "type": "free", "parent": "ground", "child": "d"},
  {"name": "jb", "type": "spherical", "parent": "a", "child": "b"},
  {"name": "ja", "type": "prismatic", "parent": "ground", "child": "a", "axis": [1, 0, 0]})";

TEST(Loader, orders_joints_parent_first_keeping_file_order_otherwise) {
  const Model m =
      load(model_text(body("a") + "," + body("b") + "," + body("c") + "," + body("d"), kScrambledJoints));
  ASSERT_EQ(m.joints.size(), 4u);
  // Roots first in file order (jd before ja), then each joint as soon as its parent body is placed.
  EXPECT_EQ(m.joints[0].name, "jd");
  EXPECT_EQ(m.joints[1].name, "ja");
  EXPECT_EQ(m.joints[2].name, "jb");
  EXPECT_EQ(m.joints[3].name, "jc");
  EXPECT_EQ(m.joints[0].file_index, 1);
  EXPECT_EQ(m.joints[1].file_index, 3);
  EXPECT_EQ(m.joints[2].file_index, 2);
  EXPECT_EQ(m.joints[3].file_index, 0);
  // Parent and child stay body indices in the file order of `bodies`.
  EXPECT_EQ(m.joints[3].parent, 1);
  EXPECT_EQ(m.joints[3].child, 2);
  EXPECT_EQ(m.joints[0].child, 3);
  // Every joint comes after the joint whose child is its parent body.
  std::vector<bool> placed(m.bodies.size(), false);
  for (const Joint& j : m.joints) {
    if (j.parent >= 0) {
      EXPECT_TRUE(placed[j.parent]) << j.name;
    }
    placed[j.child] = true;
  }
}

TEST(Loader, keeps_file_order_when_already_parent_first) {
  const Model m = load(model_text(body("a") + "," + body("b") + "," + body("c"),
                                  R"({"name": "j2", "type": "free", "parent": "ground", "child": "c"},
         {"name": "j0", "type": "free", "parent": "ground", "child": "a"},
         {"name": "j1", "type": "revolute", "parent": "c", "child": "b", "axis": [0, 0, 1]})"));
  EXPECT_EQ(m.joints[0].name, "j2");
  EXPECT_EQ(m.joints[1].name, "j0");
  EXPECT_EQ(m.joints[2].name, "j1");
}

TEST(Loader, coordinate_layout_follows_the_final_joint_order_and_references_are_remapped) {
  const Model m =
      load(model_text(body("a") + "," + body("b") + "," + body("c") + "," + body("d"), kScrambledJoints,
                      R"("forces": [{"name": "tc", "type": "rsda", "joint": "jc"},
                    {"name": "pa", "type": "joint_actuator", "joint": "ja", "function": {"type": "constant", "value": 1}}],
         "outputs": [{"name": "qc", "type": "joint_coordinate", "joint": "jc"},
                     {"name": "qb", "type": "joint_coordinate", "joint": "jb", "index": 3},
                     {"name": "vd", "type": "joint_velocity", "joint": "jd", "index": 5}])"));
  // q = [jd (7) | ja (1) | jb (4) | jc (1)], v = [jd (6) | ja (1) | jb (3) | jc (1)].
  std::vector<int> q_offset, v_offset;
  int nq = 0, nv = 0;
  for (const Joint& j : m.joints) {
    q_offset.push_back(nq);
    v_offset.push_back(nv);
    nq += joint_nq(j.type);
    nv += joint_nv(j.type);
  }
  EXPECT_EQ(nq, 13);
  EXPECT_EQ(nv, 11);
  EXPECT_EQ(q_offset, (std::vector<int>{0, 7, 8, 12}));
  EXPECT_EQ(v_offset, (std::vector<int>{0, 6, 7, 10}));
  // References are indices into the final order.
  EXPECT_EQ(m.forces[0].joint, 3);
  EXPECT_EQ(m.forces[1].joint, 1);
  EXPECT_EQ(m.outputs[0].joint, 3);
  EXPECT_EQ(m.outputs[1].joint, 2);
  EXPECT_EQ(m.outputs[2].joint, 0);
  EXPECT_EQ(m.joints[static_cast<size_t>(m.outputs[1].joint)].name, "jb");
}

TEST(Loader, accepts_empty_or_absent_reserved_sections) {
  const std::string joints = R"({"name": "j", "type": "free", "parent": "ground", "child": "a"})";
  EXPECT_NO_THROW(load(model_text(body("a"), joints, R"("loops": [], "drivers": [])")));
  EXPECT_NO_THROW(load(model_text(body("a"), joints)));
}

TEST(Loader, load_model_file_reads_the_file_and_records_its_path) {
  const std::string path = ::testing::TempDir() + "myriad_loader_test_model.json";
  {
    std::ofstream out(path);
    out << kDocExample;
  }
  const Model m = load_model_file(path);
  std::remove(path.c_str());
  EXPECT_EQ(m.source_file, path);
  EXPECT_EQ(m.name, "pendulum");
  EXPECT_EQ(m.bodies.size(), 1u);
}

}  // namespace loader_test
}  // namespace myriad
