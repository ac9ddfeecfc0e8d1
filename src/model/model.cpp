#include "model/model.hpp"

#include <stdexcept>

#include "model/model_geometry.hpp"
#include "model/model_numbers.hpp"

namespace myriad {

int joint_nq(JointType type) {
  switch (type) {
    case JointType::revolute:
    case JointType::prismatic: return 1;
    case JointType::cylindrical:
    case JointType::universal: return 2;
    case JointType::spherical: return 4;
    case JointType::planar: return 3;
    case JointType::free: return 7;
    case JointType::fixed: return 0;
  }
  return 0;
}

int joint_nv(JointType type) {
  switch (type) {
    case JointType::revolute:
    case JointType::prismatic: return 1;
    case JointType::cylindrical:
    case JointType::universal: return 2;
    case JointType::spherical: return 3;
    case JointType::planar: return 3;
    case JointType::free: return 6;
    case JointType::fixed: return 0;
  }
  return 0;
}

const char* joint_type_name(JointType type) {
  switch (type) {
    case JointType::revolute: return "revolute";
    case JointType::prismatic: return "prismatic";
    case JointType::cylindrical: return "cylindrical";
    case JointType::universal: return "universal";
    case JointType::spherical: return "spherical";
    case JointType::planar: return "planar";
    case JointType::free: return "free";
    case JointType::fixed: return "fixed";
  }
  return "unknown";
}

const char* force_type_name(ForceType type) {
  switch (type) {
    case ForceType::tsda: return "tsda";
    case ForceType::rsda: return "rsda";
    case ForceType::joint_actuator: return "joint_actuator";
    case ForceType::bushing: return "bushing";
    case ForceType::tire: return "tire";
  }
  return "unknown";
}

Model apply_parameters(const Model& model, const std::vector<double>& values) {
  if (values.size() != model.parameters.size())
    throw std::invalid_argument("apply_parameters: expected " + std::to_string(model.parameters.size()) +
                                " parameter values, got " + std::to_string(values.size()));
  Model resolved = model;
  for_each_number(resolved, [&](Number& n) {
    if (depends_on_parameters(n)) {
      n.value = number_value(n, values);
      n.parameter = -1;
      n.terms.clear();
    }
  });
  for (size_t i = 0; i < resolved.parameters.size(); ++i) resolved.parameters[i].value = values[i];
  resolve_design_lengths(resolved);
  return resolved;
}

void key_instance(Model& literal, long long instance) {
  for_each_time_function(literal, [&](TimeFunction& f) {
    if (f.kind == TimeFunction::Kind::iso8608_road && f.vary_by_instance) f.instance = instance;
  });
}

bool has_instance_keyed_functions(const Model& model) {
  bool keyed = false;
  for_each_time_function(model, [&](const TimeFunction& f) {
    keyed = keyed || (f.kind == TimeFunction::Kind::iso8608_road && f.vary_by_instance);
  });
  return keyed;
}

std::vector<double> default_parameter_values(const Model& model) {
  std::vector<double> values;
  values.reserve(model.parameters.size());
  for (const Parameter& p : model.parameters) values.push_back(p.value);
  return values;
}

}  // namespace myriad
