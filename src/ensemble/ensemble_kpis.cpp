#include "ensemble/ensemble_kpis.hpp"

#include <limits>
#include <stdexcept>

#include "kpi/kpi.hpp"

namespace myriad {

void finish_kpis(const CompiledModel& model, EnsembleResult& result) {
  result.n_kpis = model.n_kpis;
  result.kpis.clear();
  if (model.n_kpis == 0) {
    result.kpi_state.clear();
    return;
  }
  const size_t n = static_cast<size_t>(result.n_instances), per = static_cast<size_t>(model.n_kpis) * kKpiStateDoubles;
  if (result.kpi_state.size() != n * per) {
    if (result.values.empty() && result.n_times > 0)
      throw std::logic_error("finish_kpis: the run kept neither KPI states nor series");
    result.kpi_state.assign(n * per, 0.0);
    const size_t row = static_cast<size_t>(result.n_signals);
    for (size_t i = 0; i < n; ++i)
      for (int k = 0; k < result.n_times; ++k)
        kpi_update(model, result.kpi_state.data() + per * i, k, result.times[static_cast<size_t>(k)],
                   result.values.data() + (i * static_cast<size_t>(result.n_times) + static_cast<size_t>(k)) * row,
                   result.times.data(), result.n_times);
  }
  result.kpis.assign(n * static_cast<size_t>(model.n_kpis), std::numeric_limits<double>::quiet_NaN());
  for (size_t i = 0; i < n; ++i) {
    if (result.status[i] != InstanceStatus::ok) continue;
    for (int j = 0; j < model.n_kpis; ++j)
      result.kpis[i * static_cast<size_t>(model.n_kpis) + static_cast<size_t>(j)] =
          kpi_value(model.kpis[j], kpi_state(result.kpi_state.data() + per * i, j));
  }
  result.kpi_state.clear();
  result.kpi_state.shrink_to_fit();
}

}  // namespace myriad
