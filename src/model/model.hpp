#pragma once
// The host-side model: what a model file says, with names, topology and numbers. Every numeric field is a
// Number that is either a literal or a reference to a named parameter, so one loaded model serves an ensemble
// whose instances differ only in parameter values. apply_parameters() yields a model whose Numbers are all
// literal values; the compiler and the reference path read models in that state.
#include <array>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace myriad {

// A numeric field: `value` holds the literal (or, once parameters are applied, the resolved value);
// `parameter` is the index into Model::parameters of a plain "$name", or -1. A linear expression of parameters
// ("$a - $b", model/linear_expression.hpp) keeps its terms instead: value = constant + sum coefficient * p.
struct ParameterTerm {
  int parameter = -1;
  double coefficient = 0.0;
};

struct Number {
  double value = 0.0;
  int parameter = -1;
  std::vector<ParameterTerm> terms;  // an expression's terms (parameter is then -1)
  double constant = 0.0;             // an expression's constant part
};

// A number given as a literal (no parameter, no expression).
inline Number literal_number(double value) {
  Number n;
  n.value = value;
  return n;
}

inline bool depends_on_parameters(const Number& n) { return n.parameter >= 0 || !n.terms.empty(); }

// The value of `n` for one instance's parameter values (indexed as Model::parameters).
inline double number_value(const Number& n, const std::vector<double>& parameter_values) {
  if (n.parameter >= 0) return parameter_values[static_cast<size_t>(n.parameter)];
  if (n.terms.empty()) return n.value;
  double value = n.constant;
  for (const ParameterTerm& t : n.terms) value += t.coefficient * parameter_values[static_cast<size_t>(t.parameter)];
  return value;
}

using Vector3 = std::array<Number, 3>;

// A rotation as the model file gives it; rotation_matrix() in model/model_geometry.hpp evaluates it.
struct Rotation {
  enum class Kind { identity, axis_angle, rpy, quaternion, matrix };
  Kind kind = Kind::identity;
  Vector3 axis{};                 // axis_angle: axis (normalized when evaluated)
  Number angle{};                 // axis_angle: angle in rad
  Vector3 rpy{};                  // rpy: roll, pitch, yaw in rad, R = Rz(yaw) Ry(pitch) Rx(roll)
  std::array<Number, 4> quaternion{};  // quaternion: w, x, y, z (normalized when evaluated)
  std::array<Number, 9> matrix{};      // matrix: row-major, must be orthonormal with det +1
};

// A frame fixed on a body: origin and orientation relative to the body frame.
struct Frame {
  Vector3 origin{};
  Rotation rotation{};
};

struct Parameter {
  std::string name;
  double value = 0.0;  // default value when an ensemble does not set it
  std::string unit;
  std::string description;
};

struct Body {
  std::string name;
  Number mass{};
  Vector3 center_of_mass{};             // p_BoBcm_B
  std::array<Number, 6> inertia{};      // I_Bcm_B: ixx, iyy, izz, ixy, ixz, iyz (centroidal, body axes)
};

enum class JointType { revolute, prismatic, cylindrical, universal, spherical, planar, free, fixed };

struct Joint {
  std::string name;
  JointType type = JointType::revolute;
  int parent = -1;        // body index, -1 = ground
  int child = 0;          // body index
  Frame parent_frame{};   // joint frame F on the parent (in the parent body frame, or world for ground)
  Frame child_frame{};    // joint frame M on the child, in the child body frame
  Vector3 axis{};         // in F: rotation/translation axis; plane normal for planar
  Vector3 axis2{};        // universal only: second axis, in M, perpendicular to axis at q = 0
  std::vector<Number> initial_position;  // nq values (quaternion w,x,y,z for spherical; x,y,z,w,x,y,z for free)
  std::vector<Number> initial_velocity;  // nv values
  int file_index = -1;    // position in the file's `joints` (the loader reorders joints parent-first); -1 if none
};

// A function of time: value, first and second derivatives are all defined (see docs/model-format.md).
struct TimeFunction {
  enum class Kind {
    constant,
    step,
    ramp,
    sine,
    smooth_step,
    half_sine_bump,
    table,
    input,
    iso8608_road,
    haversine_bump,
    sine_sweep,
    velocity_sweep,
    profile,
    cylinder_bump
  };
  Kind kind = Kind::constant;
  // Coefficients by kind (unused ones stay 0):
  //   constant: value
  //   step: t0, before, after
  //   ramp: t0, slope, offset               f = offset + slope * max(0, t - t0)
  //   sine: amplitude, frequency [Hz], phase [rad], offset
  //   smooth_step: t0, t1, from, to           cubic, zero slope at both ends
  //   half_sine_bump: t0, duration, height
  //   input: gain * u for the model input `input` (Model::inputs); `value` holds gain * the input's default, the
  //          value every batch run uses. Compiled as a constant whose one coefficient the stepping API rewrites.
  //   haversine_bump: t0, duration, height         (height / 2)(1 - cos(2 pi (t - t0) / duration)) on the bump
  //   sine_sweep: amplitude, f0, f1 [Hz], t0, duration        linear chirp of constant amplitude
  //   velocity_sweep: velocity, f0, f1 [Hz], t0, duration     linear chirp of constant velocity amplitude
  //   profile: a measured road, `table` holding (distance [m], height [m]) read from `file`, run at `speed` from
  //          `distance` at t = 0; compiled as the time table t_k = (x_k - distance) / speed
  //   cylinder_bump: t0 (first contact), speed, radius (the obstacle's), tire_radius: a half-cylinder lying across
  //          the road as a rigid-ring tire of that radius rolls over it (the wheel centre's lift)
  //   iso8608_road: gd_n0 [m^3], speed [m/s], distance [m at t = 0], n_min, n_max [cycles/m], seed, coherence,
  //          fade_in [m]; plain `harmonics`, `track` (0 left, 1 right) and `instance` (set per instance by
  //          key_instance, so the phases are those of (seed, instance, track): dynamics/road_profile.hpp).
  Number t0{}, t1{}, value{}, before{}, after{}, slope{}, offset{}, amplitude{}, frequency{}, phase{}, from{}, to{},
      duration{}, height{};
  Number gd_n0{}, speed{}, distance{}, n_min{}, n_max{}, seed{}, coherence{}, fade_in{};
  Number f0{}, f1{}, velocity{};
  Number radius{}, tire_radius{};
  int harmonics = 0;
  int track = 0;
  bool vary_by_instance = true;  // false: every instance gets the road of (seed, track) alone
  long long instance = 0;
  std::vector<std::array<Number, 2>> table;  // table: (t, value) points, strictly increasing t; profile: (x, z)
  std::string file;                          // profile: the file it was read from, as resolved
  int input = -1;     // input: index into Model::inputs
  double gain = 1.0;  // input: the factor on u (a plain number)
};

// A named channel the stepping API sets per instance and holds constant over each advance (docs/model-format.md,
// "Inputs"). Plain numbers: parameters cannot set them. Batch runs use `value`.
struct Input {
  std::string name;
  double value = 0.0;  // default
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  std::string unit;
  std::string description;
};

// A point on a body; on ground it may move along `motion_direction` by `motion` (base excitation).
struct BodyPoint {
  int body = -1;  // -1 = ground
  Vector3 point{};  // in the body frame (world for ground)
  bool moves = false;
  Vector3 motion_direction{};  // world, normalized when evaluated
  TimeFunction motion{};
};

enum class ForceType { tsda, rsda, joint_actuator, bushing, tire };

// The formula of a handling tire (tire/magic_formula.hpp, tire/fiala.hpp), from its `.tir` file's format.
enum class TireFormula { magic_formula, fiala };

enum class TsdaActs { both, compression, tension };

struct ForceElement {
  std::string name;
  ForceType type = ForceType::tsda;
  // tsda: translational spring-damper-actuator between two points;
  // tension f = k (l - l0) + c l' - preload + actuator(t) (preload > 0 pushes the ends apart at l = l0)
  BodyPoint end1{}, end2{};
  Number stiffness{}, damping{}, free_length{}, preload{};
  bool has_actuator = false;
  TimeFunction actuator{};
  // tsda: the spring's and the damper's force as piecewise-linear tables instead of stiffness and damping:
  // (l - l0, f) and (dl/dt, f) points with strictly increasing first entries, linear beyond the ends with the
  // end segments' slopes (progressive springs; dampers with their own bump and rebound branches). Empty: linear.
  std::vector<std::array<Number, 2>> spring_table, damper_table;
  // tsda: which sign of f it can have. compression: f <= 0 (a tire on the road, a bump stop: the total force,
  // damping included, is cut at zero, so it never pulls; it lifts off); tension: f >= 0 (a rope, a rebound strap).
  TsdaActs acts = TsdaActs::both;
  // rsda (on a revolute joint): torque = -(k (q - zero_angle_effective) + c q') + actuator(t);
  // joint_actuator: generalized force actuator(t) on joint coordinate `index`.
  int joint = -1;
  int index = 0;
  Number zero_angle{};
  // rsda: true takes the deflection at t = 0 as the shortest angle (zero_angle shifted by whole turns).
  bool shortest_initial_deflection = true;
  // bushing: a linear six-axis spring-damper between frame1 on end1.body and frame2 on end2.body (body -1 =
  // ground, frame in the world): translational stiffness and damping along frame 1's axes, then rotational about
  // them (dynamics/bushing.hpp).
  Frame frame1{}, frame2{};
  std::array<Number, 6> bushing_stiffness{}, bushing_damping{};
  // tire (dynamics/tire_force.hpp): a handling tire on wheel body end1.body with its centre at end1.point and its
  // spin axis tire_axis (the wheel's frame; ISO: pointing to the wheel's left), on the road plane z = road(t)
  // (end1.motion when end1.moves, else z = 0). stiffness, damping: the vertical spring-damper of the tire's
  // deflection; free_length: the unloaded radius; tire_speed: v0 of the slips' reference speed
  // sqrt(Vx^2 + v0^2). The formula's coefficients come from the `.tir` file (TirCoefficients, or the six
  // FialaParameters).
  Vector3 tire_axis{};
  TireFormula tire_formula = TireFormula::magic_formula;
  std::string tire_file;
  std::vector<double> tire_coefficients;
  Number tire_speed{};
};

enum class OutputKind {
  joint_coordinate,
  joint_velocity,
  joint_acceleration,
  body_position,
  body_orientation,
  body_velocity,
  spring_length,
  spring_force,
  kinetic_energy,
  potential_energy,
  total_energy,
  damper_force,
  bushing_force,
  tire_force,
  tire_slip
};

struct Output {
  std::string name;
  OutputKind kind = OutputKind::joint_coordinate;
  int joint = -1;
  int index = 0;       // joint coordinate/velocity index within the joint
  int body = -1;
  Vector3 point{};     // body_position / body_velocity: point in the body frame
  int component = 0;   // position: 0..2 (x,y,z); orientation: 0..3 (w,x,y,z); velocity: 0..5 (wx,wy,wz,vx,vy,vz);
                       // bushing_force: 0..5 (fx,fy,fz,mx,my,mz); tire_force: 0..3 (fx,fy,fz,mz);
                       // tire_slip: 0..2 (kappa, alpha, camber)
  int force = -1;      // spring_length / spring_force: index into forces
};

// A named KPI over an output (docs/model-format.md, "KPIs"); `type` is a KpiType (model/compiled_model.hpp).
struct Kpi {
  std::string name;
  int type = 0;
  int output = -1;  // index into Model::outputs
  double scale = 1.0, threshold = 0.0, from = 0.0;
  std::string unit;  // of the value, from the output's unit and the type
};

// Constraints that close kinematic loops (docs/model-format.md, "Loops"). Cut joints relate a frame 1 fixed on
// body1 to a frame 2 fixed on body2; distances and rods relate two body points.
enum class LoopType { cut_spherical, cut_revolute, cut_universal, cut_planar_revolute, distance, rod };

struct Loop {
  std::string name;
  LoopType type = LoopType::cut_spherical;
  int body1 = -1;        // body index, -1 = ground
  int body2 = -1;        // body index, -1 = ground; never equal to body1
  Frame frame1{};        // cut joints: frame 1 on body1 (in body1's frame, world for ground)
  Frame frame2{};        // cut joints: frame 2 on body2
  Vector3 axis{};        // cut_revolute, cut_universal, cut_planar_revolute: axis in frame 1 (cut_revolute: the
                         // same components give frame 2's axis)
  Vector3 axis2{};       // cut_universal: second axis, in frame 2
  Vector3 point1{};      // distance, rod: point on body1 (body frame; world for ground)
  Vector3 point2{};      // distance, rod: point on body2
  Number length{};       // distance, rod: |p2 - p1|, > 0
  bool length_from_design = false;  // "length": "design": |p2 - p1| with every joint at zero coordinates,
                                    // recomputed whenever parameters change (resolve_design_lengths)
  Number mass{};         // rod: mass lumped on the two ends (seed 001 eqs. 18-19), > 0
  int file_index = -1;   // position in the file's `loops`
};

// A rheonomic constraint q[joint, index] - function(t) = 0 on a joint whose coordinates are their own rates.
struct Driver {
  std::string name;
  int joint = -1;  // index into Model::joints (final order)
  int index = 0;   // coordinate within the joint (< nq == nv)
  TimeFunction function{};
};

// A velocity coordinate the model names as independent (docs/model-format.md, "Independent coordinates").
struct IndependentCoordinate {
  int joint = -1;  // index into Model::joints (final order)
  int index = 0;   // velocity coordinate within the joint (< nv)
};

struct SimulationDefaults {
  double t_end = 1.0;
  double dt_out = 0.01;
  std::string integrator = "dopri5";
  double rtol = 1e-6;
  double atol = 1e-8;
  double h = 1e-3;
  std::optional<double> rho_inf;  // the implicit integrators' spectral radius at infinity (absent: 0)
};

// A template instance of the file's `subsystems` (docs/model-format.md, "Subsystems"), after the loader expanded it
// into ordinary entries: which entries it made and what they are for. `roles` names the parts that rigs and
// `myriad info` look for: "chassis" (a body or ground), "upright", "wheel" (bodies), "wheel_mount" (the joint
// whose child frame origin is the wheel centre), "spring", "damper", "tire" (forces), "spin_axis_y" ("1" on a
// left corner, whose outward spin axis is +y of the chassis frame, "-1" on a mirrored right one).
// A template's point-follower tire: its ground point lies this far (m) below the road, its free length this plus
// the radius (model/corner_parts.cpp builds it, analysis/kc_rig.cpp reads the loaded radius back from it).
constexpr double kTireGroundDepth = 1.0;

struct Subsystem {
  std::string name;           // the corner's name ("front" or, mirrored to both sides, "front_left"/"front_right")
  std::string template_name;  // "double_wishbone", ...
  std::string pointer;        // "/subsystems/0" in the file
  std::string side;           // "left" or "right"
  std::vector<std::pair<std::string, std::string>> parts;  // (kind: body, joint, loop, force, output; name)
  std::vector<std::pair<std::string, std::string>> roles;  // (role, entry name)

  const std::string* role(const std::string& key) const {
    for (const auto& r : roles)
      if (r.first == key) return &r.second;
    return nullptr;
  }
};

// What a source (a paper) counts for the system the model reproduces, printed by `myriad info` beside the model's
// own counts (docs/model-format.md, "reference_counts"). -1: not given.
struct ReferenceCounts {
  std::string source;  // empty: no block
  std::string note;    // why the counts differ
  int bodies = -1, joints = -1, coordinates = -1, constraints = -1, degrees_of_freedom = -1;
};

// How the rods' coupled inertia enters the equations of motion (docs/model-format.md, "Rods"): exactly, or with
// its coupling part extrapolated from the accelerations of the last 1, 2 or 3 accepted states (seed 001 sec. 4-5).
enum class RodInertia : int { exact = 0, point = 1, linear = 2, quadratic = 3 };

struct Model {
  std::string name;
  std::string description;
  std::string source_file;  // path the model was loaded from, used in error messages
  std::vector<Parameter> parameters;
  std::vector<Body> bodies;
  std::vector<Joint> joints;  // spanning tree, parent-first (the loader orders them); defines the q/v layout
  std::vector<ForceElement> forces;
  std::vector<Output> outputs;
  Vector3 gravity{};
  SimulationDefaults simulation{};
  std::vector<Loop> loops;      // loop-closing constraints, file order
  std::vector<Kpi> kpis;        // named KPIs, file order
  std::vector<Driver> drivers;  // rheonomic drivers, file order
  std::vector<IndependentCoordinate> independent;  // named independent coordinates (empty: chosen by pivoting)
  std::vector<Input> inputs;    // file order (JSON object member order)
  std::vector<Subsystem> subsystems;  // the templates the loader expanded (their parts are in the lists above)
  ReferenceCounts reference_counts;
  RodInertia rod_inertia = RodInertia::exact;
};

inline const char* loop_type_name(LoopType type) {
  switch (type) {
    case LoopType::cut_spherical: return "cut_spherical";
    case LoopType::cut_revolute: return "cut_revolute";
    case LoopType::cut_universal: return "cut_universal";
    case LoopType::cut_planar_revolute: return "cut_planar_revolute";
    case LoopType::distance: return "distance";
    case LoopType::rod: return "rod";
  }
  return "unknown";
}

// Number of scalar constraint equations of a loop: 3, 5, 4, 2, 1, 1 in LoopType order.
inline int loop_equation_count(LoopType type) {
  switch (type) {
    case LoopType::cut_spherical: return 3;
    case LoopType::cut_revolute: return 5;
    case LoopType::cut_universal: return 4;
    case LoopType::cut_planar_revolute: return 2;
    case LoopType::distance:
    case LoopType::rod: return 1;
  }
  return 0;
}

// Degrees of freedom of each joint type: (position coordinates nq, velocity coordinates nv).
int joint_nq(JointType type);
int joint_nv(JointType type);
const char* joint_type_name(JointType type);

// The force type as the model file writes it ("tsda", "rsda", "joint_actuator", "bushing", "tire").
const char* force_type_name(ForceType type);

// Returns a copy of `model` with every parameter reference replaced by `values[parameter]` (values has one entry
// per model parameter) and marked literal.
Model apply_parameters(const Model& model, const std::vector<double>& values);

// Keys every instance-keyed time function (iso8608_road) of a literal model to ensemble instance `instance`: its
// random phases are then those of (seed, instance, track), whatever the ensemble's size or order.
void key_instance(Model& literal, long long instance);

// Whether the model has a time function whose values depend on the instance index (key_instance).
bool has_instance_keyed_functions(const Model& model);

// The parameter defaults, in Model::parameters order.
std::vector<double> default_parameter_values(const Model& model);

}  // namespace myriad
