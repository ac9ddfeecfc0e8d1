#include "backends/absolute_cuda.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/absolute_batch.hpp"
#include "ensemble/ensemble_kpis.hpp"
#include "kpi/kpi.hpp"

#ifdef MYRIAD_HAVE_CUDA
#include "absolute_kernel.cuh"
#include "backends/device_buffer.hpp"
#endif

namespace myriad {

#ifndef MYRIAD_HAVE_CUDA

EnsembleResult run_ensemble_absolute_cuda(AbsoluteCoordinates, const Model&, const CompiledModel&,
                                          const Ensemble&, const RunSpec&, const std::vector<double>&, int,
                                          const CudaRunOptions&) {
  throw std::runtime_error(
      "the cuda backend is not available: this build has no CUDA (MYRIAD_CUDA=OFF or no nvcc)");
}

#else

namespace {

// Device bytes of one instance of `batch`'s layout: its model, start, constants, rows, workspace, status,
// rows reached and counters (the coefficients, shared by the chunk, are counted apart).
size_t absolute_instance_device_bytes(const AbsoluteBatch& batch) {
  const size_t doubles = static_cast<size_t>(batch.ny) + static_cast<size_t>(batch.constant_stride) +
                         static_cast<size_t>(batch.n_times) * static_cast<size_t>(batch.row_size) +
                         static_cast<size_t>(batch.work_size);
  return sizeof(AbsoluteRunModel) + sizeof(double) * doubles + 2 * sizeof(int) + sizeof(IntegratorStats);
}

template <class T>
void copy_to_host(std::vector<T>& out, const cuda::DeviceArray<T>& from, size_t count) {
  out.resize(count);
  cuda::check(cudaMemcpy(out.data(), from.pointer, sizeof(T) * count, cudaMemcpyDeviceToHost),
              "cudaMemcpy (absolute results)");
}

template <class T>
void copy_to_device(cuda::DeviceArray<T>& to, const std::vector<T>& from) {
  if (from.empty()) return;
  cuda::check(cudaMemcpy(to.pointer, from.data(), sizeof(T) * from.size(), cudaMemcpyHostToDevice),
              "cudaMemcpy (absolute batch)");
}

}  // namespace

EnsembleResult run_ensemble_absolute_cuda(AbsoluteCoordinates coordinates, const Model& model,
                                          const CompiledModel& compiled, const Ensemble& ensemble,
                                          const RunSpec& spec, const std::vector<double>& output_times,
                                          int threads, const CudaRunOptions& options) {
  check_absolute_run(coordinates, model, compiled, ensemble, spec);
  if (options.threads_per_block < 1 || options.threads_per_block > 1024)
    throw std::invalid_argument("threads_per_block " + std::to_string(options.threads_per_block) +
                                " is outside 1..1024");
  std::string why;
  if (!cuda_device_available(&why)) throw std::runtime_error("cuda backend: " + why);
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const int n = ensemble.n_instances;
  EnsembleResult result = make_ensemble_result(n, output_times, compiled.n_outputs, options.keep_series);
  result.kpi_state.assign(static_cast<size_t>(n) * static_cast<size_t>(compiled.n_kpis) * kKpiStateDoubles,
                          0.0);
  result.threads = 0;
  if (n == 0 || output_times.empty()) return result;

  // The chunk size from instance 0's layout (parameters change no structure).
  const AbsoluteBatch probe =
      prepare_absolute_batch(coordinates, model, compiled, ensemble, 0, 1, output_times, 1);
  size_t budget = options.memory_budget_bytes;
  if (budget == 0) {
    size_t free_bytes = 0, total_bytes = 0;
    cuda::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    budget = free_bytes / 2;
  }
  const size_t per_instance =
      absolute_instance_device_bytes(probe) + sizeof(double) * probe.coefficients.size();
  const int chunk =
      static_cast<int>(std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(n), budget / per_instance)));

  cuda::DeviceBuffer d_compiled = cuda::upload(&compiled, 1);
  cuda::DeviceBuffer d_times = cuda::upload(output_times.data(), output_times.size());
  cuda::Stream stream;
  for (int first = 0; first < n; first += chunk) {
    if (options.progress && options.progress->cancelled()) break;  // the instances not run keep NaN and ok
    const int count = std::min(chunk, n - first);
    AbsoluteBatch batch =
        prepare_absolute_batch(coordinates, model, compiled, ensemble, first, count, output_times, threads);
    const size_t rows =
        static_cast<size_t>(count) * static_cast<size_t>(batch.n_times) * static_cast<size_t>(batch.row_size);
    cuda::DeviceArray<double> d_constants(batch.constants.size()), d_coefficients(batch.coefficients.size());
    cuda::DeviceArray<double> d_starts(batch.starts.size()), d_rows(rows);
    cuda::DeviceArray<double> d_work(static_cast<size_t>(count) * static_cast<size_t>(batch.work_size));
    cuda::DeviceArray<AbsoluteRunModel> d_models(static_cast<size_t>(count));
    cuda::DeviceArray<int> d_status(static_cast<size_t>(count)), d_reached(static_cast<size_t>(count));
    cuda::DeviceArray<IntegratorStats> d_stats(static_cast<size_t>(count));
    place_absolute_batch(batch, d_compiled.as<CompiledModel>(), d_constants.pointer, d_coefficients.pointer);
    copy_to_device(d_constants, batch.constants);
    copy_to_device(d_coefficients, batch.coefficients);
    copy_to_device(d_starts, batch.starts);
    copy_to_device(d_models, batch.models);
    copy_to_device(d_status, batch.status);
    cuda::check(cudaMemset(d_reached.pointer, 0, sizeof(int) * static_cast<size_t>(count)), "cudaMemset");

    cuda::AbsoluteKernelParams p;
    p.models = d_models.pointer;
    p.count = count;
    p.starts = d_starts.pointer;
    p.ny = batch.ny;
    p.times = d_times.as<double>();
    p.n_times = batch.n_times;
    p.rows = d_rows.pointer;
    p.row_size = batch.row_size;
    p.accelerations = batch.accelerations;
    p.work = d_work.pointer;
    p.work_size = batch.work_size;
    p.status = d_status.pointer;
    p.reached = d_reached.pointer;
    p.stats = d_stats.pointer;
    p.scheme = spec.implicit;
    p.options = spec.implicit_options;
    p.t0 = spec.t0;
    p.h = spec.h;
    p.max_steps = spec.max_steps;
    cudaError_t launched = cudaSuccess;
    switch (coordinates) {
      case AbsoluteCoordinates::rp:
        launched = cuda::launch_absolute_rp(p, options.threads_per_block, stream.stream);
        break;
      case AbsoluteCoordinates::re:
        launched = cuda::launch_absolute_re(p, options.threads_per_block, stream.stream);
        break;
      case AbsoluteCoordinates::rA:
        launched = cuda::launch_absolute_ra(p, options.threads_per_block, stream.stream);
        break;
    }
    cuda::check(launched, "absolute kernel launch");
    cuda::check(cudaStreamSynchronize(stream.stream), "absolute kernel");

    AbsoluteBatchRun run;
    copy_to_host(run.rows, d_rows, rows);
    copy_to_host(run.status, d_status, static_cast<size_t>(count));
    copy_to_host(run.reached, d_reached, static_cast<size_t>(count));
    copy_to_host(run.stats, d_stats, static_cast<size_t>(count));
    record_absolute_batch(batch, run, model, compiled, ensemble, output_times, threads, result);
    if (options.progress) options.progress->finished(count);
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  result.total_wall_seconds = seconds;
  for (double& s : result.wall_seconds) s = seconds / n;  // a kernel's instances are not timed one by one
  finish_kpis(compiled, result);
  return result;
}

#endif

}  // namespace myriad
