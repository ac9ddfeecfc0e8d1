#pragma once
// simulate --out FILE.csv in chunks of instances, so that a large ensemble's series never sit in memory at
// once (issue 18: "simulate --out uses the same sinks"): each chunk runs through api::simulate, its rows go
// to the file while the next chunk computes, and what is kept of the whole ensemble is per instance and small
// (status, counters, wall time, named KPIs). The file is the one an unchunked run writes, byte for byte.
#include <functional>
#include <string>
#include <vector>

#include "api/myriad/myriad.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_progress.hpp"

namespace myriad::cli {

// Instances per chunk when the caller names none: as many as kStreamChunkBytes of output values hold, or
// kDeviceStreamChunkBytes on the cuda backend, whose throughput grows with the instances in a launch to 1e5
// and beyond (bench/results/ensemble_throughput_gpu.md).
constexpr double kStreamChunkBytes = 256.0 * 1024 * 1024;
constexpr double kDeviceStreamChunkBytes = 2048.0 * 1024 * 1024;
long long default_stream_chunk(long long output_times, int n_signals, bool cuda);

// Runs `request` (its parameter rows, or `instances` plain instances) chunk by chunk and writes the result
// CSV to `out` atomically (nothing at `out` unless every chunk ran and was written). Returns the ensemble's
// result without its series (values empty): statuses, counters, wall times and KPIs of every instance, the
// output times, the threads and the summed wall time of the chunks. `progress` counts instances computed and
// written across chunks; `last_chunk_computed` (optional) is called when nothing is left to compute, only to
// write; `chunk_values` (optional) gets each chunk's series (its instance count and n x T x S values, instance
// order) once they are written and before they are freed.
EnsembleResult simulate_csv_streamed(const api::LoadedModel& model, const api::SimulateRequest& request,
                                     long long instances, long long chunk, const std::string& out,
                                     RunProgress& progress, std::vector<std::string>* kpi_names,
                                     std::vector<std::string>* kpi_units,
                                     const std::function<void()>& last_chunk_computed = {},
                                     const std::function<void(long long, const double*)>& chunk_values = {});

}  // namespace myriad::cli
