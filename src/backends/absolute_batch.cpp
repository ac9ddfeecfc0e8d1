#include "backends/absolute_batch.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <string>

#include "ensemble/instance_blocks.hpp"
#include "kpi/kpi.hpp"

namespace myriad {

namespace {

BodyAxisOrder batch_axes(AbsoluteCoordinates coordinates) {
  return coordinates == AbsoluteCoordinates::re ? BodyAxisOrder::z_away_from_world_z : BodyAxisOrder::as_found;
}

// Runs work(i) for i in [0, count) on `threads` host threads, in blocks.
template <class Work>
void for_each_instance(int count, int threads, const Work& work) {
  threads = resolve_thread_count(threads, count);
  InstanceBlocks blocks(count, ensemble_block_size(count, threads));
  run_on_threads(threads, [&] {
    long long begin = 0, end = 0;
    while (blocks.claim(begin, end))
      for (long long i = begin; i < end; ++i) work(static_cast<int>(i));
  });
}

std::vector<double> batch_start(AbsoluteCoordinates coordinates, const Model& literal,
                                const AbsoluteInstance& instance) {
  const std::vector<WorldBodyState> bodies = start_body_states(literal, instance);
  switch (coordinates) {
    case AbsoluteCoordinates::rp:
      return absolute_state<EulerParameterCoordinates>(instance.mapping, bodies);
    case AbsoluteCoordinates::re:
      return absolute_state<EulerAngleCoordinates>(instance.mapping, bodies);
    case AbsoluteCoordinates::rA:
      break;
  }
  return rotation_matrix_start(instance.mapping, bodies);
}

long long batch_workspace(AbsoluteCoordinates coordinates, const AbsoluteRunModel& model) {
  switch (coordinates) {
    case AbsoluteCoordinates::rp:
      return absolute_instance_workspace_size<EulerParameterCoordinates>(model);
    case AbsoluteCoordinates::re:
      return absolute_instance_workspace_size<EulerAngleCoordinates>(model);
    case AbsoluteCoordinates::rA:
      break;
  }
  return rotation_matrix_instance_workspace_size(model);
}

// The row size of an instance whose state has ny values: rp and re's state and q'' (ny / 2), rA's state and
// (r'', omega-bar') per body.
int batch_row_size(AbsoluteCoordinates coordinates, int ny, bool accelerations) {
  if (coordinates == AbsoluteCoordinates::rA)
    return rotation_matrix_row_size(ny / kRotationMatrixBodyValues, accelerations);
  return absolute_row_size(ny, ny / 2, accelerations);
}

}  // namespace

AbsoluteBatch prepare_absolute_batch(AbsoluteCoordinates coordinates, const Model& model,
                                     const CompiledModel& compiled, const Ensemble& ensemble, int first,
                                     int count, const std::vector<double>& output_times, int threads) {
  AbsoluteBatch batch;
  batch.coordinates = coordinates;
  batch.first = first;
  batch.count = count;
  batch.n_times = static_cast<int>(output_times.size());
  batch.accelerations = outputs_read_accelerations(compiled);
  batch.constant_stride = compiled.n_constants + 1;
  batch.instances.resize(static_cast<size_t>(count));
  batch.constants.assign(static_cast<size_t>(count) * static_cast<size_t>(batch.constant_stride), 0.0);
  batch.status.assign(static_cast<size_t>(count), static_cast<int>(InstanceStatus::ok));
  std::vector<std::vector<double>> starts(static_cast<size_t>(count));
  for_each_instance(count, threads, [&](int k) {
    const size_t index = static_cast<size_t>(k);
    std::vector<double> values(model.parameters.size());
    double* constants = batch.constants.data() + index * static_cast<size_t>(batch.constant_stride);
    try {
      const Model literal = ensemble.literal_model(model, first + k, values);
      ensemble.gather_constants(first + k, constants);
      batch.instances[index] = prepare_absolute_instance(literal, compiled, constants, ensemble, first + k,
                                                         batch_axes(coordinates));
      starts[index] = batch_start(coordinates, literal, batch.instances[index]);
    } catch (const std::exception&) {
      batch.status[index] = static_cast<int>(InstanceStatus::non_finite);  // the start does not assemble
    }
  });

  // The layout: the prepared instances' sizes (parameters change no structure, so they agree).
  for (int k = 0; k < count; ++k) {
    const size_t index = static_cast<size_t>(k);
    if (batch.status[index] != static_cast<int>(InstanceStatus::ok)) continue;
    const int ny = static_cast<int>(starts[index].size());
    if (batch.ny == 0) batch.ny = ny;
    if (ny != batch.ny)
      throw std::logic_error("prepare_absolute_batch: instance " + std::to_string(first + k) + " has " +
                             std::to_string(ny) + " state values, instance " + std::to_string(first) +
                             "'s batch " + std::to_string(batch.ny));
    const AbsoluteRunModel& m = *batch.instances[index].model;
    batch.work_size = std::max(batch.work_size, batch_workspace(coordinates, m));
  }
  batch.row_size = batch_row_size(coordinates, batch.ny, batch.accelerations);
  batch.starts.assign(static_cast<size_t>(count) * static_cast<size_t>(batch.ny), 0.0);
  batch.models.resize(static_cast<size_t>(count));
  batch.driver_offsets.assign(static_cast<size_t>(count) * kMaxAbsoluteDrivers, -1);
  for (int k = 0; k < count; ++k) {
    const size_t index = static_cast<size_t>(k);
    if (batch.status[index] != static_cast<int>(InstanceStatus::ok)) continue;
    std::copy(starts[index].begin(), starts[index].end(), batch.starts.begin() + index * batch.ny);
    batch.models[index] = *batch.instances[index].model;
    const PackedDrivers& drivers = batch.instances[index].drivers;
    for (size_t d = 0; d < drivers.coefficients.size(); ++d) {
      batch.driver_offsets[index * kMaxAbsoluteDrivers + d] =
          static_cast<long long>(batch.coefficients.size());
      batch.coefficients.insert(batch.coefficients.end(), drivers.coefficients[d].begin(),
                                drivers.coefficients[d].end());
    }
  }
  return batch;
}

void place_absolute_batch(AbsoluteBatch& batch, const CompiledModel* compiled_at, const double* constants_at,
                          const double* coefficients_at) {
  for (int k = 0; k < batch.count; ++k) {
    const size_t index = static_cast<size_t>(k);
    AbsoluteRunModel& m = batch.models[index];
    m.compiled = compiled_at;
    m.constants = constants_at + index * static_cast<size_t>(batch.constant_stride);
    for (int d = 0; d < kMaxAbsoluteDrivers; ++d) {
      const long long offset = batch.driver_offsets[index * kMaxAbsoluteDrivers + static_cast<size_t>(d)];
      m.drivers[d].coefficients = offset >= 0 ? coefficients_at + offset : nullptr;
    }
  }
}

AbsoluteBatchRun run_absolute_batch_on_host(AbsoluteBatch& batch, const CompiledModel& compiled,
                                            const RunSpec& spec, const std::vector<double>& output_times) {
  place_absolute_batch(batch, &compiled, batch.constants.data(), batch.coefficients.data());
  AbsoluteBatchRun run;
  const size_t rows_per_instance = static_cast<size_t>(batch.n_times) * static_cast<size_t>(batch.row_size);
  run.rows.assign(static_cast<size_t>(batch.count) * rows_per_instance, quiet_nan());
  run.status = batch.status;
  run.reached.assign(static_cast<size_t>(batch.count), 0);
  run.stats.assign(static_cast<size_t>(batch.count), IntegratorStats());
  std::vector<double> work(static_cast<size_t>(batch.work_size));
  for (int k = 0; k < batch.count; ++k) {
    const size_t index = static_cast<size_t>(k);
    if (run.status[index] != static_cast<int>(InstanceStatus::ok)) continue;
    double* y = batch.starts.data() + index * static_cast<size_t>(batch.ny);
    double* rows = run.rows.data() + index * rows_per_instance;
    AbsoluteRunModel& m = batch.models[index];
    IntegratorStats& stats = run.stats[index];
    int& reached = run.reached[index];
    InstanceStatus status = InstanceStatus::ok;
    switch (batch.coordinates) {
      case AbsoluteCoordinates::rp:
        status = integrate_absolute_instance<EulerParameterCoordinates>(
            m, spec.implicit, spec.implicit_options, spec.t0, spec.h, spec.max_steps, y, output_times.data(),
            batch.n_times, batch.accelerations, rows, work.data(), stats, reached);
        break;
      case AbsoluteCoordinates::re:
        status = integrate_absolute_instance<EulerAngleCoordinates>(
            m, spec.implicit, spec.implicit_options, spec.t0, spec.h, spec.max_steps, y, output_times.data(),
            batch.n_times, batch.accelerations, rows, work.data(), stats, reached);
        break;
      case AbsoluteCoordinates::rA:
        status = integrate_rotation_matrix_instance(m, spec.implicit_options, spec.t0, spec.h, spec.max_steps, y,
                                                    output_times.data(), batch.n_times, batch.accelerations, rows,
                                                    work.data(), stats, reached);
        break;
    }
    run.status[index] = static_cast<int>(status);
  }
  return run;
}

void record_absolute_batch(const AbsoluteBatch& batch, const AbsoluteBatchRun& run, const Model& model,
                           const CompiledModel& compiled, const Ensemble& ensemble,
                           const std::vector<double>& output_times, int threads, EnsembleResult& result) {
  const size_t per_instance = output_times.size() * static_cast<size_t>(compiled.n_outputs);
  const size_t kpi_doubles = static_cast<size_t>(compiled.n_kpis) * kKpiStateDoubles;
  const size_t rows_per_instance = static_cast<size_t>(batch.n_times) * static_cast<size_t>(batch.row_size);
  for_each_instance(batch.count, threads, [&](int k) {
    const size_t local = static_cast<size_t>(k), index = static_cast<size_t>(batch.first + k);
    InstanceStatus status = static_cast<InstanceStatus>(run.status[local]);
    result.stats[index] = run.stats[local];
    std::vector<double> signals(per_instance, quiet_nan());
    double* kpi_state = kpi_doubles > 0 ? result.kpi_state.data() + kpi_doubles * index : nullptr;
    if (batch.status[local] == static_cast<int>(InstanceStatus::ok)) {
      try {
        std::vector<double> values(model.parameters.size());
        const Model literal = ensemble.literal_model(model, batch.first + k, values);
        const double* constants = batch.constants.data() + local * static_cast<size_t>(batch.constant_stride);
        const AbsoluteInstance& instance = batch.instances[local];
        BodySignalRecorder recorder(literal, compiled, constants, output_times, signals.data(), kpi_state,
                                    instance.q0);
        const double* rows = run.rows.data() + local * rows_per_instance;
        const int reached = run.reached[local];
        switch (batch.coordinates) {
          case AbsoluteCoordinates::rp:
            record_absolute_rows<EulerParameterCoordinates>(recorder, instance.mapping, rows, reached,
                                                            batch.row_size);
            break;
          case AbsoluteCoordinates::re:
            record_absolute_rows<EulerAngleCoordinates>(recorder, instance.mapping, rows, reached, batch.row_size);
            break;
          case AbsoluteCoordinates::rA:
            record_rotation_matrix_rows(recorder, instance.mapping, rows, reached, batch.row_size);
            break;
        }
        if (status == InstanceStatus::ok && !recorder.recovered) status = InstanceStatus::non_finite;
      } catch (const std::exception&) {
        status = InstanceStatus::non_finite;  // joint coordinates that cannot be recovered from the bodies
      }
    }
    result.status[index] = status;
    if (!result.values.empty())
      std::copy(signals.begin(), signals.end(), result.values.begin() + per_instance * index);
  });
}

}  // namespace myriad
