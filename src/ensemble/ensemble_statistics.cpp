#include "ensemble/ensemble_statistics.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>

#include "ensemble/worker_threads.hpp"

namespace myriad {

namespace {

// Calls work(part, begin, end) for `parts` contiguous slices of [0, n), one thread per slice where the system
// gives one (worker_threads.hpp; the caller's thread when parts == 1). Every output a slice writes is written by
// that slice alone, so the results do not depend on `parts` nor on which thread ran a slice.
template <class Work>
void for_each_slice(int parts, long long n, const Work& work) {
  auto begin_of = [&](int part) { return n * part / parts; };
  if (parts <= 1) {
    work(0, 0LL, n);
    return;
  }
  run_tasks_on_threads(parts, [&](int part) { work(part, begin_of(part), begin_of(part + 1)); });
}

int resolve_statistics_threads(int threads) {
  return threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace

StatisticsStream begin_statistics(long long n_instances, int n_times, int n_signals) {
  if (n_instances < 0 || n_times < 0 || n_signals < 0)
    throw std::invalid_argument("compute_statistics: negative ensemble result dimensions");
  StatisticsStream stream;
  stream.n_instances = n_instances;
  stream.n_times = n_times;
  stream.n_signals = n_signals;
  const size_t cells = static_cast<size_t>(n_times) * static_cast<size_t>(n_signals);
  stream.partials.resize(static_cast<size_t>(statistics_tile_count(n_instances)) * cells);
  EnsembleStatistics& stats = stream.stats;
  stats.n_times = n_times;
  stats.n_signals = n_signals;
  stats.n_instances = static_cast<int>(n_instances);
  const size_t kpis = static_cast<size_t>(n_instances) * static_cast<size_t>(n_signals);
  stats.kpi_max_abs.assign(kpis, 0.0);
  stats.kpi_rms.assign(kpis, 0.0);
  stats.kpi_final.assign(kpis, 0.0);
  return stream;
}

void add_statistics_chunk(StatisticsStream& stream, long long n_chunk, const double* values, int threads) {
  const long long first = stream.next_instance, n = stream.n_instances;
  if (n_chunk < 0 || n_chunk > n - first)
    throw std::invalid_argument("statistics: a chunk of " + std::to_string(n_chunk) + " instances after " +
                                std::to_string(first) + " of " + std::to_string(n));
  if (first + n_chunk < n && n_chunk % kStatisticsTileInstances != 0)
    throw std::invalid_argument("statistics: a chunk of " + std::to_string(n_chunk) +
                                " instances, not a multiple of the tile (" +
                                std::to_string(kStatisticsTileInstances) + "), before the last");
  stream.next_instance += n_chunk;
  const size_t cells = static_cast<size_t>(stream.n_times) * static_cast<size_t>(stream.n_signals);
  const long long tile_first = first / kStatisticsTileInstances;
  const long long n_tiles = statistics_tile_count(n_chunk);
  const int tile_threads =
      static_cast<int>(std::max(1LL, std::min<long long>(resolve_statistics_threads(threads), n_tiles)));
  // Per-thread accumulators of the tile pass (cells each), allocated here so that the workers allocate nothing.
  std::vector<std::vector<TileFirstPass>> first_passes(static_cast<size_t>(tile_threads),
                                                       std::vector<TileFirstPass>(cells));
  std::vector<std::vector<TileSecondPass>> second_passes(static_cast<size_t>(tile_threads),
                                                         std::vector<TileSecondPass>(cells));
  std::vector<std::vector<double>> shifts(static_cast<size_t>(tile_threads), std::vector<double>(cells));
  const int n_times = stream.n_times, n_signals = stream.n_signals;
  EnsembleStatistics& stats = stream.stats;

  // Tile pass: each tile's partials (two passes over its contiguous block of instances) and its instances'
  // KPIs. The loops run instance-outer for locality; per cell the operations are those of the kernel's loop,
  // in the same (instance) order. i counts within the chunk.
  for_each_slice(tile_threads, n_tiles, [&](int part, long long tile_begin, long long tile_end) {
    std::vector<TileFirstPass>& first_pass = first_passes[static_cast<size_t>(part)];
    std::vector<TileSecondPass>& second = second_passes[static_cast<size_t>(part)];
    std::vector<double>& shift = shifts[static_cast<size_t>(part)];
    for (long long tile = tile_begin; tile < tile_end; ++tile) {
      const long long i_begin = tile * kStatisticsTileInstances;
      const long long i_end = std::min(n_chunk, i_begin + kStatisticsTileInstances);
      std::fill(first_pass.begin(), first_pass.end(), TileFirstPass{});
      std::fill(second.begin(), second.end(), TileSecondPass{});
      for (long long i = i_begin; i < i_end; ++i) {
        const double* row = values + static_cast<size_t>(i) * cells;
        for (size_t c = 0; c < cells; ++c) tile_first_pass_add(first_pass[c], row[c]);
      }
      for (size_t c = 0; c < cells; ++c) shift[c] = tile_first_pass_mean(first_pass[c]);
      for (long long i = i_begin; i < i_end; ++i) {
        const double* row = values + static_cast<size_t>(i) * cells;
        for (size_t c = 0; c < cells; ++c) tile_second_pass_add(second[c], row[c], shift[c]);
      }
      MomentPartial* tile_partials = stream.partials.data() + static_cast<size_t>(tile_first + tile) * cells;
      for (size_t c = 0; c < cells; ++c) tile_partials[c] = tile_moment_partial(first_pass[c], second[c]);
      for (long long i = i_begin; i < i_end; ++i)
        for (int s = 0; s < n_signals; ++s) {
          const size_t at =
              static_cast<size_t>(first + i) * static_cast<size_t>(n_signals) + static_cast<size_t>(s);
          instance_signal_kpis(values + static_cast<size_t>(i) * cells + static_cast<size_t>(s), n_signals,
                               n_times, &stats.kpi_max_abs[at], &stats.kpi_rms[at], &stats.kpi_final[at]);
        }
    }
  });
}

EnsembleStatistics finish_statistics(StatisticsStream& stream, int threads) {
  if (stream.next_instance != stream.n_instances)
    throw std::invalid_argument("statistics: " + std::to_string(stream.next_instance) + " of " +
                                std::to_string(stream.n_instances) + " instances added");
  const size_t cells = static_cast<size_t>(stream.n_times) * static_cast<size_t>(stream.n_signals);
  const long long n_tiles = statistics_tile_count(stream.n_instances);
  EnsembleStatistics stats = std::move(stream.stats);
  stats.count.assign(cells, 0);
  stats.mean.assign(cells, 0.0);
  stats.stddev.assign(cells, 0.0);
  stats.min.assign(cells, 0.0);
  stats.max.assign(cells, 0.0);
  // Cell pass: per (time, signal), the fixed pairwise tree over the tiles, then the final statistics.
  const int cell_threads = static_cast<int>(std::max<long long>(
      1, std::min<long long>(resolve_statistics_threads(threads), static_cast<long long>(cells))));
  for_each_slice(cell_threads, static_cast<long long>(cells),
                 [&](int, long long cell_begin, long long cell_end) {
                   for (long long c = cell_begin; c < cell_end; ++c) {
                     const size_t at = static_cast<size_t>(c);
                     // No instances, no tiles: partials is empty (data() may be null, and null + at is
                     // undefined); the merge of zero tiles reads nothing.
                     MomentPartial* column = n_tiles > 0 ? stream.partials.data() + at : nullptr;
                     const MomentPartial merged =
                         merge_tiles_in_place(column, static_cast<long long>(cells), n_tiles);
                     finish_moments(merged, &stats.count[at], &stats.mean[at], &stats.stddev[at],
                                    &stats.min[at], &stats.max[at]);
                   }
                 });
  stream.partials.clear();
  return stats;
}

EnsembleStatistics compute_statistics(const EnsembleResult& result, int threads) {
  const long long n = result.n_instances;
  StatisticsStream stream = begin_statistics(n, result.n_times, result.n_signals);  // checks the dimensions
  const size_t cells = static_cast<size_t>(result.n_times) * static_cast<size_t>(result.n_signals);
  if (result.values.size() != static_cast<size_t>(n) * cells)
    throw std::invalid_argument("compute_statistics: the result holds " +
                                std::to_string(result.values.size()) +
                                " values, expected n_instances * n_times * n_signals = " +
                                std::to_string(static_cast<size_t>(n) * cells));
  add_statistics_chunk(stream, n, result.values.data(), threads);
  return finish_statistics(stream, threads);
}

}  // namespace myriad
