#include "backends/cuda_statistics.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "backends/cuda_runner.hpp"

#ifdef MYRIAD_HAVE_CUDA
#include <cuda_runtime.h>

#include "backends/device_buffer.hpp"
#include "ensemble_statistics.cuh"
#endif

namespace myriad {

#ifndef MYRIAD_HAVE_CUDA

EnsembleStatistics compute_statistics_cuda(const EnsembleResult&) {
  throw std::runtime_error(
      "compute_statistics_cuda is not available: this build has no CUDA (MYRIAD_CUDA=OFF or no nvcc)");
}

#else

namespace {

using cuda::check;
using cuda::DeviceArray;
using cuda::Stream;

template <class T>
void download(std::vector<T>& to, const DeviceArray<T>& from, cudaStream_t stream) {
  if (to.empty()) return;
  check(cudaMemcpyAsync(to.data(), from.pointer, sizeof(T) * to.size(), cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync (statistics download)");
}

}  // namespace

EnsembleStatistics compute_statistics_cuda(const EnsembleResult& result) {
  if (result.n_instances < 0 || result.n_times < 0 || result.n_signals < 0)
    throw std::invalid_argument("compute_statistics_cuda: negative ensemble result dimensions");
  const size_t cells = static_cast<size_t>(result.n_times) * static_cast<size_t>(result.n_signals);
  const size_t n = static_cast<size_t>(result.n_instances);
  if (result.values.size() != n * cells)
    throw std::invalid_argument(
        "compute_statistics_cuda: the result holds " + std::to_string(result.values.size()) +
        " values, expected n_instances * n_times * n_signals = " + std::to_string(n * cells));
  std::string why;
  if (!cuda_device_available(&why)) throw std::runtime_error("compute_statistics_cuda: " + why);

  EnsembleStatistics stats;
  stats.n_times = result.n_times;
  stats.n_signals = result.n_signals;
  stats.n_instances = result.n_instances;
  stats.count.resize(cells);
  stats.mean.resize(cells);
  stats.stddev.resize(cells);
  stats.min.resize(cells);
  stats.max.resize(cells);
  const size_t kpis = n * static_cast<size_t>(result.n_signals);
  stats.kpi_max_abs.resize(kpis);
  stats.kpi_rms.resize(kpis);
  stats.kpi_final.resize(kpis);

  const Stream stream;
  const DeviceArray<double> values(result.values.size());
  const DeviceArray<MomentPartial> partials(static_cast<size_t>(statistics_tile_count(result.n_instances)) *
                                            cells);
  const DeviceArray<int> count(cells);
  const DeviceArray<double> mean(cells), stddev(cells), min(cells), max(cells);
  const DeviceArray<double> kpi_max_abs(kpis), kpi_rms(kpis), kpi_final(kpis);

  cuda::StatisticsParams p;
  p.n_times = result.n_times;
  p.n_signals = result.n_signals;
  p.n_instances = result.n_instances;
  p.partials = partials.pointer;
  p.count = count.pointer;
  p.mean = mean.pointer;
  p.stddev = stddev.pointer;
  p.min = min.pointer;
  p.max = max.pointer;
  p.kpi_max_abs = kpi_max_abs.pointer;
  p.kpi_rms = kpi_rms.pointer;
  p.kpi_final = kpi_final.pointer;

  if (!result.values.empty())
    check(cudaMemcpyAsync(values.pointer, result.values.data(), sizeof(double) * result.values.size(),
                          cudaMemcpyHostToDevice, stream.stream),
          "cudaMemcpyAsync (statistics upload)");
  // The whole result is one chunk.
  check(cuda::launch_statistics_chunk(p, values.pointer, 0, result.n_instances, stream.stream),
        "statistics chunk kernels launch");
  check(cuda::launch_statistics_finish(p, stream.stream), "statistics finish kernel launch");
  download(stats.count, count, stream.stream);
  download(stats.mean, mean, stream.stream);
  download(stats.stddev, stddev, stream.stream);
  download(stats.min, min, stream.stream);
  download(stats.max, max, stream.stream);
  download(stats.kpi_max_abs, kpi_max_abs, stream.stream);
  download(stats.kpi_rms, kpi_rms, stream.stream);
  download(stats.kpi_final, kpi_final, stream.stream);
  check(cudaStreamSynchronize(stream.stream), "statistics kernels");
  return stats;
}

#endif

}  // namespace myriad
