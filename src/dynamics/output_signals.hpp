#pragma once
// The named output signals of a model (docs/model-format.md, "Outputs"), evaluated from a state whose
// kinematics are in `w` (tree_kinematics) and whose accelerations are qdd. O(1) per signal but the energies (O(n)).
#include "dynamics/energy.hpp"

namespace myriad {

enum OutputCode : int {
  kOutJointCoordinate = 0,
  kOutJointVelocity,
  kOutJointAcceleration,
  kOutBodyPosition,
  kOutBodyOrientation,
  kOutBodyVelocity,
  kOutSpringLength,
  kOutSpringForce,
  kOutKineticEnergy,
  kOutPotentialEnergy,
  kOutTotalEnergy,
  kOutDamperForce,
  kOutBushingForce,
  kOutTireForce,
  kOutTireSlip,
};

// Whether any output reads the accelerations qdd (a joint acceleration): the others need the kinematics in `w`
// only (each force signal evaluates its element from them), so a recorder can skip the forces and the ABA.
MYRIAD_HD_INLINE bool outputs_read_accelerations(const CompiledModel& model) {
  for (int s = 0; s < model.n_outputs; ++s)
    if (model.outputs[s].kind == kOutJointAcceleration) return true;
  return false;
}

// Whether a signal reads the bodies' placements or velocities (the tree's kinematics pass): every kind but the
// joints' own coordinates and velocities, which are read from the state.
MYRIAD_HD_INLINE bool outputs_read_kinematics(const CompiledModel& model) {
  for (int s = 0; s < model.n_outputs; ++s)
    if (model.outputs[s].kind != kOutJointCoordinate && model.outputs[s].kind != kOutJointVelocity) return true;
  return false;
}

template <class K>
MYRIAD_HD double output_signal(const CompiledModel& model, const K& k, double t, const double* q, const double* v,
                               const double* qdd, const TreeWorkspace<double>& w, int index) {
  const CompiledOutput& o = model.outputs[index];
  switch (o.kind) {
    case kOutJointCoordinate: return q[model.joints[o.joint].q_index + o.index];
    case kOutJointVelocity: return v[model.joints[o.joint].v_index + o.index];
    case kOutJointAcceleration: return qdd[model.joints[o.joint].v_index + o.index];
    case kOutBodyPosition: {
      Vec3<double> p, vel;
      body_point_state(w, o.body, load_vec3<double>(k, o.constants), p, vel);
      return p[o.component];
    }
    case kOutBodyOrientation: {
      const Quat<double> quat = quat_from_rotation(w.X_world[o.body].R);
      const double c[4] = {quat.w, quat.x, quat.y, quat.z};
      return c[o.component];
    }
    case kOutBodyVelocity: {
      if (o.component < 3) return (w.X_world[o.body].R * w.velocity[o.body].angular)[o.component];
      Vec3<double> p, vel;
      body_point_state(w, o.body, load_vec3<double>(k, o.constants), p, vel);
      return vel[o.component - 3];
    }
    case kOutSpringLength: return tsda_state(model, k, w, model.forces[o.force], t).length;
    case kOutSpringForce: {
      const CompiledForce& f = model.forces[o.force];
      if (f.type == kTsda) return tsda_state(model, k, w, f, t).tension;
      return rsda_torque(model, k, f, q, v, t);
    }
    case kOutKineticEnergy: return kinetic_energy(model, k, w);
    case kOutPotentialEnergy: return potential_energy(model, k, t, q, w);
    case kOutTotalEnergy: return kinetic_energy(model, k, w) + potential_energy(model, k, t, q, w);
    case kOutDamperForce: {
      const CompiledForce& f = model.forces[o.force];
      if (f.type == kTsda) return tsda_state(model, k, w, f, t).damper;
      return -k[f.constants + kRsdaDamping] * v[model.joints[f.joint].v_index];
    }
    case kOutBushingForce:
      if constexpr (force_compiled<K>(kBushing)) {  // a model of a class without bushings has no such output
        // The load on body 2 (-F, -M of bushing_load) in frame 1's axes.
        const CompiledForce& f = model.forces[o.force];
        const BushingState<double> s = bushing_state(w, k, f);
        Vec3<double> F_W, M_W;
        bushing_load(k, f, s, F_W, M_W);
        const Vec3<double> load = transpose_times(s.R1, o.component < 3 ? F_W : M_W);
        return -load[o.component % 3];
      }
      return 0.0;
    case kOutTireForce:
    case kOutTireSlip:  // Fx, Fy, Fz, Mz in the contact frame; kappa, alpha, camber (dynamics/tire_force.hpp)
      if constexpr (force_compiled<K>(kTire)) {
        const CompiledForce& f = model.forces[o.force];
        const TimeValue road = time_function_value(model, k, f.motion1, t);
        const TireState<double> s = o.kind == kOutTireSlip ? tire_contact(w, k, f, road.value, road.rate)
                                                            : tire_state(w, k, f, road.value, road.rate);
        const double values[7] = {s.fx, s.fy, s.fz, s.mz, s.kappa, s.alpha, s.gamma};
        return values[(o.kind == kOutTireSlip ? 4 : 0) + o.component];
      }
      return 0.0;
    default: return 0.0;
  }
}

// Every output signal into row (n_outputs), as output_signal gives each, with each energy computed once: a model
// that outputs the kinetic, potential and total energy pays for one kinematics-wide sum of each, not two (the
// total is the same sum of the same two numbers, so the same bits).
template <class K>
MYRIAD_HD void output_row(const CompiledModel& model, const K& k, double t, const double* q, const double* v,
                          const double* qdd, const TreeWorkspace<double>& w, double* row) {
  double kinetic = 0.0, potential = 0.0;
  bool have_kinetic = false, have_potential = false;
  for (int s = 0; s < model.n_outputs; ++s) {
    const int kind = model.outputs[s].kind;
    if (kind != kOutKineticEnergy && kind != kOutPotentialEnergy && kind != kOutTotalEnergy) {
      row[s] = output_signal(model, k, t, q, v, qdd, w, s);
      continue;
    }
    if (kind != kOutPotentialEnergy && !have_kinetic) {
      kinetic = kinetic_energy(model, k, w);
      have_kinetic = true;
    }
    if (kind != kOutKineticEnergy && !have_potential) {
      potential = potential_energy(model, k, t, q, w);
      have_potential = true;
    }
    row[s] = kind == kOutKineticEnergy ? kinetic : (kind == kOutPotentialEnergy ? potential : kinetic + potential);
  }
}

}  // namespace myriad
