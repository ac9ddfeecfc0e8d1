#include "model/template_parts.hpp"

#include <cmath>

#include "model/number_text.hpp"

namespace myriad {

LinearExpression read_expression(const JsonNode& node, const std::map<std::string, double>& parameters) {
  const Json& json = node.json();
  if (json.is_number()) {
    const double value = json.get<double>();
    if (!std::isfinite(value)) node.fail("number is not finite");
    return constant_expression(value);
  }
  if (!json.is_string()) node.fail_type("a number or a \"$parameter\" expression");
  LinearExpression e;
  std::string reason;
  if (!parse_linear_expression(json.get<std::string>(), e, reason))
    node.fail("invalid parameter expression \"" + json.get<std::string>() + "\": " + reason);
  for (const auto& term : e.terms)
    if (parameters.count(term.first) == 0) node.fail("undefined parameter '" + term.first + "'");
  return e;
}

double default_value(const LinearExpression& e, const std::map<std::string, double>& parameters) {
  double value = e.constant;
  for (const auto& term : e.terms) value += term.second * parameters.at(term.first);
  return value;
}

HardPoint read_hardpoint(const JsonNode& node, const std::map<std::string, double>& parameters) {
  const std::vector<JsonNode> items = node.elements(3, "coordinates x, y, z (m, chassis frame)");
  return {read_expression(items[0], parameters), read_expression(items[1], parameters),
          read_expression(items[2], parameters)};
}

HardPoint mirrored(const HardPoint& p, bool mirror) {
  if (!mirror) return p;
  return {p[0], -1.0 * p[1], p[2]};
}

HardPoint placed(const TemplateInput& in, const HardPoint& p) {
  return mirrored({p[0] + in.location[0], p[1] + in.location[1], p[2] + in.location[2]}, in.mirror);
}

HardPoint difference(const HardPoint& a, const HardPoint& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }

Json json_value(const LinearExpression& e) {
  if (e.is_constant()) return Json(e.constant);
  return Json(linear_expression_text(e));
}

Json json_point(const HardPoint& p) { return Json::array({json_value(p[0]), json_value(p[1]), json_value(p[2])}); }

Json origin_frame(const HardPoint& p) {
  Json frame = Json::object();
  frame["origin"] = json_point(p);
  return frame;
}

std::map<std::string, HardPoint> read_hardpoints(const TemplateInput& in, const std::vector<std::string>& required,
                                                 const std::vector<std::string>& optional,
                                                 const std::vector<DistinctPair>& distinct) {
  const JsonNode node = in.node.at("hardpoints");
  node.expect_object();
  std::vector<std::string> known = required;
  known.insert(known.end(), optional.begin(), optional.end());
  node.allow_keys(known, "a " + in.node.at("template").as_string() + " template's hardpoints");
  std::map<std::string, HardPoint> points;
  for (const std::string& key : required) points[key] = placed(in, read_hardpoint(node.at(key), *in.parameters));
  for (const std::string& key : optional)
    if (node.has(key)) points[key] = placed(in, read_hardpoint(node.at(key), *in.parameters));
  for (const DistinctPair& pair : distinct) {
    if (points.count(pair.a) == 0 || points.count(pair.b) == 0) continue;
    const HardPoint d = difference(points[pair.a], points[pair.b]);
    double norm2 = 0.0;
    for (const LinearExpression& c : d) norm2 += std::pow(default_value(c, *in.parameters), 2);
    if (norm2 == 0.0) {
      const HardPoint& p = points[pair.a];
      node.at(pair.b).fail(std::string("hardpoints '") + pair.a + "' and '" + pair.b + "' coincide at (" +
                           number_text(default_value(p[0], *in.parameters)) + ", " +
                           number_text(default_value(p[1], *in.parameters)) + ", " +
                           number_text(default_value(p[2], *in.parameters)) + ") at the parameters' defaults: " +
                           pair.why);
    }
  }
  return points;
}

Json body_entry(const TemplateInput& in, const std::string& part, const JsonNode& block, const HardPoint* default_cm) {
  block.expect_object();
  block.allow_keys({"mass", "center_of_mass", "inertia"}, "a template part");
  Json body = Json::object();
  body["name"] = in.corner + "_" + part;
  body["mass"] = block.at("mass").json();
  if (block.has("center_of_mass"))
    body["center_of_mass"] = json_point(placed(in, read_hardpoint(block.at("center_of_mass"), *in.parameters)));
  else if (default_cm != nullptr)
    body["center_of_mass"] = json_point(*default_cm);
  else
    block.at("center_of_mass");  // fails: missing required key
  const JsonNode inertia = block.at("inertia");
  inertia.allow_keys({"ixx", "iyy", "izz", "ixy", "ixz", "iyz"}, "an inertia");
  Json out = Json::object();
  for (const auto& member : inertia.members()) {
    const bool flips = in.mirror && (member.first == "ixy" || member.first == "iyz");
    out[member.first] = flips ? json_value(-1.0 * read_expression(member.second, *in.parameters)) : member.second.json();
  }
  body["inertia"] = out;
  return body;
}

Json joint_entry(const std::string& name, const std::string& type, const std::string& parent, const std::string& child,
                 const HardPoint& p) {
  Json j = Json::object();
  j["name"] = name;
  j["type"] = type;
  j["parent"] = parent;
  j["child"] = child;
  j["parent_frame"] = origin_frame(p);
  j["child_frame"] = origin_frame(p);
  return j;
}

Json ball_loop(const std::string& name, const std::string& body1, const std::string& body2, const HardPoint& p) {
  Json l = Json::object();
  l["name"] = name;
  l["type"] = "cut_spherical";
  l["body1"] = body1;
  l["frame1"] = origin_frame(p);
  l["body2"] = body2;
  l["frame2"] = origin_frame(p);
  return l;
}

Json link_loop(const std::string& name, const std::string& body1, const HardPoint& p1, const std::string& body2,
               const HardPoint& p2, const Json& mass) {
  Json l = Json::object();
  l["name"] = name;
  l["type"] = mass.is_null() ? "distance" : "rod";
  l["body1"] = body1;
  l["point1"] = json_point(p1);
  l["body2"] = body2;
  l["point2"] = json_point(p2);
  l["length"] = "design";
  if (!mass.is_null()) l["mass"] = mass;
  return l;
}

Json tsda_entry(const std::string& name, const std::string& body1, const HardPoint& p1, const std::string& body2,
                const HardPoint& p2) {
  Json f = Json::object();
  f["name"] = name;
  f["type"] = "tsda";
  f["body1"] = body1;
  f["point1"] = json_point(p1);
  f["body2"] = body2;
  f["point2"] = json_point(p2);
  return f;
}

std::string add_part(TemplateOutput& out, const TemplateInput& in, const std::string& kind, const std::string& part) {
  const std::string name = in.corner + "_" + part;
  out.info.parts.emplace_back(kind, name);
  return name;
}

}  // namespace myriad
