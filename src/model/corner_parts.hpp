#pragma once
// Pieces every suspension-corner template shares (model/double_wishbone.cpp, model/macpherson.cpp, ...): the
// upright's ball joint on an arm, the wheel with its mount and point-follower tire, the spring and damper with their
// outputs. Internal to the loader; the templates call them in this order so that part names and outputs are alike.
#include <string>
#include <vector>

#include "model/template_parts.hpp"

namespace myriad {

// The upright hung from `arm` at the ball joint `ball`, turning about `steering` (a direction): a universal (chassis
// x, then y) on a light kingpin body (the template's optional `kingpin` block; default 0.1 kg, 4e-6 kg m^2) and a
// revolute about the steering axis. The loop code takes only joints whose coordinates are their own rates, so no
// spherical joint may stand in the tree of a model with loops. Fails at `at` when the steering axis lies within 6
// degrees of the chassis x-y plane (the three axes would not be independent). Parts: body kingpin, joints
// lower_ball, steering_axis.
void add_upright_ball(TemplateOutput& out, const TemplateInput& in, const std::string& arm, const std::string& upright,
                      const HardPoint& ball, const HardPoint& steering, const JsonNode& at);

// The `wheel` block's body at the wheel centre (fixed to the upright, or a revolute about the outward spin axis with
// "spin": true), the optional `tire` block's point follower, and the outputs wheel_z and tire_force. Sets the roles
// upright, wheel, wheel_mount, spin_axis_y and tire. Returns the wheel's name.
std::string add_wheel_and_tire(TemplateOutput& out, const TemplateInput& in, const std::string& upright,
                               const HardPoint& wheel_center);

// The `spring` block as a tsda from spring_chassis (on the chassis) to spring_body on `body`, the `damper` block
// from damper_chassis to damper_body, with the outputs spring_force, spring_length, damper_force; roles spring,
// damper.
void add_spring_and_damper(TemplateOutput& out, const TemplateInput& in, const std::string& body,
                           const HardPoint& spring_chassis, const HardPoint& spring_body,
                           const HardPoint& damper_chassis, const HardPoint& damper_body);

// Copies the keys of a force block (`spring`, `damper`, `uca_bushing`) into a tsda entry as they are, refusing
// any key not in `keys`.
void copy_keys(const JsonNode& block, const std::vector<std::string>& keys, Json& entry);

// An output entry {"name", "type"}; the caller adds what the type reads.
Json output(const std::string& name, const std::string& type);

// The optional `tierod` block's mass ({"mass": m}: a massive rod loop), or null (a massless distance loop).
Json tierod_mass_of(const TemplateInput& in);

// The optional damper hardpoints: both or neither (then the spring's); fails at `hardpoints` otherwise.
void default_damper_points(std::map<std::string, HardPoint>& hp, const TemplateInput& in, const char* chassis_key,
                           const char* body_key, const char* spring_chassis_key, const char* spring_body_key);

}  // namespace myriad
