#include "model/subsystems.hpp"

#include <functional>
#include <map>
#include <memory>
#include <set>

#include "model/subsystem_templates.hpp"

namespace myriad {

namespace {

using Expander = TemplateOutput (*)(const TemplateInput&);

struct Template {
  std::string name;
  Expander expand;
  bool spans_both;  // builds both sides itself (the anti-roll bar): expanded once whatever `side` says
};

const std::vector<Template>& templates() {
  static const std::vector<Template> list = {{"double_wishbone", expand_double_wishbone, false},
                                             {"macpherson", expand_macpherson, false},
                                             {"five_link", expand_five_link, false},
                                             {"anti_roll_bar", expand_anti_roll_bar, true}};
  return list;
}

std::map<std::string, double> parameter_defaults(const JsonNode& root) {
  std::map<std::string, double> defaults;
  if (!root.has("parameters")) return defaults;
  const JsonNode parameters = root.at("parameters");
  if (!parameters.json().is_object()) return defaults;  // read_model reports it
  for (const auto& member : parameters.members()) {
    const Json& entry = member.second.json();
    if (entry.is_number()) defaults[member.first] = entry.get<double>();
    else if (entry.is_object() && entry.contains("value") && entry["value"].is_number())
      defaults[member.first] = entry["value"].get<double>();
  }
  return defaults;
}

std::set<std::string> declared_names(const JsonNode& root, const char* section) {
  std::set<std::string> names;
  if (!root.has(section) || !root.at(section).json().is_array()) return names;
  for (const Json& entry : root.at(section).json())
    if (entry.is_object() && entry.contains("name") && entry["name"].is_string())
      names.insert(entry["name"].get<std::string>());
  return names;
}

}  // namespace

const std::vector<std::string>& template_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Template& t : templates()) n.push_back(t.name);
    return n;
  }();
  return names;
}

Json expand_subsystems(const JsonNode& root, std::vector<Subsystem>& subsystems) {
  Json document = root.json();
  if (!root.json().is_object()) return document;
  if (!root.has("subsystems")) {
    if (root.has("rig")) root.at("rig").fail("a four-post rig drives the tires of template corners, and the model has no subsystems");
    return document;
  }
  const JsonNode list = root.at("subsystems");
  if (!list.json().is_array()) list.fail_type("an array of subsystems");
  const std::map<std::string, double> defaults = parameter_defaults(root);
  const std::set<std::string> bodies = declared_names(root, "bodies");
  const char* const sections[] = {"bodies", "joints", "loops", "forces", "outputs"};
  std::map<std::string, std::set<std::string>> taken;
  for (const char* section : sections) taken[section] = declared_names(root, section);

  // A four-post rig: {"type": "four_post", "mode": heave | pitch | roll | warp, "function": {time function}}.
  std::unique_ptr<JsonNode> rig;
  if (root.has("rig")) {
    rig = std::make_unique<JsonNode>(root.at("rig"));
    rig->expect_object();
    rig->allow_keys({"type", "mode", "function"}, "a rig");
    read_choice(rig->at("type"), {"four_post"}, "rig type");
    read_choice(rig->at("mode"), {"heave", "pitch", "roll", "warp"}, "four-post mode");
    if (!rig->at("function").json().is_object()) rig->at("function").fail_type("a time function");
  }
  bool rig_used = false;

  for (const JsonNode& entry : list.elements()) {
    entry.expect_object();
    const JsonNode name_node = entry.at("name");
    const std::string name = name_node.as_string();
    if (!is_parameter_name(name))
      name_node.fail("invalid subsystem name '" + name + "' (names match [A-Za-z_][A-Za-z0-9_]*: they prefix the "
                     "names of the parts)");
    const JsonNode template_node = entry.at("template");
    const std::string template_name = template_node.as_string();
    const Template* chosen = nullptr;
    for (const Template& t : templates())
      if (t.name == template_name) chosen = &t;
    if (chosen == nullptr)
      template_node.fail("unknown template '" + template_name + "' (expected one of: " + join_names(template_names()) +
                         ")");
    std::string chassis = "ground";
    if (entry.has("chassis")) {
      chassis = entry.at("chassis").as_string();
      if (chassis != "ground" && bodies.count(chassis) == 0)
        entry.at("chassis").fail("unknown chassis body '" + chassis + "' (a body of the file's `bodies`, or ground)");
    }
    std::vector<std::pair<std::string, bool>> corners = {{name, false}};
    const bool spans_both = chosen->spans_both;
    std::string side = "left";
    if (entry.has("side")) {
      const std::vector<std::string> sides = {"left", "right", "both"};
      side = sides[static_cast<size_t>(read_choice(entry.at("side"), sides, "side"))];
    }
    if (side == "right") corners = {{name, true}};
    if (side == "both" && !spans_both) corners = {{name + "_left", false}, {name + "_right", true}};

    HardPoint location{};
    if (entry.has("location")) location = read_hardpoint(entry.at("location"), defaults);
    for (const auto& corner : corners) {
      TemplateInput in{entry, &defaults, corner.first, corner.second, chassis, rig.get(), location};
      TemplateOutput out = chosen->expand(in);
      rig_used = rig_used || out.info.role("tire") != nullptr;
      out.info.name = corner.first;
      out.info.template_name = template_name;
      out.info.pointer = entry.pointer();
      out.info.side = spans_both ? "both" : corner.second ? "right" : "left";
      const std::pair<const char*, Json*> generated[] = {
          {"bodies", &out.bodies}, {"joints", &out.joints}, {"loops", &out.loops}, {"forces", &out.forces},
          {"outputs", &out.outputs}};
      for (const auto& g : generated) {
        for (const Json& item : *g.second) {
          const std::string part = item["name"].get<std::string>();
          if (!taken[g.first].insert(part).second)
            name_node.fail("subsystem '" + name + "' would add " + std::string(g.first) + " entry '" + part +
                           "', but that name is already taken");
        }
        if (g.second->empty()) continue;
        if (!document.contains(g.first)) document[g.first] = Json::array();
        if (!document[g.first].is_array()) continue;  // read_model reports the section's type
        for (const Json& item : *g.second) document[g.first].push_back(item);
      }
      subsystems.push_back(out.info);
    }
  }
  if (rig && !rig_used) rig->fail("a four-post rig drives the tires of template corners, and no subsystem has a tire");
  document.erase("subsystems");
  document.erase("rig");
  return document;
}

}  // namespace myriad
