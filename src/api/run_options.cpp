#include "api/run_options.hpp"

#include "api/model_impl.hpp"

#include <charconv>
#include <cmath>

#include "core/integrator_names.hpp"
#include "ensemble/ensemble_result.hpp"
#include "integrators/implicit_coefficients.hpp"
#include "model/model_limits.hpp"

namespace myriad::api {

SettingError::SettingError(std::string setting, const std::string& message)
    : std::invalid_argument(message), setting_(std::move(setting)) {}

std::string shown(double value) {
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof text, value).ptr);
}

std::string SettingNames::given(const std::string& setting, const std::string& value) const {
  return flag ? flag(setting) + " " + value : "setting '" + setting + "' = " + value;
}

std::string SettingNames::name(const std::string& setting) const {
  return flag ? flag(setting) : "'" + setting + "'";
}

std::string SettingNames::subject(const std::string& setting) const {
  return flag ? flag(setting) : "setting '" + setting + "'";
}

namespace {

void require_positive(const std::optional<double>& value, const char* setting, const char* what,
                      const SettingNames& names) {
  if (value && !(std::isfinite(*value) && *value > 0.0))
    throw SettingError(setting, names.given(setting, shown(*value)) + ": " + what +
                                    " must be a positive finite number");
}

void require_choice(const std::optional<std::string>& value, const char* setting,
                    const std::vector<std::string>& choices, const SettingNames& names) {
  if (!value) return;
  std::string list;
  for (const std::string& choice : choices) {
    if (*value == choice) return;
    list += (list.empty() ? "" : ", ") + choice;
  }
  throw SettingError(setting, names.given(setting, "'" + *value + "'") + ": expected one of " + list);
}

Method method_of(const std::string& integrator) {
  return integrator == "rk4"                      ? Method::rk4
         : integrator == "rn4"                    ? Method::rn4
         : integrator == "ros2w"                  ? Method::ros2w
         : implicit_integrator_index(integrator) >= 0 ? Method::implicit
                                                  : Method::dopri5;
}

}  // namespace

void check_run_options(const RunOptions& o, const SettingNames& names) {
  require_positive(o.t_end, "t_end", "the end time [s]", names);
  require_positive(o.dt_out, "dt_out", "the output interval [s]", names);
  require_positive(o.h, "h", "the RK4 step [s]", names);
  require_positive(o.rtol, "rtol", "the relative tolerance", names);
  require_positive(o.atol, "atol", "the absolute tolerance", names);
  if (o.rtol && *o.rtol >= 1.0)
    throw SettingError("rtol", names.given("rtol", shown(*o.rtol)) + ": a relative tolerance must be below 1");
  if (o.fac && !(std::isfinite(*o.fac) && *o.fac > 0 && *o.fac <= 1))
    throw SettingError("fac", names.given("fac", shown(*o.fac)) + ": the safety factor must be in (0, 1]");
  if (o.facmin && !(std::isfinite(*o.facmin) && *o.facmin > 0 && *o.facmin <= 1))
    throw SettingError("facmin",
                       names.given("facmin", shown(*o.facmin)) + ": the smallest step ratio must be in (0, 1]");
  if (o.facmax && !(std::isfinite(*o.facmax) && *o.facmax >= 1 && *o.facmax <= 1e6))
    throw SettingError("facmax",
                       names.given("facmax", shown(*o.facmax)) + ": the largest step ratio must be in [1, 1e6]");
  if (o.max_steps && *o.max_steps <= 0)
    throw SettingError("max_steps", names.given("max_steps", std::to_string(*o.max_steps)) +
                                        ": the step budget must be positive");
  if (o.threads < 0 || o.threads > kMaxThreads)
    throw SettingError("threads", names.given("threads", std::to_string(o.threads)) + ": must be 0 (all cores) .. " +
                                      std::to_string(kMaxThreads));
  if (o.lanes != 1 && o.lanes != 2 && o.lanes != 4 && o.lanes != 8)
    throw SettingError("lanes", names.given("lanes", std::to_string(o.lanes)) + ": must be 1 (one instance at a "
                                                                               "time), 2, 4 or 8");
  require_choice(o.integrator, "integrator", integrator_names(), names);
  if (o.rho_inf && !(*o.rho_inf >= 0.0 && *o.rho_inf <= 1.0))
    throw SettingError("rho_inf", names.given("rho_inf", shown(*o.rho_inf)) +
                                      ": the spectral radius at infinity must lie in [0, 1]");
  require_choice(std::optional<std::string>(o.backend), "backend", {"auto", "reference", "cpu", "cuda"}, names);
  require_choice(o.gpu_strategy, "gpu_strategy", {"fused", "warp", "shared-lu", "staged"}, names);
  require_choice(o.coordinates, "coordinates", {"joint", "rp", "re", "rA"}, names);
  if (o.gpu_step_budget && *o.gpu_step_budget < 0)
    throw SettingError("gpu_step_budget", names.given("gpu_step_budget", std::to_string(*o.gpu_step_budget)) +
                                              ": must be 0 (one launch to the end) or positive");
}

ResolvedRun resolve_integration(const RunOptions& o, const Model& model, const SettingNames& names) {
  check_run_options(o, names);
  const myriad::SimulationDefaults& d = model.simulation;
  ResolvedRun run;
  run.integrator = o.integrator.value_or(d.integrator);
  run.spec.method = method_of(run.integrator);
  run.spec.h = o.h.value_or(d.h);
  const StepControl defaults{};
  run.spec.max_steps = o.max_steps.value_or(RunSpec{}.max_steps);
  run.spec.control.rtol = o.rtol.value_or(d.rtol);
  run.spec.control.atol = o.atol.value_or(d.atol);
  run.spec.control.fac = o.fac.value_or(defaults.fac);
  run.spec.control.facmin = o.facmin.value_or(defaults.facmin);
  run.spec.control.facmax = o.facmax.value_or(defaults.facmax);
  const int implicit = implicit_integrator_index(run.integrator);
  if (implicit < 0) {
    if (o.rho_inf)
      throw SettingError("rho_inf", names.given("rho_inf", shown(*o.rho_inf)) + ": applies to the implicit "
                                        "integrators only, and this run uses " + run.integrator);
    return run;
  }
  // The coefficients (implicit_scheme) refuse what a method cannot take, naming it: rho_inf != 0 for an L-stable
  // method with fixed coefficients, a value off the grid of a tabulated one.
  const double rho = o.rho_inf.value_or(d.rho_inf.value_or(0.0));
  try {
    run.spec.implicit = implicit_scheme(static_cast<ImplicitMethod>(implicit), rho);
  } catch (const std::invalid_argument& e) {
    const std::string from = o.rho_inf ? names.given("rho_inf", shown(rho)) : "rho_inf " + shown(rho) +
                                                                                  " (/simulation/rho_inf)";
    throw SettingError("rho_inf", from + ": " + e.what());
  }
  return run;
}

ResolvedRun resolve_run_options(const RunOptions& o, const Model& model, const SettingNames& names) {
  ResolvedRun run = resolve_integration(o, model, names);
  const myriad::SimulationDefaults& d = model.simulation;
  run.t_end = o.t_end.value_or(d.t_end);
  run.dt_out = o.dt_out.value_or(d.dt_out);
  const std::size_t count = output_time_count(0.0, run.t_end, run.dt_out);
  if (count > kMaxOutputTimes) {
    const std::string end =
        o.t_end ? names.given("t_end", shown(run.t_end)) : "t_end " + shown(run.t_end) + " (/simulation/t_end)";
    const std::string step = o.dt_out ? names.given("dt_out", shown(run.dt_out))
                                      : "dt_out " + shown(run.dt_out) + " (/simulation/dt_out)";
    const std::string how_many =
        count == kOutputTimeCountUnbounded ? "more than 2^53" : "about " + shown(static_cast<double>(count));
    throw SettingError(o.dt_out || !o.t_end ? "dt_out" : "t_end",
                       step + " with " + end + ": the output grid would have " + how_many +
                           " times, more than the limit of " + std::to_string(kMaxOutputTimes) +
                           " (give a coarser " + names.name("dt_out") + " or a shorter " + names.name("t_end") + ")");
  }
  run.times = output_grid(0.0, run.t_end, run.dt_out);
  return run;
}

std::vector<double> parameter_values_with(const ModelImpl& mi,
                                          const std::vector<std::pair<std::string, double>>& overrides) {
  check_overrides(overrides, mi.model);
  std::vector<double> values = mi.parameter_defaults;
  for (const auto& [name, value] : overrides)
    for (std::size_t j = 0; j < values.size(); ++j)
      if (mi.parameter_names[j] == name) values[j] = value;
  return values;
}

void check_overrides(const std::vector<std::pair<std::string, double>>& overrides, const Model& model,
                     const SettingNames& names) {
  for (const auto& [name, value] : overrides) {
    bool known = false;
    for (const Parameter& parameter : model.parameters) known = known || parameter.name == name;
    if (!known) {
      std::string list;
      for (const Parameter& parameter : model.parameters) list += (list.empty() ? "" : ", ") + parameter.name;
      throw SettingError("overrides", names.subject("overrides") + ": '" + name + "' is not a parameter of model '" +
                                          model.name + "' (parameters: " + (list.empty() ? "none" : list) + ")");
    }
    if (!std::isfinite(value))
      throw SettingError("overrides", names.subject("overrides") + " " + name + "=" + shown(value) +
                                          ": the value must be finite");
  }
}

long long resolve_instance_count(long long instances, const ParameterSet* parameters, const SettingNames& names) {
  if (instances < 0 || instances > kMaxInstances)
    throw SettingError("instances", names.given("instances", std::to_string(instances)) + ": must be 1 .. " +
                                        std::to_string(kMaxInstances) + " (0: the parameter set's rows, else 1)");
  if (parameters == nullptr) return instances > 0 ? instances : 1;
  if (instances > 0 && instances != parameters->rows)
    throw SettingError("instances", names.given("instances", std::to_string(instances)) + ": the parameter set " +
                                        parameters->source + " has " + std::to_string(parameters->rows) + " rows");
  return parameters->rows;
}

}  // namespace myriad::api
