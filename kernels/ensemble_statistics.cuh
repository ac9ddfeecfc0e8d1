#pragma once
// Kernel entry points of the ensemble statistics (the CUDA twin of compute_statistics in
// src/ensemble/ensemble_statistics.hpp, whose per-cell functions they run).
//
// Determinism: no atomics. Every output is written by exactly one thread, which combines its inputs in the
// order fixed by src/ensemble/ensemble_statistics.hpp (tiles of kStatisticsTileInstances instances, two
// passes in instance order per tile, a fixed bottom-up pairwise tree over the tiles), so results are
// reproducible run to run and equal to the CPU's operation for operation, whatever the grid, the chunk size
// or the device.
//
// Nothing here synchronises with the host: the launchers enqueue on `stream` and return the launch status. A
// run enqueues launch_statistics_chunk once per chunk of outputs (as the CUDA runner produces them) and
// launch_statistics_finish once at the end, then copies the result arrays back.
#include <cuda_runtime.h>

#include "ensemble/ensemble_statistics.hpp"

namespace myriad::cuda {

// Device buffers of the statistics of a whole ensemble, grid-invariant; built once on the host.
struct StatisticsParams {
  int n_times = 0, n_signals = 0;
  long long n_instances = 0;  // of the whole ensemble
  // statistics_tile_count(n_instances) * n_times * n_signals partials,
  // [tile * n_times * n_signals + k * n_signals + s]; written by launch_statistics_chunk, merged in place by
  // launch_statistics_finish.
  MomentPartial* partials = nullptr;
  // n_times * n_signals, [k * n_signals + s]; written by launch_statistics_finish.
  int* count = nullptr;
  double* mean = nullptr;
  double* stddev = nullptr;  // sample standard deviation
  double* min = nullptr;
  double* max = nullptr;
  // n_instances * n_signals, [i * n_signals + s]; written by launch_statistics_chunk.
  double* kpi_max_abs = nullptr;
  double* kpi_rms = nullptr;
  double* kpi_final = nullptr;
};

// Tile partials and KPIs of instances [first, first + count): `chunk_values` is the chunk's device outputs,
// [((i - first) * n_times + k) * n_signals + s] (EnsembleResult::values' layout). `first` must be a multiple
// of kStatisticsTileInstances and only the ensemble's last chunk may end inside a tile (else
// cudaErrorInvalidValue), so tiles never straddle chunks. O(count * n_times * n_signals) work on count /
// kStatisticsTileInstances * n_times * n_signals + count * n_signals threads.
cudaError_t launch_statistics_chunk(const StatisticsParams& params, const double* chunk_values,
                                    long long first, long long count, cudaStream_t stream);

// Merges the tile partials of every (time, signal) and writes count, mean, stddev, min and max. Enqueue after
// the chunks. O(n_tiles) per (time, signal), one thread each.
cudaError_t launch_statistics_finish(const StatisticsParams& params, cudaStream_t stream);

}  // namespace myriad::cuda
