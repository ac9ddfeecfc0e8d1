#pragma once
// What a run will take before it starts: host memory by part and the size of the result CSV, so a run that cannot
// fit is refused with the numbers instead of growing until the system kills it.
#include <string>

#include "ensemble/run_spec.hpp"
#include "model/compiled_model.hpp"

namespace myriad {

// Sizes in bytes, as doubles so that absurd requests (1e8 instances x 1e7 output times) do not overflow.
struct RunFootprint {
  double results = 0;     // output values, statuses, counters and wall times of every instance
  double ensemble = 0;    // parameter table, constants and initial states of every instance (SoA tables)
  double scratch = 0;     // per-thread integrator scratch
  double statistics = 0;  // --summary / --kpis reductions
  double total() const { return results + ensemble + scratch + statistics; }
  double csv_bytes = 0;   // the result CSV (estimated: about 21 characters a value)
};

// O(1) given the model; `parameter_columns` counts the columns of a parameter table (0 when none), `threads` the
// workers that each hold one scratch. Estimates are upper bounds on the run's own allocations (not the model
// itself, which is small), within about 10%.
RunFootprint estimate_run_footprint(const CompiledModel& model, Method method, long long instances,
                                    long long output_times, int parameters, int parameter_columns, int threads,
                                    bool statistics);

// "1.5 GiB", "320 MiB", "12 KiB", "512 B".
std::string format_bytes(double bytes);

}  // namespace myriad
