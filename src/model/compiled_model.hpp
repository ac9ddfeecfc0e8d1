#pragma once
// The compiled model: a flat, trivially copyable description of topology and index layout, shared read-only by
// every instance (host memory for the CPU paths, one cudaMemcpy for the GPU). Numbers that parameters may change
// are not here: they live in each instance's constants array, whose layout this struct records (offsets).
//
// Bodies are numbered in tree order: tree body k is the child of joint k, and joints are parent-first, so a
// forward loop over k visits parents before children.
#include <type_traits>

#include "model/model_limits.hpp"  // the capacities kMaxBodies, kMaxForces, ... and why they are what they are

namespace myriad {

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
  // Revolute and prismatic joints only (has_placement_constants): X_PC = X_PF X_FM(q) X_CM^-1 and the
  // subspace in C coordinates, folded per instance so the tree algorithms need no 3 x 3 products for them
  // (lay_out in compile.cpp; RBDA eq. 2.38, Rodrigues: Rot(a, q) = 1 + sin q [a]x + (1 - cos q) [a]x^2):
  //   revolute:  R_PC = A0 + sin q A1 + (1 - cos q) A2,   p_PC = b0 + sin q b1 + (1 - cos q) b2
  //   prismatic: R_PC = A0,                               p_PC = b0 + q b1          (A1, A2, b2 zero)
  kJointPlacementA0 = 33,  // 9 each, row-major
  kJointPlacementA1 = 42,
  kJointPlacementA2 = 51,
  kJointPlacementB0 = 60,  // 3 each
  kJointPlacementB1 = 63,
  kJointPlacementB2 = 66,
  kJointSubspaceC = 69,  // the motion subspace column in C coordinates: angular, then linear (6)
  kJointPlacementConstantCount = 75,
};

// Body constants block: mass, centre of mass in the body frame, centroidal inertia ixx iyy izz ixy ixz iyz.
enum BodyConstant : int {
  kBodyMass = 0,
  kBodyCenterOfMass = 1,
  kBodyInertia = 4,
  kBodyConstantCount = 10,
};

// Force constants blocks. TSDA: two points (body frames), k, c, l0, directions of ground-point motion, preload.
enum TsdaConstant : int {
  kTsdaPoint1 = 0,
  kTsdaPoint2 = 3,
  kTsdaStiffness = 6,
  kTsdaDamping = 7,
  kTsdaFreeLength = 8,
  kTsdaDirection1 = 9,
  kTsdaDirection2 = 12,
  kTsdaPreload = 15,
  kTsdaConstantCount = 16,
};
// Bushing: frame 1 in body 1 (R_B1F1 row-major, p_B1F1), frame 2 in body 2, stiffness and damping (x, y, z,
// rx, ry, rz along frame 1's axes).
enum BushingConstant : int {
  kBushingRotation1 = 0,
  kBushingOrigin1 = 9,
  kBushingRotation2 = 12,
  kBushingOrigin2 = 21,
  kBushingStiffness = 24,
  kBushingDamping = 30,
  kBushingConstantCount = 36,
};
// Tire: the wheel centre and unit spin axis in the wheel body's frame, the unloaded radius, the vertical
// stiffness and damping, v0 of the slips' reference speed, then the formula's coefficients (kTirCount of a Magic
// Formula file, or a Fiala tire's six: kTireFiala*). CompiledForce::index: the TireFormula.
enum TireConstant : int {
  kTireCenter = 0,
  kTireAxis = 3,
  kTireRadius = 6,
  kTireStiffness = 7,
  kTireDamping = 8,
  kTireSpeed = 9,
  kTireCoefficients = 10,
};
enum TireFialaCoefficient : int {
  kTireFialaRadius = 0,
  kTireFialaWidth,
  kTireFialaCSlip,
  kTireFialaCAlpha,
  kTireFialaUMin,
  kTireFialaUMax,
  kTireFialaCount
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

// Loop constants block (offsets from CompiledLoop::constants). Cut joints: frame 1 on body1 and frame 2 on body2;
// distances and rods: the two points as the frames' origins (rotations identity).
enum LoopConstant : int {
  kLoopRotation1 = 0,  // R_B1F1, 9
  kLoopOrigin1 = 9,    // p_B1F1, 3
  kLoopRotation2 = 12,
  kLoopOrigin2 = 21,
  kLoopAxis = 24,   // unit axis in frame 1 (cut_revolute: also frame 2's axis)
  kLoopAxis2 = 27,  // cut_universal: unit axis2 in frame 2
  kLoopE1 = 30,     // cut_revolute, cut_planar_revolute: the in-plane basis of the axis (planar_basis)
  kLoopE2 = 33,
  kLoopLength = 36,  // distance, rod
  kLoopMass = 37,    // rod: mass lumped on its two ends (seed 001 eqs. 18-19)
  kLoopConstantCount = 38,
};

// One loop-closure constraint: `rows` consecutive constraint equations from `row`. Every row of the loop has the
// same structural columns: the velocity coordinates of the joints on the tree paths from body1 and body2 to the
// root (path 1 first, then the part of path 2 below their lowest common body `lca`, which sits at slot
// `lca_slot` of path 1); `slots` of them listed from `slot_start` in CompiledConstraints::slot_column.
struct CompiledLoop {
  int type;          // LoopType as int
  int body1, body2;  // tree bodies, -1 = ground
  int constants;     // offset of the loop constants block
  int row, rows;
  int slot_start, slots;
  int path1_slots;     // slots of path 1 (path 2's own part follows them)
  int lca, lca_slot;  // lowest common tree body of the two paths (-1 = ground) and its first slot in path 1
};

// q[v_index] = f(t): one equation at `row`, one structural column.
struct CompiledDriver {
  int v_index;
  int time_function;
  int row;
  int slot_start;
};

enum LoopMethod : int { kLoopMethodNone = 0, kLoopMethodReduction = 1, kLoopMethodStandard = 2 };

// Constraint structure, coordinate partition and the block-triangular order of the dependent coordinates
// (loops/loop_structure.hpp). Row r of the Jacobian G has row_width[r] structural entries at columns
// slot_column[row_slots[r] + s]; its values live at row_values[r] + s of an instance's value array.
// Dependent coordinates are ordered block by block: block b owns dependent[block_start[b] .. block_start[b+1])
// and the equal number of rows block_rows[block_start[b] ..); the rows of block b touch no dependent coordinate
// of a later block, so blocks are solved in order (forward substitution by blocks).
struct CompiledConstraints {
  int m;  // scalar equations
  int n_loops, n_drivers;
  int n_rods;  // rods among the loops (their lumped inertia needs the reduction method)
  int rod_inertia;  // 0: exact; 1, 2, 3: the rods' coupling extrapolated through that many points (RodInertia)
  int method;             // LoopMethod
  int named_independent;  // 1: the model names its independent coordinates
  int n_independent;
  int n_blocks, largest_block;
  int n_slots;    // structural columns listed in slot_column (loops share theirs over their rows)
  int n_values;   // length of an instance's Jacobian value array (sum of row widths)
  int lu_values;  // sum of squared block sizes (factor storage)
  int independent[kMaxIndependent];  // velocity indices, ascending
  int dependent[kMaxConstraints];    // velocity indices, by block
  int block_rows[kMaxConstraints];
  int block_start[kMaxConstraints + 1];
  int block_lu[kMaxConstraints + 1];   // offset of block b's factors (size^2) in the factor storage
  int row_slots[kMaxConstraints];
  int row_width[kMaxConstraints];
  int row_values[kMaxConstraints];
  int slot_column[kMaxConstraintSlots];
  int slot_role[kMaxConstraintSlots];  // >= 0: position in dependent[]; < 0: -1 - position in independent[]
  int role_of_column[kMaxBodies * 6];  // the same role by velocity index
  CompiledLoop loops[kMaxLoops];
  CompiledDriver drivers[kMaxDrivers];
};

struct CompiledTimeFunction {
  int kind;         // TimeFunctionKind (an input compiles to kTfConstant)
  int constants;    // offset of the packed coefficients
  int points;       // table points (0 for other kinds)
  int input = -1;   // Model::inputs index when the function is an input (its one coefficient is gain * u)
  double gain = 1.0;
};

struct CompiledForce {
  int type;        // ForceType as int
  int body1, body2;  // tree bodies, -1 = ground (tsda)
  int joint;       // rsda, joint_actuator
  int index;       // joint_actuator coordinate
  int constants;
  int actuator;    // time function index or -1
  int motion1, motion2;  // time function indices for moving ground ends, or -1
  int acts;              // tsda: TsdaActs as int (0 both, 1 compression only, 2 tension only)
  // tsda: offsets in the constants of the spring's and the damper's (x, f) tables and their point counts; 0
  // points: the linear stiffness or damping constant.
  int spring_table, spring_points, damper_table, damper_points;
};

struct CompiledOutput {
  int kind;       // OutputKind as int
  int joint, index, body, component, force;
  int constants;  // offset of the body point (3) where used
};

// A KPI (kpi/kpi.hpp, docs/model-format.md "KPIs") over output `output`, scaled by `scale`, counting samples at
// t >= from; `threshold` for the fraction and time kinds.
enum KpiType : int {
  kKpiMean = 0,
  kKpiRms,
  kKpiMin,
  kKpiMax,
  kKpiMaxAbs,
  kKpiRmsChange,
  kKpiRmsChangeRelative,
  kKpiFractionAtLeast,
  kKpiFractionAtMost,
  kKpiTimeAtLeast,
  kKpiTimeAtMost,
  kKpiWkRms,
  kKpiWkVdv,
  kKpiWkCrestFactor,
  kKpiTypeCount,
};
// The kinds that weight their output by ISO 2631-1 Wk (and so need an acceleration).
inline constexpr bool kpi_is_wk_weighted(int type) {
  return type == kKpiWkRms || type == kKpiWkVdv || type == kKpiWkCrestFactor;
}
struct CompiledKpi {
  int type;    // KpiType
  int output;  // output index
  double scale, threshold, from;
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
  CompiledConstraints constraints;  // m == 0 for tree models
  int n_kpis;
  CompiledKpi kpis[kMaxKpis];
};

static_assert(std::is_trivially_copyable<CompiledModel>::value, "CompiledModel must be memcpy-able to a device");

}  // namespace myriad
