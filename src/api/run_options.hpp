#pragma once
// RunOptions resolved against a model's `simulation` block (private to src/api and its clients in this
// repository: the CLI and the stepping API). Every value given is checked as given and refused with a SettingError
// naming the RunOptions member, never replaced by a default; what was not given comes from the model.
#include <string>
#include <utility>
#include <vector>

#include "api/myriad/myriad.hpp"
#include "ensemble/run_spec.hpp"
#include "model/model.hpp"

namespace myriad::api {
struct ModelImpl;
}

namespace myriad::api {

// Threads a run may ask for: more than this is a typo, not a machine.
constexpr int kMaxThreads = 4096;
// Instances of one run: instances are numbered by int.
constexpr long long kMaxInstances = 2147483647;

// How messages name a setting. The API's own: "setting 'rtol' = -1" for a value given, "'dt_out'" for the name
// alone. A client with other names for the settings (the CLI's flags) passes `flag`, which maps a RunOptions member
// name (or "instances", "overrides") to its own name ("--rtol"); messages then read "--rtol -1" and "--dt-out".
// The SettingError's setting() is the member name either way.
struct SettingNames {
  std::string (*flag)(const std::string& setting) = nullptr;

  std::string given(const std::string& setting, const std::string& value) const;  // "setting 'rtol' = -1"
  std::string name(const std::string& setting) const;                             // "'rtol'"
  std::string subject(const std::string& setting) const;                          // "setting 'rtol'"
};

// What a run integrates with and where it records.
struct ResolvedRun {
  RunSpec spec;
  std::string integrator;      // a name of core/integrator_names.hpp
  double t_end = 0, dt_out = 0;
  std::vector<double> times;   // the output grid 0 .. t_end
};

// The shortest text that reads back as `value` (-0.1, not -0.10000000000000001).
std::string shown(double value);

// Checks the members that need no model (numbers, names, counts). Throws SettingError. O(1).
void check_run_options(const RunOptions& options, const SettingNames& names = {});

// Integrator, step control and output grid: check_run_options, then the given values over the model's simulation
// block. The grid is refused (naming the settings or /simulation fields it came from) when it would have more than
// kMaxOutputTimes times, before it is allocated. Throws SettingError. O(output times).
ResolvedRun resolve_run_options(const RunOptions& options, const Model& model, const SettingNames& names = {});

// Integrator and step control alone (t_end and dt_out unused: the stepping API). Throws SettingError. O(1).
ResolvedRun resolve_integration(const RunOptions& options, const Model& model, const SettingNames& names = {});

// Overrides (name, value) for every instance: each name a model parameter, each value finite. Throws SettingError
// ("overrides"). O(overrides x parameters).
void check_overrides(const std::vector<std::pair<std::string, double>>& overrides, const Model& model,
                     const SettingNames& names = {});

// The model's parameter defaults with the overrides put in (checked as check_overrides does). O(overrides x
// parameters).
std::vector<double> parameter_values_with(const ModelImpl& model,
                                          const std::vector<std::pair<std::string, double>>& overrides);

// The instance count of a request: `instances` when given (1 .. kMaxInstances; with a parameter set, equal to its
// rows), else the parameter set's rows, else 1. Throws SettingError ("instances"). O(1).
long long resolve_instance_count(long long instances, const ParameterSet* parameters, const SettingNames& names = {});

}  // namespace myriad::api
