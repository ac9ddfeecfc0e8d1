#include "model/kpi_reading.hpp"

#include <cmath>

#include "model/compiled_model.hpp"
#include "model/model_reading.hpp"

namespace myriad {
namespace {

bool needs_threshold(int type) {
  return type == kKpiFractionAtLeast || type == kKpiFractionAtMost || type == kKpiTimeAtLeast ||
         type == kKpiTimeAtMost;
}

// The value's unit: the output's for means, extremes and RMS values, 1 for ratios and fractions, s for times;
// VDV is (signal unit) s^(1/4), m/s^1.75 for an acceleration.
std::string kpi_unit(int type, const std::string& signal_unit) {
  switch (type) {
    case kKpiRmsChangeRelative:
    case kKpiFractionAtLeast:
    case kKpiFractionAtMost:
    case kKpiWkCrestFactor: return "1";
    case kKpiTimeAtLeast:
    case kKpiTimeAtMost: return "s";
    case kKpiWkVdv: return signal_unit == "m/s^2" ? "m/s^1.75" : signal_unit + " s^0.25";
    default: return signal_unit;
  }
}

double plain_number(const JsonNode& node, const std::string& what) {
  if (node.json().is_string()) node.fail(what + " is a plain number (parameters cannot set it)");
  return node.as_plain_number();
}

}  // namespace

const std::vector<std::string>& kpi_type_names() {
  static const std::vector<std::string> names = {
      "mean",          "rms",         "min",       "max",       "max_abs",        "rms_change",       "rms_change_relative",
      "fraction_at_least", "fraction_at_most", "time_at_least", "time_at_most", "wk_rms", "wk_vdv", "wk_crest_factor"};
  return names;
}

std::string output_unit(const Model& model, const Output& output) {
  const auto joint_is_linear = [&] {
    const Joint& joint = model.joints[static_cast<size_t>(output.joint)];
    // Prismatic and the translational coordinate of a cylindrical joint (index 1) are lengths.
    return joint.type == JointType::prismatic || (joint.type == JointType::cylindrical && output.index == 1);
  };
  switch (output.kind) {
    case OutputKind::joint_coordinate: return joint_is_linear() ? "m" : "rad";
    case OutputKind::joint_velocity: return joint_is_linear() ? "m/s" : "rad/s";
    case OutputKind::joint_acceleration: return joint_is_linear() ? "m/s^2" : "rad/s^2";
    case OutputKind::body_position: return "m";
    case OutputKind::body_orientation: return "1";
    case OutputKind::body_velocity: return output.component < 3 ? "rad/s" : "m/s";
    case OutputKind::spring_length:
      return model.forces[static_cast<size_t>(output.force)].type == ForceType::rsda ? "rad" : "m";
    case OutputKind::spring_force:
    case OutputKind::damper_force:
      return model.forces[static_cast<size_t>(output.force)].type == ForceType::rsda ? "N m" : "N";
    case OutputKind::bushing_force: return output.component < 3 ? "N" : "N m";
    case OutputKind::tire_force: return output.component < 3 ? "N" : "N m";
    case OutputKind::tire_slip: return output.component == 0 ? "1" : "rad";
    default: return "J";
  }
}

std::vector<Kpi> read_kpis(const JsonNode& kpis, const Model& model) {
  NameTable outputs{"output", "/outputs", {}};
  for (size_t i = 0; i < model.outputs.size(); ++i) outputs.index[model.outputs[i].name] = static_cast<int>(i);
  NameTable names{"kpi", "/kpis", {}};
  std::vector<Kpi> result;
  int index = 0;
  for (const JsonNode& node : kpis.elements()) {
    node.expect_object();
    node.allow_keys({"name", "type", "output", "scale", "threshold", "from"}, "a KPI");
    Kpi kpi;
    kpi.name = read_entry_name(node, names, index++);
    kpi.type = read_choice(node.at("type"), kpi_type_names(), "KPI type");
    kpi.output = resolve_name(node.at("output"), outputs);
    if (node.has("scale")) kpi.scale = plain_number(node.at("scale"), "scale");
    if (needs_threshold(kpi.type)) {
      kpi.threshold = plain_number(node.at("threshold"), "threshold");
    } else if (node.has("threshold")) {
      node.at("threshold").fail("a " + kpi_type_names()[static_cast<size_t>(kpi.type)] + " KPI takes no threshold");
    }
    if (node.has("from")) {
      const JsonNode from = node.at("from");
      kpi.from = plain_number(from, "from");
      if (kpi.from < 0.0) from.fail("from must not be negative, got " + from.json().dump());
    }
    const Output& output = model.outputs[static_cast<size_t>(kpi.output)];
    const std::string unit = output_unit(model, output);
    if (kpi_is_wk_weighted(kpi.type) && unit != "m/s^2")
      node.at("output").fail("a " + kpi_type_names()[static_cast<size_t>(kpi.type)] +
                             " KPI weights an acceleration in m/s^2 (ISO 2631-1), and output '" + output.name +
                             "' is in " + unit);
    kpi.unit = kpi_unit(kpi.type, unit);
    result.push_back(kpi);
  }
  return result;
}

}  // namespace myriad
