#pragma once
// The `kpis` section of a model file (docs/model-format.md, "KPIs"): named KPIs over the model's outputs, with
// their units derived from the output's kind.
#include <string>
#include <vector>

#include "model/json_reader.hpp"
#include "model/model.hpp"

namespace myriad {

// The KPI type names in KpiType order (model/compiled_model.hpp).
const std::vector<std::string>& kpi_type_names();

// SI unit of an output's values ("m", "rad/s", "N", "J", ...; "1" for quaternion components).
std::string output_unit(const Model& model, const Output& output);

// Reads the array of KPIs; outputs are resolved by name against model.outputs. Fails (ModelError with the entry's
// pointer) on an unknown type or output, a duplicate name, a missing or extra threshold, a bad number.
std::vector<Kpi> read_kpis(const JsonNode& kpis, const Model& model);

}  // namespace myriad
