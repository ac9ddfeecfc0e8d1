#pragma once
// Turning a run's KPI states into its named KPIs (kpi/kpi.hpp), on the host after any runner: a runner that
// computed them on line leaves EnsembleResult::kpi_state; for one that did not (the cuda backend, the strategy
// twins) the states are rebuilt by feeding the kept rows through the same kpi_update, in the same order, so the
// numbers are the same bits either way.
#include "ensemble/ensemble_result.hpp"
#include "model/compiled_model.hpp"

namespace myriad {

// Fills result.kpis (NaN for instances whose status is not ok) and frees result.kpi_state. Throws
// std::logic_error when there is neither state nor series to compute them from. O(N K) (O(N T K) replaying).
void finish_kpis(const CompiledModel& model, EnsembleResult& result);

}  // namespace myriad
