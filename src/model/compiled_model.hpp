#pragma once
// The compiled model: a flat, trivially copyable description of topology and index layout, shared read-only by
// every instance (host memory for the CPU paths, one cudaMemcpy for the GPU). Numbers that parameters may change
// are not here: they live in each instance's constants array, whose layout this struct records (offsets).
//
// Bodies are numbered in tree order: tree body k is the child of joint k, and joints are parent-first, so a
// forward loop over k visits parents before children.
#include <type_traits>

namespace myriad {

constexpr int kMaxBodies = 1024;
constexpr int kMaxForces = 512;
constexpr int kMaxTimeFunctions = 1024;
constexpr int kMaxOutputs = 256;

// Joint constants block (offsets from CompiledJoint::constants).
enum JointConstant : int {
  kJointRotationPF = 0,   // R_PF, 9 values row-major: parent joint frame in the parent body (world for ground)
  kJointOriginPF = 9,     // p_PoFo_P, 3
  kJointRotationCM = 12,  // R_CM, 9: child joint frame in the child body
  kJointOriginCM = 21,    // p_CoMo_C, 3
  kJointAxis = 24,        // unit axis in F (plane normal for planar), 3
  kJointAux1 = 27,        // universal: unit axis2 in M; planar: e1 in F, 3
  kJointAux2 = 30,        // planar: e2 in F, 3
  kJointConstantCount = 33,
};

// Body constants block: mass, centre of mass in the body frame, centroidal inertia ixx iyy izz ixy ixz iyz.
enum BodyConstant : int {
  kBodyMass = 0,
  kBodyCenterOfMass = 1,
  kBodyInertia = 4,
  kBodyConstantCount = 10,
};

// Force constants blocks. TSDA: two points (body frames), k, c, l0, directions of ground-point motion.
enum TsdaConstant : int {
  kTsdaPoint1 = 0,
  kTsdaPoint2 = 3,
  kTsdaStiffness = 6,
  kTsdaDamping = 7,
  kTsdaFreeLength = 8,
  kTsdaDirection1 = 9,
  kTsdaDirection2 = 12,
  kTsdaConstantCount = 15,
};
enum RsdaConstant : int { kRsdaStiffness = 0, kRsdaDamping = 1, kRsdaZeroAngle = 2, kRsdaConstantCount = 3 };

struct CompiledJoint {
  int type;       // JointType as int
  int parent;     // parent tree body, -1 = ground
  int q_index;    // first position coordinate
  int v_index;    // first velocity coordinate
  int nq, nv;
  int constants;  // offset of the joint constants block
  int body_constants;  // offset of the child body's constants block
};

struct CompiledTimeFunction {
  int kind;       // TimeFunctionKind
  int constants;  // offset of the packed coefficients
  int points;     // table points (0 for other kinds)
};

struct CompiledForce {
  int type;        // ForceType as int
  int body1, body2;  // tree bodies, -1 = ground (tsda)
  int joint;       // rsda, joint_actuator
  int index;       // joint_actuator coordinate
  int constants;
  int actuator;    // time function index or -1
  int motion1, motion2;  // time function indices for moving ground ends, or -1
};

struct CompiledOutput {
  int kind;       // OutputKind as int
  int joint, index, body, component, force;
  int constants;  // offset of the body point (3) where used
};

struct CompiledModel {
  int n_bodies;   // == number of joints
  int nq, nv;
  int n_forces, n_time_functions, n_outputs;
  int n_constants;   // length of each instance's constants array
  int gravity;       // offset of the gravity vector (3) in the constants
  int has_quaternions;  // any spherical or free joint
  CompiledJoint joints[kMaxBodies];
  int model_body[kMaxBodies];  // tree body k -> index in Model::bodies
  int tree_body[kMaxBodies];   // Model::bodies index -> tree body
  CompiledForce forces[kMaxForces];
  CompiledTimeFunction time_functions[kMaxTimeFunctions];
  CompiledOutput outputs[kMaxOutputs];
};

static_assert(std::is_trivially_copyable<CompiledModel>::value, "CompiledModel must be memcpy-able to a device");

}  // namespace myriad
