#include "ensemble/run_footprint.hpp"

#include <cmath>
#include <cstdio>

#include "ensemble/simulate_instance.hpp"

namespace myriad {

RunFootprint estimate_run_footprint(const CompiledModel& model, Method method, long long instances,
                                    long long output_times, int parameters, int parameter_columns, int threads,
                                    bool statistics) {
  const double n = static_cast<double>(instances), times = static_cast<double>(output_times);
  const double signals = model.n_outputs, d = sizeof(double);
  RunFootprint f;
  // EnsembleResult: values, plus status, IntegratorStats and wall time per instance.
  f.results = n * times * signals * d + n * (sizeof(InstanceStatus) + sizeof(IntegratorStats) + d) + times * d;
  // Ensemble SoA tables, and a parameter table kept as one vector per row (its own 24 bytes and the allocator's 16).
  f.ensemble = n * (parameters + model.n_constants + model.nq + model.nv) * d;
  if (parameter_columns > 0) f.ensemble += n * (parameter_columns * d + 40.0);
  f.scratch = static_cast<double>(threads) *
              (static_cast<double>(instance_scratch_layout(model, method).bytes) + (model.n_constants + 2.0 * model.nq) * d);
  // Five moments per output time and signal, three KPIs per instance and signal, per-thread tile accumulators, and
  // the tiles' partials (five doubles per tile, output time and signal; ensemble_statistics.hpp).
  if (statistics)
    f.statistics = times * signals * 5 * d + n * signals * 3 * d + threads * times * signals * 4 * d +
                   (std::floor(n / 64.0) + 1.0) * times * signals * 5 * d;
  // Shortest round-trip digits of a double average about 18 characters plus sign, exponent and comma; times
  // are shorter, instance numbers shorter still.
  f.csv_bytes = n * times * (signals * 21.0 + std::log10(std::max(10.0, n)) + 12.0);
  return f;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int unit = 0;
  while (bytes >= 1024.0 && unit < 6) {
    bytes /= 1024.0;
    ++unit;
  }
  char text[64];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.3g %s", bytes, units[unit]);
  return text;
}

}  // namespace myriad
