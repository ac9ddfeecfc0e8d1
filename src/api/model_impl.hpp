#pragma once
// The private half of api::LoadedModel: the parsed model, its compiled form and the name lists the accessors
// return. Built once by load_model / load_model_string (src/api/load_model.cpp) and shared read-only (const) by
// every copy of the LoadedModel, by simulate and by Simulator.
#include <memory>
#include <string>
#include <vector>

#include "model/compiled_model.hpp"
#include "model/model.hpp"
#include "api/myriad/myriad.hpp"

namespace myriad::api {

struct ModelImpl {
  myriad::Model model;                                  // as loaded: Numbers may reference parameters
  std::shared_ptr<const myriad::CompiledModel> compiled;  // ~316 KB of fixed arrays: held by pointer
  std::string source;                                   // the file name, or the name given to load_model_string

  std::vector<std::string> parameter_names;   // Model::parameters order
  std::vector<double> parameter_defaults;
  std::vector<std::string> parameter_units;
  std::vector<std::string> signal_names;      // Model::outputs order
  std::vector<std::string> kpi_names, kpi_units;  // Model::kpis order
  // The model's `inputs` section, in file order (INPUTS: filled from Model's inputs by build_model_impl).
  std::vector<std::string> input_names;
  std::vector<double> input_defaults;
  std::vector<double> input_lower;            // -inf where unbounded
  std::vector<double> input_upper;            // +inf where unbounded
};

// Fills the derived lists of `impl` from impl.model (name lists, defaults, input bounds).
void fill_model_lists(ModelImpl& impl);

}  // namespace myriad::api
