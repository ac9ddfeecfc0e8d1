#include "ensemble_statistics.cuh"

namespace myriad::cuda {

namespace {

constexpr int kThreadsPerBlock = 256;

unsigned blocks_for(long long threads) {
  const long long blocks = (threads + kThreadsPerBlock - 1) / kThreadsPerBlock;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > 0x7fffffffLL ? 0x7fffffffLL : blocks));
}

// One thread per (tile, cell) of the chunk: the tile's two passes over its instances in index order. Across a
// warp the cells are consecutive, so each load of an instance's row is coalesced.
__global__ void tile_partials_kernel(const StatisticsParams p, const double* values, long long first,
                                     long long count) {
  const long long cells = static_cast<long long>(p.n_times) * p.n_signals;
  const long long chunk_tiles = statistics_tile_count(count);
  for (long long index = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
       index < chunk_tiles * cells; index += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long tile = index / cells, cell = index - tile * cells;
    const long long i_begin = tile * kStatisticsTileInstances;
    const long long i_end =
        i_begin + kStatisticsTileInstances < count ? i_begin + kStatisticsTileInstances : count;
    TileFirstPass first_pass;
    for (long long i = i_begin; i < i_end; ++i) tile_first_pass_add(first_pass, values[i * cells + cell]);
    const double shift = tile_first_pass_mean(first_pass);
    TileSecondPass second_pass;
    for (long long i = i_begin; i < i_end; ++i)
      tile_second_pass_add(second_pass, values[i * cells + cell], shift);
    p.partials[(first / kStatisticsTileInstances + tile) * cells + cell] =
        tile_moment_partial(first_pass, second_pass);
  }
}

// One thread per (instance, signal) of the chunk: its KPIs over the output times, in time order.
__global__ void instance_kpis_kernel(const StatisticsParams p, const double* values, long long first,
                                     long long count) {
  const long long signals = p.n_signals;
  for (long long index = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
       index < count * signals; index += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long local = index / signals, s = index - local * signals;
    const long long at = (first + local) * signals + s;
    instance_signal_kpis(values + local * p.n_times * signals + s, signals, p.n_times, p.kpi_max_abs + at,
                         p.kpi_rms + at, p.kpi_final + at);
  }
}

// One thread per (time, signal): the fixed pairwise tree over all tiles, then the final statistics. Reads of
// tile j are coalesced across the warp's consecutive cells.
__global__ void finish_kernel(const StatisticsParams p) {
  const long long cells = static_cast<long long>(p.n_times) * p.n_signals;
  const long long n_tiles = statistics_tile_count(p.n_instances);
  for (long long cell = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; cell < cells;
       cell += static_cast<long long>(gridDim.x) * blockDim.x) {
    const MomentPartial merged = merge_tiles_in_place(p.partials + cell, cells, n_tiles);
    finish_moments(merged, p.count + cell, p.mean + cell, p.stddev + cell, p.min + cell, p.max + cell);
  }
}

}  // namespace

cudaError_t launch_statistics_chunk(const StatisticsParams& params, const double* chunk_values,
                                    long long first, long long count, cudaStream_t stream) {
  if (first < 0 || count < 0 || first + count > params.n_instances || first % kStatisticsTileInstances != 0 ||
      ((first + count) % kStatisticsTileInstances != 0 && first + count != params.n_instances))
    return cudaErrorInvalidValue;
  const long long cells = static_cast<long long>(params.n_times) * params.n_signals;
  if (count == 0 || params.n_signals == 0) return cudaSuccess;
  if (cells > 0) {
    tile_partials_kernel<<<blocks_for(statistics_tile_count(count) * cells), kThreadsPerBlock, 0, stream>>>(
        params, chunk_values, first, count);
    const cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) return status;
  }
  instance_kpis_kernel<<<blocks_for(count * params.n_signals), kThreadsPerBlock, 0, stream>>>(
      params, chunk_values, first, count);
  return cudaGetLastError();
}

cudaError_t launch_statistics_finish(const StatisticsParams& params, cudaStream_t stream) {
  const long long cells = static_cast<long long>(params.n_times) * params.n_signals;
  if (cells == 0) return cudaSuccess;
  finish_kernel<<<blocks_for(cells), kThreadsPerBlock, 0, stream>>>(params);
  return cudaGetLastError();
}

}  // namespace myriad::cuda
