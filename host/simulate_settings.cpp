#include "simulate_settings.hpp"

#include <map>

namespace myriad::cli {

std::string flag_name(const std::string& setting) {
  static const std::map<std::string, std::string> flags = {
      {"t_end", "--t-end"},     {"dt_out", "--dt-out"},         {"h", "--h"},
      {"rtol", "--rtol"},       {"atol", "--atol"},             {"fac", "--fac"},
      {"facmin", "--facmin"},   {"facmax", "--facmax"},         {"max_steps", "--max-steps"},
      {"integrator", "--integrator"}, {"backend", "--backend"}, {"threads", "--threads"},
      {"lanes", "--lanes"},     {"rho_inf", "--rho-inf"},
      {"gpu_strategy", "--gpu-strategy"}, {"gpu_step_budget", "--gpu-step-budget"},
      {"instances", "--instances"}, {"overrides", "--param"}, {"coordinates", "--coordinates"}};
  const auto found = flags.find(setting);
  return found != flags.end() ? found->second : "--" + setting;
}

const api::SettingNames& flag_names() {
  static const api::SettingNames names{&flag_name};
  return names;
}

api::RunOptions run_options(const SimulateOptions& o) {
  api::RunOptions options;
  options.t_end = o.t_end;
  options.dt_out = o.dt_out;
  options.h = o.h;
  options.rtol = o.rtol;
  options.atol = o.atol;
  options.fac = o.fac;
  options.facmin = o.facmin;
  options.facmax = o.facmax;
  options.max_steps = o.max_steps;
  if (!o.integrator.empty()) options.integrator = o.integrator;
  options.rho_inf = o.rho_inf;
  options.backend = o.backend;
  options.threads = o.threads;
  options.lanes = o.lanes;
  options.gpu_strategy = o.gpu_strategy;
  options.gpu_step_budget = o.gpu_step_budget;
  options.coordinates = o.coordinates;
  return options;
}

void check_simulate_flags(const SimulateOptions& o) {
  api::check_run_options(run_options(o), flag_names());
  // The API reads instances = 0 as "the parameter set's rows"; given on the command line it is a mistake.
  if (o.instances && (*o.instances < 1 || *o.instances > api::kMaxInstances))
    throw api::SettingError("instances", "--instances " + std::to_string(*o.instances) + ": must be 1 .. " +
                                             std::to_string(api::kMaxInstances));
}

api::LoadedModel with_signals(const api::LoadedModel& loaded, const SimulateOptions& o) {
  if (o.signals.empty()) return loaded;
  try {
    return api::keep_signals(loaded, o.signals);
  } catch (const api::SettingError& e) {
    throw api::SettingError("signals", std::string("--signals: ") + e.what());
  }
}

}  // namespace myriad::cli
