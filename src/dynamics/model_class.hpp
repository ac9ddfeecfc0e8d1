#pragma once
// A model class: which joint types and force elements a compiled copy of the per-instance code handles. It rides on
// the constants' type K, the one type every per-instance function already takes, so that a kernel specialized on a
// class (constants of type ClassConstants<Class, ...>) compiles only those joints' and elements' code: the switches
// of joint_model.hpp and force_elements.hpp drop the other cases with if constexpr. Constants of any other type
// (a pointer, StridedConstants) belong to AnyModelClass and handle every model. Host code runs a model on a
// class's code only when model_in_class says it belongs; the results are then the generic code's, bit for bit
// (the cases a model takes are the same code).
//
// Why: on the GPU one kernel is one register allocation over all the code it can reach, and the joints and elements
// a model never has fill it as much as those it has (issue 19, item 4; bench/results/kernel_resources.md).
#include <type_traits>

#include "core/hd.hpp"
#include "model/compiled_model.hpp"

namespace myriad {

// Joint type codes as stored in CompiledJoint::type (the order of JointType).
enum JointCode : int {
  kRevolute = 0,
  kPrismatic = 1,
  kCylindrical = 2,
  kUniversal = 3,
  kSpherical = 4,
  kPlanar = 5,
  kFree = 6,
  kFixed = 7,
};

// Force element codes as stored in CompiledForce::type (the order of ForceType).
enum ForceCode : int { kTsda = 0, kRsda = 1, kJointActuator = 2, kBushing = 3, kTire = 4 };

template <unsigned JointCodes, unsigned ForceCodes>
struct ModelClass {
  static constexpr bool joint(int code) { return ((JointCodes >> code) & 1u) != 0u; }
  static constexpr bool force(int code) { return ((ForceCodes >> code) & 1u) != 0u; }
};

using AnyModelClass = ModelClass<~0u, ~0u>;

// Joints about or along one fixed axis (revolute, prismatic; fixed) with springs, dampers and actuators (tsda, rsda,
// joint actuators): the quarter car and the pendulums, whose GPU kernels then hold no quaternion, multi-axis joint,
// bushing or tire code.
using AxisJointsClass = ModelClass<(1u << kRevolute) | (1u << kPrismatic) | (1u << kFixed),
                                   (1u << kTsda) | (1u << kRsda) | (1u << kJointActuator)>;

template <class K, class = void>
struct model_class_of {
  using type = AnyModelClass;
};

template <class K>
struct model_class_of<K, std::void_t<typename K::model_class>> {
  using type = typename K::model_class;
};

// Whether code compiled for constants of type K handles joints (forces) of this code.
template <class K>
MYRIAD_HD_INLINE constexpr bool joint_compiled(int code) {
  return model_class_of<K>::type::joint(code);
}

template <class K>
MYRIAD_HD_INLINE constexpr bool force_compiled(int code) {
  return model_class_of<K>::type::force(code);
}

// The most velocity coordinates of any joint code for K handles (at least 1; joint_nv in model/model.cpp): sizes the
// per-joint arrays (subspace columns, D = S^T IA S), which for one-axis joints then fit in registers.
template <class K>
MYRIAD_HD_INLINE constexpr int joint_nv_bound() {
  using Class = typename model_class_of<K>::type;
  if (Class::joint(kFree)) return 6;
  if (Class::joint(kSpherical) || Class::joint(kPlanar)) return 3;
  if (Class::joint(kCylindrical) || Class::joint(kUniversal)) return 2;
  return 1;
}

// The model a copy of the per-instance code is compiled for, when the constants' type K names one (K::model_constant,
// a kernel specialized on one model: kernels/model_kernels.cu): model_of<K>(given) is then that constant, whose
// loads the compiler folds (loop bounds, joint types, offsets), else `given`. Functions that take the model by
// pointer or reference resolve it through this at their entry, so that the constant reaches them past a call the
// compiler did not inline. The constant must equal `given` (the host checks it before such a launch).
template <class K, class = void>
struct model_constant_of {
  static constexpr bool known = false;
};

template <class K>
struct model_constant_of<K, std::void_t<typename K::model_constant>> {
  static constexpr bool known = true;
};

template <class K>
MYRIAD_HD_INLINE const CompiledModel& model_of(const CompiledModel& given) {
  if constexpr (model_constant_of<K>::known)
    return K::model_constant::get();
  else
    return given;
}

// Constants read through `inner` (a pointer, StridedConstants), for code compiled for `Class`.
template <class Class, class Inner>
struct ClassConstants {
  using model_class = Class;
  Inner inner;
  MYRIAD_HD_INLINE double operator[](int c) const { return inner[c]; }
};

// Constants read through `inner`, for code compiled for one model: Model::get() returns the model (a constant the
// compiler sees, model_of) and Model::model_class the joints and elements it has (joint_codes_of, force_codes_of).
template <class Model, class Inner>
struct ModelConstants {
  using model_class = typename Model::model_class;
  using model_constant = Model;
  Inner inner;
  MYRIAD_HD_INLINE double operator[](int c) const { return inner[c]; }
};

// The joint and force codes a model has, as ModelClass's bit sets: the smallest class that handles it.
constexpr unsigned joint_codes_of(const CompiledModel& model) {
  unsigned codes = 0u;
  for (int i = 0; i < model.n_bodies; ++i) codes |= 1u << model.joints[i].type;
  return codes;
}

constexpr unsigned force_codes_of(const CompiledModel& model) {
  unsigned codes = 0u;
  for (int e = 0; e < model.n_forces; ++e) codes |= 1u << model.forces[e].type;
  return codes;
}

// Whether every joint and force element of `model` is one Class handles. O(bodies + forces).
template <class Class>
bool model_in_class(const CompiledModel& model) {
  for (int i = 0; i < model.n_bodies; ++i)
    if (!Class::joint(model.joints[i].type)) return false;
  for (int e = 0; e < model.n_forces; ++e)
    if (!Class::force(model.forces[e].type)) return false;
  return true;
}

}  // namespace myriad
