// Chunk k + 1 computes on a second thread while chunk k is written: the writer thread is the caller's, so an
// exception from either side ends the run with the temporary file removed (io/atomic_file.hpp).
#include "simulate_csv_stream.hpp"

#include <algorithm>
#include <future>
#include <stdexcept>
#include <utility>

#include "api/simulation_result.hpp"
#include "io/atomic_file.hpp"
#include "io/result_writers.hpp"

namespace myriad::cli {

long long default_stream_chunk(long long output_times, int n_signals, bool cuda) {
  const double per_instance =
      8.0 * static_cast<double>(std::max<long long>(1, output_times)) * std::max(1, n_signals);
  return std::max<long long>(
      1, static_cast<long long>((cuda ? kDeviceStreamChunkBytes : kStreamChunkBytes) / per_instance));
}

namespace {

// The request for instances [first, first + count): their parameter rows and their indices in the whole
// ensemble, which key their random inputs (api::SimulateRequest::instance_ids), so a row meets the road it
// meets in an unchunked run.
api::SimulateRequest chunk_request(const api::SimulateRequest& whole, long long first, long long count,
                                   RunProgress& progress) {
  api::SimulateRequest r;
  r.options = whole.options;
  r.overrides = whole.overrides;
  r.cancel = whole.cancel;
  r.keep_series = true;
  r.instances = count;
  if (whole.parameters) {
    const api::ParameterSet& p = *whole.parameters;
    const std::size_t columns = p.names.size();
    r.parameters = api::ParameterSet::from_array(p.names, count,
                                                 p.values.data() + static_cast<std::size_t>(first) * columns);
    r.parameters->source = p.source;
  }
  r.instance_ids.resize(static_cast<std::size_t>(count));
  for (long long i = 0; i < count; ++i) r.instance_ids[static_cast<std::size_t>(i)] = first + i;
  if (whole.progress)  // a quiet run asks for no reports (nor the API's reporting thread)
    r.progress = [&progress, first](const api::Progress& p) {
      progress.instances_done.store(first + p.done, std::memory_order_relaxed);
    };
  return r;
}

template <class T>
void append(std::vector<T>& to, const std::vector<T>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

}  // namespace

EnsembleResult simulate_csv_streamed(const api::LoadedModel& model, const api::SimulateRequest& request,
                                     long long instances, long long chunk, const std::string& out,
                                     RunProgress& progress, std::vector<std::string>* kpi_names,
                                     std::vector<std::string>* kpi_units,
                                     const std::function<void()>& last_chunk_computed,
                                     const std::function<void(long long, const double*)>& chunk_values) {
  if (chunk < 1) throw std::invalid_argument("--chunk: expected a positive number of instances");
  EnsembleResult whole;
  whole.n_instances = static_cast<int>(instances);
  const auto run_chunk = [&](long long first) {
    return api::simulate(model, chunk_request(request, first, std::min(chunk, instances - first), progress));
  };
  write_file_atomically(out, [&](std::ostream& stream) {
    write_result_csv_header(stream, model.signal_names());
    std::future<api::SimulationResult> next = std::async(std::launch::async, run_chunk, 0LL);
    for (long long first = 0; first < instances; first += chunk) {
      api::SimulationResult part = next.get();
      if (first + chunk < instances)
        next = std::async(std::launch::async, run_chunk, first + chunk);
      else if (last_chunk_computed)
        last_chunk_computed();
      if (first == 0) {
        whole.times = part.times;
        whole.n_times = part.n_times;
        whole.n_signals = part.n_signals;
        whole.threads = part.threads;
        if (kpi_names) *kpi_names = part.kpi_names;
        if (kpi_units) *kpi_units = part.kpi_units;
      }
      write_result_csv_rows(stream, first, part.n_instances, part.times, part.n_signals, part.values->data(),
                            &progress);
      if (chunk_values) chunk_values(part.n_instances, part.values->data());
      part.values.reset();  // before the next chunk's result arrives: two chunks' series at most
      EnsembleResult e = api::to_ensemble_result(std::move(part));
      append(whole.status, e.status);
      append(whole.stats, e.stats);
      append(whole.wall_seconds, e.wall_seconds);
      append(whole.kpis, e.kpis);
      whole.n_kpis = e.n_kpis;
      whole.total_wall_seconds += e.total_wall_seconds;
    }
  });
  return whole;
}

}  // namespace myriad::cli
