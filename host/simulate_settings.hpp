#pragma once
// `myriad simulate`'s flags as the API's run options (api::RunOptions), and the API's setting names as the CLI's
// flags, so that a bad value is refused by flag name ("--rtol -1: ..."): the checks themselves are the API's
// (src/api/run_options.hpp).
#include <string>

#include "api/myriad/myriad.hpp"
#include "api/run_options.hpp"
#include "commands.hpp"

namespace myriad::cli {

// The flag of a RunOptions member (or "instances", "overrides"): t_end -> --t-end, overrides -> --param. O(1).
std::string flag_name(const std::string& setting);

// Messages that name the flags instead of the API's settings.
const api::SettingNames& flag_names();

// The flags as run options: what the user gave, nothing replaced by a default. O(1).
api::RunOptions run_options(const SimulateOptions& options);

// Checks the flags that need no model (numbers, counts); throws api::SettingError whose message names the flag,
// the value and the reason. O(1).
void check_simulate_flags(const SimulateOptions& options);

// The model as --signals narrows it (api::keep_signals), or `loaded` itself without the flag; throws
// api::SettingError("signals", "--signals: ...") for a name the model lacks, a repeat, or a KPI's output left out.
api::LoadedModel with_signals(const api::LoadedModel& loaded, const SimulateOptions& options);

}  // namespace myriad::cli
