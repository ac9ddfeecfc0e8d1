#include "backends/absolute_backend.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "absolute/absolute_run.hpp"
#include "absolute/model_mapping.hpp"
#include "backends/absolute_instance.hpp"
#include "core/scalar.hpp"
#include "ensemble/ensemble_kpis.hpp"
#include "ensemble/instance_blocks.hpp"

namespace myriad {

namespace {

using Clock = std::chrono::steady_clock;

// One instance, start to end: status; its rows (n_times x n_outputs) written where the integration reached. The
// integration is integrate_absolute_instance (absolute/absolute_run.hpp), the function the cuda kernel runs; its
// output states are turned into signals afterwards.
template <class Rep>
InstanceStatus run_instance(const Model& literal, const CompiledModel& compiled, const double* constants,
                            const Ensemble& ensemble, int i, const RunSpec& spec,
                            const std::vector<double>& times, double* rows, double* kpi_state,
                            IntegratorStats& stats) {
  const BodyAxisOrder axes = Rep::kNormalized ? BodyAxisOrder::as_found : BodyAxisOrder::z_away_from_world_z;
  const AbsoluteInstance instance = prepare_absolute_instance(literal, compiled, constants, ensemble, i, axes);
  std::vector<double> y = absolute_state<Rep>(instance.mapping, start_body_states(literal, instance));
  BodySignalRecorder recorder(literal, compiled, constants, times, rows, kpi_state, instance.q0);
  const int n_times = static_cast<int>(times.size()), ny = static_cast<int>(y.size());
  const int row_size = absolute_row_size(ny, ny / 2, recorder.accelerations);
  std::vector<double> states(static_cast<size_t>(n_times) * static_cast<size_t>(row_size));
  std::vector<double> work(static_cast<size_t>(absolute_instance_workspace_size<Rep>(*instance.model)));
  int reached = 0;
  const InstanceStatus status = integrate_absolute_instance<Rep>(
      *instance.model, spec.implicit, spec.implicit_options, spec.t0, spec.h, spec.max_steps, y.data(),
      times.data(), n_times, recorder.accelerations, states.data(), work.data(), stats, reached);
  record_absolute_rows<Rep>(recorder, instance.mapping, states.data(), reached, row_size);
  if (status == InstanceStatus::ok && !recorder.recovered) return InstanceStatus::non_finite;
  return status;
}

// One instance in rA: integrate_rotation_matrix_instance (absolute/rotation_matrix_run.hpp, the function the cuda
// kernel runs: seed 002's backward Euler on SO(3) on the equal-step grid), its output states then turned into
// signals. Status as run_instance's.
InstanceStatus run_rotation_matrix_instance(const Model& literal, const CompiledModel& compiled,
                                            const double* constants, const Ensemble& ensemble, int i,
                                            const RunSpec& spec, const std::vector<double>& times, double* rows,
                                            double* kpi_state, IntegratorStats& stats) {
  const AbsoluteInstance instance =
      prepare_absolute_instance(literal, compiled, constants, ensemble, i, BodyAxisOrder::as_found);
  std::vector<double> y = rotation_matrix_start(instance.mapping, start_body_states(literal, instance));
  BodySignalRecorder recorder(literal, compiled, constants, times, rows, kpi_state, instance.q0);
  const int n_times = static_cast<int>(times.size());
  const int row_size = rotation_matrix_row_size(instance.model->body_count, recorder.accelerations);
  std::vector<double> states(static_cast<size_t>(n_times) * static_cast<size_t>(row_size));
  std::vector<double> work(static_cast<size_t>(rotation_matrix_instance_workspace_size(*instance.model)));
  int reached = 0;
  const InstanceStatus status = integrate_rotation_matrix_instance(
      *instance.model, spec.implicit_options, spec.t0, spec.h, spec.max_steps, y.data(), times.data(), n_times,
      recorder.accelerations, states.data(), work.data(), stats, reached);
  record_rotation_matrix_rows(recorder, instance.mapping, states.data(), reached, row_size);
  if (status == InstanceStatus::ok && !recorder.recovered) return InstanceStatus::non_finite;
  return status;
}

}  // namespace

bool parse_absolute_coordinates(const std::string& name, AbsoluteCoordinates& out) {
  if (name == "rp") return out = AbsoluteCoordinates::rp, true;
  if (name == "re") return out = AbsoluteCoordinates::re, true;
  if (name == "rA") return out = AbsoluteCoordinates::rA, true;
  return false;
}

std::string absolute_run_refusal(const Model& literal_model) {
  const AbsoluteMapping mapping = map_to_absolute(literal_model, RevoluteDriverGcon::angle);
  if (!mapping.missing.empty()) {
    std::string reason = "the absolute-coordinate mapping would leave out ";
    for (size_t k = 0; k < mapping.missing.size(); ++k) reason += (k ? "; " : "") + mapping.missing[k];
    return reason;
  }
  if (static_cast<int>(mapping.bodies.size()) > kAbsoluteRunBodies ||
      static_cast<int>(mapping.gcons.size()) > kAbsoluteRunGcons)
    return std::to_string(mapping.bodies.size()) + " bodies and " + std::to_string(mapping.gcons.size()) +
           " GCONs, more than the absolute engine's " + std::to_string(kAbsoluteRunBodies) + " and " +
           std::to_string(kAbsoluteRunGcons);
  if (static_cast<int>(literal_model.drivers.size()) > kMaxAbsoluteDrivers)
    return std::to_string(literal_model.drivers.size()) + " drivers, more than the absolute engine's " +
           std::to_string(kMaxAbsoluteDrivers);
  if (static_cast<int>(mapping.rsdas.size()) > kMaxAbsoluteRsdas)
    return std::to_string(mapping.rsdas.size()) + " rotational spring-dampers and revolute actuators, more than the "
           "absolute engine's " + std::to_string(kMaxAbsoluteRsdas);
  if (static_cast<int>(mapping.actuators.size()) > kMaxAbsoluteActuators)
    return std::to_string(mapping.actuators.size()) + " translational actuators, more than the absolute engine's " +
           std::to_string(kMaxAbsoluteActuators);
  if (static_cast<int>(mapping.tires.size()) > kMaxAbsoluteTires)
    return std::to_string(mapping.tires.size()) + " tires, more than the absolute engine's " +
           std::to_string(kMaxAbsoluteTires);
  if (static_cast<int>(mapping.bushings.size()) > kMaxAbsoluteBushings)
    return std::to_string(mapping.bushings.size()) + " bushings, more than the absolute engine's " +
           std::to_string(kMaxAbsoluteBushings);
  if (static_cast<int>(mapping.tsdas.size()) > kMaxAbsoluteTsdas)
    return std::to_string(mapping.tsdas.size()) + " translational spring-dampers, more than the absolute engine's " +
           std::to_string(kMaxAbsoluteTsdas);
  return "";
}

void check_absolute_run(AbsoluteCoordinates coordinates, const Model& model, const CompiledModel& compiled,
                        const Ensemble& ensemble, const RunSpec& spec) {
  if (spec.method != Method::implicit)
    throw std::invalid_argument("model '" + model.name +
                                "': absolute coordinates integrate the index-3 DAE with an implicit method only");
  if (coordinates == AbsoluteCoordinates::rA && spec.implicit.method != ImplicitMethod::backward_euler)
    throw std::invalid_argument("model '" + model.name +
                                "': rA integrates with its own backward Euler on SO(3) (seed 002 eqs. 32-38) only");
  if (ensemble.n_parameters != static_cast<int>(model.parameters.size()) || ensemble.nq != compiled.nq ||
      ensemble.nv != compiled.nv || ensemble.n_constants != compiled.n_constants)
    throw std::invalid_argument("run_ensemble_absolute: the ensemble was not built for model '" + model.name + "'");
  const int n = ensemble.n_instances;
  std::vector<double> values(model.parameters.size());
  for (size_t p = 0; p < values.size(); ++p) values[p] = n > 0 ? ensemble.parameter(static_cast<int>(p), 0) : 0.0;
  const std::string refusal = absolute_run_refusal(apply_parameters(model, values));
  if (!refusal.empty()) throw std::invalid_argument("model '" + model.name + "': " + refusal);
}

EnsembleResult run_ensemble_absolute(AbsoluteCoordinates coordinates, const Model& model,
                                     const CompiledModel& compiled, const Ensemble& ensemble, const RunSpec& spec,
                                     const std::vector<double>& output_times, int threads, RunProgress* progress,
                                     bool keep_series) {
  check_absolute_run(coordinates, model, compiled, ensemble, spec);
  const int n = ensemble.n_instances;
  EnsembleResult result = make_ensemble_result(n, output_times, compiled.n_outputs, keep_series);
  result.kpi_state.assign(static_cast<size_t>(n) * static_cast<size_t>(compiled.n_kpis) * kKpiStateDoubles, 0.0);
  threads = resolve_thread_count(threads, n);
  const size_t per_instance = output_times.size() * static_cast<size_t>(compiled.n_outputs);
  const size_t kpi_doubles = static_cast<size_t>(compiled.n_kpis) * kKpiStateDoubles;
  const auto start = Clock::now();
  InstanceBlocks blocks(n, ensemble_block_size(n, threads));
  const auto worker = [&] {
    std::vector<double> constants(static_cast<size_t>(compiled.n_constants) + 1), values(model.parameters.size());
    std::vector<double> rows(per_instance);
    long long begin = 0, end = 0;
    while (!(progress && progress->cancelled()) && blocks.claim(begin, end)) {
      for (int i = static_cast<int>(begin); i < static_cast<int>(end); ++i) {
        const auto instance_start = Clock::now();
        const size_t index = static_cast<size_t>(i);
        // Rows go to a scratch copy first: an instance's values after its failure stay NaN in the result.
        std::fill(rows.begin(), rows.end(), quiet_nan());
        double* kpi_state = kpi_doubles > 0 ? result.kpi_state.data() + kpi_doubles * index : nullptr;
        try {
          const Model literal = ensemble.literal_model(model, i, values);
          ensemble.gather_constants(i, constants.data());
          const double* k = constants.data();
          IntegratorStats& stats = result.stats[index];
          switch (coordinates) {
            case AbsoluteCoordinates::rp:
              result.status[index] = run_instance<EulerParameterCoordinates>(
                  literal, compiled, k, ensemble, i, spec, output_times, rows.data(), kpi_state, stats);
              break;
            case AbsoluteCoordinates::re:
              result.status[index] = run_instance<EulerAngleCoordinates>(
                  literal, compiled, k, ensemble, i, spec, output_times, rows.data(), kpi_state, stats);
              break;
            case AbsoluteCoordinates::rA:
              result.status[index] = run_rotation_matrix_instance(literal, compiled, k, ensemble, i, spec,
                                                                  output_times, rows.data(), kpi_state, stats);
              break;
          }
        } catch (const std::exception&) {
          // A start that does not assemble, or joint coordinates that cannot be recovered: this instance alone.
          result.status[index] = InstanceStatus::non_finite;
        }
        if (!result.values.empty()) std::copy(rows.begin(), rows.end(), result.values.begin() + per_instance * index);
        result.wall_seconds[index] = std::chrono::duration<double>(Clock::now() - instance_start).count();
      }
      if (progress) progress->finished(end - begin);
    }
  };
  result.threads = run_on_threads(threads, worker);
  result.total_wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  finish_kpis(compiled, result);
  return result;
}

}  // namespace myriad
