#pragma once
// The quasi-static kinematics-and-compliance rig of a template corner (docs/model-format.md, "Subsystems";
// `myriad kc`): the chassis held in its initial pose, the wheel centre pushed through a travel sweep along the
// chassis z axis, and at each travel the corner's closure equations and the travel condition solved together
// (Newton on the constraint Jacobian of the host kinematics, constraints/model_kinematics.hpp, minimum-norm steps so
// that a free wheel spin stays where it is). With rigid joints the travel fixes the corner's pose, so the static
// equilibrium under the rig's vertical wheel force is the virtual-work balance F ds = T dl of the spring alone
// (damper, gravity and tire left out, as on a K&C rig that reports wheel rate). Host only (Eigen).
//
// Per travel s (m, + bump: the wheel centre up relative to the chassis):
//   toe = atan2(a_x, a_y), camber = atan2(-a_z, hypot(a_x, a_y))  with a the wheel's outward spin axis in chassis
//     axes, mirrored to a left corner's (y -> -y) on the right: toe-in and camber with the top outward positive
//     on either side (ISO 8855 / SAE J670 agree on these two);
//   wheel centre (chassis frame), spring length l, motion ratio -dl/ds;
//   wheel load F = T(l) dl/ds (N, upward on the wheel; T the spring's tension with its preload), wheel rate dF/ds
//     (central difference of F over +-1e-5 m);
//   roll-centre height: in the front view, the instant centre of the upright's motion (the point of zero velocity
//     in the y-z plane, from the wheel centre's velocity and the upright's angular velocity about x), joined to the
//     contact point below the wheel centre (loaded radius = the tire's radius less its deflection), crosses the
//     chassis centre line y = 0 at the roll centre; its height above the contact point.
#include <string>
#include <vector>

#include "model/model.hpp"

namespace myriad {

struct KcOptions {
  std::string subsystem;  // empty: the model's only subsystem
  double travel = 0.08;   // sweep -travel .. +travel (m)
  int points = 33;        // >= 2
  double loaded_radius = -1.0;  // < 0: the template tire's radius less its deflection (0 without a tire)
};

struct KcCurves {
  std::string subsystem;
  std::string side;
  std::vector<std::string> columns;   // travel, toe, camber, wheel_center_x/y/z, spring_length, motion_ratio,
                                      // wheel_load, wheel_rate, roll_centre_height
  std::vector<std::string> units;
  std::vector<std::vector<double>> rows;
};

// The model must have had its parameters applied. Throws std::invalid_argument for bad options or a model without
// the named subsystem, std::runtime_error when the corner cannot be moved to a travel (the message says which and
// the residual). O(points * Newton iterations * constraint evaluation).
KcCurves kinematics_and_compliance(const Model& literal_model, const KcOptions& options);

}  // namespace myriad
