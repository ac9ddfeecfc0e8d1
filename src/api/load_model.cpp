// load_model / load_model_string and the LoadedModel accessors: the model layer's loader and compiler behind the
// API's error types.
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "api/model_impl.hpp"
#include "model/compile.hpp"
#include "model/model_error.hpp"
#include "model/model_loader.hpp"
#include "model/output_selection.hpp"

namespace myriad::api {

ModelFileError::ModelFileError(std::string file, std::string pointer, std::string reason)
    : std::invalid_argument(file + ": " + pointer + ": " + reason),
      file_(std::move(file)),
      pointer_(std::move(pointer)),
      reason_(std::move(reason)) {}

void fill_model_lists(ModelImpl& impl) {
  const Model& model = impl.model;
  impl.parameter_names.clear();
  impl.parameter_defaults.clear();
  impl.parameter_units.clear();
  for (const Parameter& parameter : model.parameters) {
    impl.parameter_names.push_back(parameter.name);
    impl.parameter_defaults.push_back(parameter.value);
    impl.parameter_units.push_back(parameter.unit);
  }
  impl.signal_names.clear();
  for (const Output& output : model.outputs) impl.signal_names.push_back(output.name);
  impl.kpi_names.clear();
  impl.kpi_units.clear();
  for (const Kpi& kpi : model.kpis) {
    impl.kpi_names.push_back(kpi.name);
    impl.kpi_units.push_back(kpi.unit);
  }
  impl.input_names.clear();
  impl.input_defaults.clear();
  impl.input_lower.clear();
  impl.input_upper.clear();
  for (const Input& input : model.inputs) {
    impl.input_names.push_back(input.name);
    impl.input_defaults.push_back(input.value);
    impl.input_lower.push_back(input.min);
    impl.input_upper.push_back(input.max);
  }
}

namespace {

// Compiles a loaded model into a shared ModelImpl; a ModelError of the loader or the compiler (limits, loop
// structure, assembly) becomes a ModelFileError with the same file, pointer, reason and message.
template <class Load>
LoadedModel load(const Load& load_model_here, const std::string& source) {
  auto impl = std::make_shared<ModelImpl>();
  try {
    impl->model = load_model_here();
    impl->compiled = compile(impl->model);
  } catch (const ModelError& e) {
    throw ModelFileError(e.file(), e.pointer(), e.reason());
  }
  impl->source = source;
  fill_model_lists(*impl);
  LoadedModel loaded;
  loaded.impl = std::move(impl);
  return loaded;
}

}  // namespace

LoadedModel load_model(const std::string& path) {
  // A file that cannot be opened is the caller's problem, not the model's: std::runtime_error naming it.
  std::ifstream probe(path, std::ios::binary);
  if (!probe) throw std::runtime_error(path + ": cannot open file: " + std::strerror(errno));
  probe.close();
  return load([&] { return load_model_file(path); }, path);
}

LoadedModel load_model_string(const std::string& json_text, const std::string& name) {
  return load([&] { return load_model_text(json_text, name); }, name);
}

LoadedModel keep_signals(const LoadedModel& model, const std::vector<std::string>& names) {
  auto impl = std::make_shared<ModelImpl>();
  try {
    impl->model = keep_outputs(model.impl->model, names);
  } catch (const std::invalid_argument& e) {
    throw SettingError("signals", e.what());
  }
  impl->compiled = compile(impl->model);  // the model compiled before; fewer outputs change nothing else
  impl->source = model.impl->source;
  fill_model_lists(*impl);
  LoadedModel kept;
  kept.impl = std::move(impl);
  return kept;
}

const std::string& LoadedModel::name() const { return impl->model.name; }
const std::string& LoadedModel::source() const { return impl->source; }
const std::vector<std::string>& LoadedModel::parameter_names() const { return impl->parameter_names; }
const std::vector<double>& LoadedModel::parameter_defaults() const { return impl->parameter_defaults; }
const std::vector<std::string>& LoadedModel::parameter_units() const { return impl->parameter_units; }
const std::vector<std::string>& LoadedModel::signal_names() const { return impl->signal_names; }
const std::vector<std::string>& LoadedModel::kpi_names() const { return impl->kpi_names; }
const std::vector<std::string>& LoadedModel::kpi_units() const { return impl->kpi_units; }
const std::vector<std::string>& LoadedModel::input_names() const { return impl->input_names; }
const std::vector<double>& LoadedModel::input_defaults() const { return impl->input_defaults; }
const std::vector<double>& LoadedModel::input_lower() const { return impl->input_lower; }
const std::vector<double>& LoadedModel::input_upper() const { return impl->input_upper; }
int LoadedModel::nq() const { return impl->compiled->nq; }
int LoadedModel::nv() const { return impl->compiled->nv; }
bool LoadedModel::has_loops() const { return impl->compiled->constraints.m > 0; }

SimulationDefaults LoadedModel::defaults() const {
  const myriad::SimulationDefaults& d = impl->model.simulation;
  SimulationDefaults out;
  out.t_end = d.t_end;
  out.dt_out = d.dt_out;
  out.rtol = d.rtol;
  out.atol = d.atol;
  out.h = d.h;
  out.rho_inf = d.rho_inf.value_or(0.0);
  out.integrator = d.integrator;
  return out;
}

}  // namespace myriad::api
