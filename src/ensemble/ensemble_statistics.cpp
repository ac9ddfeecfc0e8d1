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

}  // namespace

EnsembleStatistics compute_statistics(const EnsembleResult& result, int threads) {
  if (result.n_instances < 0 || result.n_times < 0 || result.n_signals < 0)
    throw std::invalid_argument("compute_statistics: negative ensemble result dimensions");
  const size_t cells = static_cast<size_t>(result.n_times) * static_cast<size_t>(result.n_signals);
  const long long n = result.n_instances;
  if (result.values.size() != static_cast<size_t>(n) * cells)
    throw std::invalid_argument("compute_statistics: the result holds " +
                                std::to_string(result.values.size()) +
                                " values, expected n_instances * n_times * n_signals = " +
                                std::to_string(static_cast<size_t>(n) * cells));

  EnsembleStatistics stats;
  stats.n_times = result.n_times;
  stats.n_signals = result.n_signals;
  stats.n_instances = result.n_instances;
  stats.count.assign(cells, 0);
  stats.mean.assign(cells, 0.0);
  stats.stddev.assign(cells, 0.0);
  stats.min.assign(cells, 0.0);
  stats.max.assign(cells, 0.0);
  const size_t kpis = static_cast<size_t>(n) * static_cast<size_t>(result.n_signals);
  stats.kpi_max_abs.assign(kpis, 0.0);
  stats.kpi_rms.assign(kpis, 0.0);
  stats.kpi_final.assign(kpis, 0.0);

  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const long long n_tiles = statistics_tile_count(n);
  const int tile_threads = static_cast<int>(std::max(1LL, std::min<long long>(threads, n_tiles)));

  // Tile partials [tile * cells + cell], written by the tile pass, merged in place by the cell pass.
  std::vector<MomentPartial> partials(static_cast<size_t>(n_tiles) * cells);
  // Per-thread accumulators of the tile pass (cells each), allocated here so that the workers allocate
  // nothing.
  std::vector<std::vector<TileFirstPass>> first_passes(static_cast<size_t>(tile_threads),
                                                       std::vector<TileFirstPass>(cells));
  std::vector<std::vector<TileSecondPass>> second_passes(static_cast<size_t>(tile_threads),
                                                         std::vector<TileSecondPass>(cells));
  std::vector<std::vector<double>> shifts(static_cast<size_t>(tile_threads), std::vector<double>(cells));
  const double* values = result.values.data();
  const int n_times = result.n_times, n_signals = result.n_signals;

  // Tile pass: each tile's partials (two passes over its contiguous block of instances) and its instances'
  // KPIs. The loops run instance-outer for locality; per cell the operations are those of the kernel's loop,
  // in the same (instance) order.
  for_each_slice(tile_threads, n_tiles, [&](int part, long long tile_begin, long long tile_end) {
    std::vector<TileFirstPass>& first = first_passes[static_cast<size_t>(part)];
    std::vector<TileSecondPass>& second = second_passes[static_cast<size_t>(part)];
    std::vector<double>& shift = shifts[static_cast<size_t>(part)];
    for (long long tile = tile_begin; tile < tile_end; ++tile) {
      const long long i_begin = tile * kStatisticsTileInstances;
      const long long i_end = std::min(n, i_begin + kStatisticsTileInstances);
      std::fill(first.begin(), first.end(), TileFirstPass{});
      std::fill(second.begin(), second.end(), TileSecondPass{});
      for (long long i = i_begin; i < i_end; ++i) {
        const double* row = values + static_cast<size_t>(i) * cells;
        for (size_t c = 0; c < cells; ++c) tile_first_pass_add(first[c], row[c]);
      }
      for (size_t c = 0; c < cells; ++c) shift[c] = tile_first_pass_mean(first[c]);
      for (long long i = i_begin; i < i_end; ++i) {
        const double* row = values + static_cast<size_t>(i) * cells;
        for (size_t c = 0; c < cells; ++c) tile_second_pass_add(second[c], row[c], shift[c]);
      }
      MomentPartial* tile_partials = partials.data() + static_cast<size_t>(tile) * cells;
      for (size_t c = 0; c < cells; ++c) tile_partials[c] = tile_moment_partial(first[c], second[c]);
      for (long long i = i_begin; i < i_end; ++i)
        for (int s = 0; s < n_signals; ++s) {
          const size_t at = static_cast<size_t>(i) * static_cast<size_t>(n_signals) + static_cast<size_t>(s);
          instance_signal_kpis(values + static_cast<size_t>(i) * cells + static_cast<size_t>(s), n_signals,
                               n_times, &stats.kpi_max_abs[at], &stats.kpi_rms[at], &stats.kpi_final[at]);
        }
    }
  });

  // Cell pass: per (time, signal), the fixed pairwise tree over the tiles, then the final statistics.
  const int cell_threads =
      static_cast<int>(std::max<long long>(1, std::min<long long>(threads, static_cast<long long>(cells))));
  for_each_slice(cell_threads, static_cast<long long>(cells),
                 [&](int, long long cell_begin, long long cell_end) {
                   for (long long c = cell_begin; c < cell_end; ++c) {
                     const size_t at = static_cast<size_t>(c);
                     // No instances, no tiles: partials is empty (data() may be null, and null + at is
                     // undefined); the merge of zero tiles reads nothing.
                     MomentPartial* column = n_tiles > 0 ? partials.data() + at : nullptr;
                     const MomentPartial merged =
                         merge_tiles_in_place(column, static_cast<long long>(cells), n_tiles);
                     finish_moments(merged, &stats.count[at], &stats.mean[at], &stats.stddev[at],
                                    &stats.min[at], &stats.max[at]);
                   }
                 });
  return stats;
}

}  // namespace myriad
