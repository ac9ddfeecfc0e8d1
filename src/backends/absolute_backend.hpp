#pragma once
// A model file's ensemble in seed 002's absolute coordinates (rp: Euler parameters, re: ZXZ Euler angles, rA:
// rotation matrices on SO(3)) on the CPU: every instance's model (its parameters applied) mapped onto bodies and
// GCONs (absolute/model_mapping.hpp, revolute drivers as the angle GCON, regular through whole turns), started from
// its joint-coordinate initial state (assembled when the model has loops or drivers), integrated on the index-3 DAE
// (rp, re: absolute/absolute_dynamics.hpp by an implicit method, Method::implicit: seed 003's family or backward
// Euler; rA: absolute/rotation_matrix_dynamics.hpp's backward Euler on SO(3), eqs. 32-38, the only method there)
// on the equal-step grid of integrators/implicit_outputs.hpp, and observed as the model's own output signals: at
// every output time the bodies' poses and velocities are turned back into joint coordinates and velocities
// (kinematics::joint_state_from_bodies; where an output reads joint accelerations, the engine's own forward dynamics
// at that state gives the bodies' accelerations and kinematics::joint_accelerations_from_bodies the joints') and the
// joint-coordinate engine's output_row evaluates the signals (and the KPIs) from them, so the two families' results
// are the same columns. The force elements' laws are the joint-coordinate engine's too (dynamics/force_laws.hpp),
// with the instance's packed constants.
//
// One instantiation of the engine runs every model: capacities kAbsoluteRunBodies and kAbsoluteRunGcons
// (absolute/absolute_run.hpp), the model's own counts at run time. Host only. Instance i's results depend on its
// inputs only (never on the thread count); a failing instance (Newton, a singular matrix, re's gimbal lock) ends
// with its status and NaN from there.
#include <string>
#include <vector>

#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_progress.hpp"
#include "ensemble/run_spec.hpp"
#include "model/compiled_model.hpp"
#include "model/model.hpp"

namespace myriad {

enum class AbsoluteCoordinates { rp, re, rA };

// "rp", "re" or "rA" to the enum; false for another name.
bool parse_absolute_coordinates(const std::string& name, AbsoluteCoordinates& out);

// Why `model` (its parameters applied) cannot run in absolute coordinates, or "" when it can: force elements,
// actuators or drivers the mapping cannot express, more bodies or GCONs than the capacities, more drivers or
// spring-damper-actuators than the engine holds. O(model).
std::string absolute_run_refusal(const Model& literal_model);

// Throws std::invalid_argument when the run cannot go ahead: spec.method is not Method::implicit, rA with another
// method than backward Euler, an ensemble built for another model, or absolute_run_refusal's reason (instance 0's
// parameters), prefixed with the model's name.
void check_absolute_run(AbsoluteCoordinates coordinates, const Model& model, const CompiledModel& compiled,
                        const Ensemble& ensemble, const RunSpec& spec);

// Runs the ensemble (spec.method must be Method::implicit; backward Euler for rA). Throws std::invalid_argument with
// absolute_run_refusal's reason, prefixed with the model's name. threads <= 0: all hardware threads.
EnsembleResult run_ensemble_absolute(AbsoluteCoordinates coordinates, const Model& model,
                                     const CompiledModel& compiled, const Ensemble& ensemble, const RunSpec& spec,
                                     const std::vector<double>& output_times, int threads, RunProgress* progress,
                                     bool keep_series);

}  // namespace myriad
