#pragma once
// api::ParameterSet <-> the ensemble layer's ParameterTable (private to src/api).
#include "api/myriad/myriad.hpp"
#include "ensemble/parameter_table.hpp"

namespace myriad::api {

// The table build_ensemble reads: same source, names and values (row i = instance i). O(N P).
ParameterTable to_parameter_table(const ParameterSet& set);

}  // namespace myriad::api
