#pragma once
// The toolkit templates expand with (model/subsystems.hpp): hardpoints read as linear expressions of parameters,
// mirrored to the right side, and written back as the plain model's JSON entries under the corner's name. Internal
// to the loader; errors are ModelErrors at the pointer of the template's own key.
#include <array>
#include <map>
#include <string>
#include <vector>

#include "model/json_reader.hpp"
#include "model/linear_expression.hpp"
#include "model/model.hpp"

namespace myriad {

using HardPoint = std::array<LinearExpression, 3>;

// What one template instance builds: the entries to append and its Subsystem record.
struct TemplateOutput {
  Json bodies = Json::array();
  Json joints = Json::array();
  Json loops = Json::array();
  Json forces = Json::array();
  Json outputs = Json::array();
  Subsystem info;
};

// One subsystem entry being expanded: its node, the parameters' defaults, the corner's name and side.
struct TemplateInput {
  JsonNode node;
  const std::map<std::string, double>* parameters;  // name -> default value
  std::string corner;                               // part names are corner + "_" + part
  bool mirror = false;                              // right side: y -> -y
  std::string chassis;                              // body name or "ground"
  const JsonNode* rig = nullptr;  // the file's four-post `rig`, if any: it drives every template tire's ground point
  HardPoint location{};  // added to every hardpoint and centre of mass before mirroring (the corner's place on the
                         // chassis: hardpoints may be given relative to the axle)
};

// A number or a linear expression of the file's parameters ("$a", "0.5*$a - $b"), at `node`.
LinearExpression read_expression(const JsonNode& node, const std::map<std::string, double>& parameters);
double default_value(const LinearExpression& e, const std::map<std::string, double>& parameters);
HardPoint read_hardpoint(const JsonNode& node, const std::map<std::string, double>& parameters);
HardPoint mirrored(const HardPoint& p, bool mirror);  // (x, -y, z) when mirror
HardPoint placed(const TemplateInput& in, const HardPoint& p);  // mirrored(p + location)
HardPoint difference(const HardPoint& a, const HardPoint& b);
Json json_value(const LinearExpression& e);  // a number, or the expression's text
Json json_point(const HardPoint& p);

// The template's hardpoints by name (mirrored as the side asks), each required unless listed in `optional`;
// fails at the missing key, and on a pair in `distinct` that coincides at the parameters' defaults, saying what
// the pair is for ("the tie rod would have zero length").
struct DistinctPair {
  const char* a;
  const char* b;
  const char* why;
};
std::map<std::string, HardPoint> read_hardpoints(const TemplateInput& in, const std::vector<std::string>& required,
                                                 const std::vector<std::string>& optional,
                                                 const std::vector<DistinctPair>& distinct);

// A body entry from the template's part block {"mass", "center_of_mass", "inertia"} (centre of mass in the chassis
// frame, mirrored; products ixy and iyz change sign on a mirrored side); `default_cm` when the block omits it.
Json body_entry(const TemplateInput& in, const std::string& part, const JsonNode& block, const HardPoint* default_cm);

// A frame {"origin": p} as joints and loops take it.
Json origin_frame(const HardPoint& p);

// A joint whose frames on parent and child both sit at hardpoint p (in the design position every body frame is the
// chassis frame, so the same coordinates serve both); the caller adds axes.
Json joint_entry(const std::string& name, const std::string& type, const std::string& parent, const std::string& child,
                 const HardPoint& p);

// A ball joint closing a loop at hardpoint p: a cut_spherical between the two bodies, frames at p on both.
Json ball_loop(const std::string& name, const std::string& body1, const std::string& body2, const HardPoint& p);

// A rigid link between p1 on body1 and p2 on body2, as a distance loop of design length (a massless tie rod), or a
// rod loop carrying `mass` (seed 001's rods) when mass is not null.
Json link_loop(const std::string& name, const std::string& body1, const HardPoint& p1, const std::string& body2,
               const HardPoint& p2, const Json& mass);

// A tsda between p1 on body1 and p2 on body2; the caller adds its coefficients.
Json tsda_entry(const std::string& name, const std::string& body1, const HardPoint& p1, const std::string& body2,
                const HardPoint& p2);

// Records a part in `out.info` and returns its full name (corner_part).
std::string add_part(TemplateOutput& out, const TemplateInput& in, const std::string& kind, const std::string& part);

}  // namespace myriad
