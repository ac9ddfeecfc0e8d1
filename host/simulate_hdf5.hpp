#pragma once
// `myriad simulate MODEL --out FILE.h5`: the ensemble streamed chunk by chunk into the study's HDF5 results
// file (src/study, docs/study-format.md) instead of held whole and written as CSV at the end.
#include <string>

#include "commands.hpp"

namespace myriad::cli {

bool is_hdf5_path(const std::string& path);  // .h5 or .hdf5
int run_simulate_hdf5(const SimulateOptions& options);

}  // namespace myriad::cli
