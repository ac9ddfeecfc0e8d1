#include "io/result_writers.hpp"

#include <nlohmann/json.hpp>

#include <iomanip>

#include "io/atomic_file.hpp"

namespace myriad {

StatsTotals totals(const EnsembleResult& result) {
  StatsTotals t;
  for (int i = 0; i < result.n_instances; ++i) {
    const IntegratorStats& s = result.stats[static_cast<size_t>(i)];
    t.steps += s.steps;
    t.rejected += s.rejected;
    t.function_evaluations += s.function_evaluations;
    t.jacobian_evaluations += s.jacobian_evaluations;
    t.lu_factorizations += s.lu_factorizations;
    t.status_counts[static_cast<int>(result.status[static_cast<size_t>(i)])]++;
  }
  return t;
}

void write_result_csv(const std::string& path, const EnsembleResult& result,
                      const std::vector<std::string>& signal_names) {
  write_file_atomically(path, [&](std::ostream& out) {
    out << "instance,time";
    for (const std::string& name : signal_names) out << ',' << name;
    out << '\n' << std::setprecision(17);
    for (int i = 0; i < result.n_instances; ++i)
      for (int k = 0; k < result.n_times; ++k) {
        out << i << ',' << result.times[static_cast<size_t>(k)];
        for (int s = 0; s < result.n_signals; ++s) out << ',' << result.value(i, k, s);
        out << '\n';
      }
  });
}

void write_stats_json(const std::string& path, const EnsembleResult& result, const std::string& model_name,
                      const std::string& integrator) {
  const StatsTotals t = totals(result);
  nlohmann::ordered_json j;
  j["model"] = model_name;
  j["integrator"] = integrator;
  j["threads"] = result.threads;
  nlohmann::ordered_json total;
  total["instances"] = result.n_instances;
  total["steps"] = t.steps;
  total["rejected_steps"] = t.rejected;
  total["function_evaluations"] = t.function_evaluations;
  total["jacobian_evaluations"] = t.jacobian_evaluations;
  total["lu_factorizations"] = t.lu_factorizations;
  total["wall_seconds"] = result.total_wall_seconds;
  nlohmann::ordered_json counts;
  for (int s = 0; s < kInstanceStatusCount; ++s)
    counts[instance_status_name(static_cast<InstanceStatus>(s))] = t.status_counts[s];
  total["status"] = counts;
  j["totals"] = total;
  nlohmann::ordered_json instances = nlohmann::ordered_json::array();
  for (int i = 0; i < result.n_instances; ++i) {
    const IntegratorStats& s = result.stats[static_cast<size_t>(i)];
    instances.push_back({{"instance", i},
                         {"steps", s.steps},
                         {"rejected_steps", s.rejected},
                         {"function_evaluations", s.function_evaluations},
                         {"jacobian_evaluations", s.jacobian_evaluations},
                         {"lu_factorizations", s.lu_factorizations},
                         {"wall_seconds", result.wall_seconds[static_cast<size_t>(i)]},
                         {"status", instance_status_name(result.status[static_cast<size_t>(i)])}});
  }
  j["instances"] = instances;
  write_file_atomically(path, [&](std::ostream& out) { out << j.dump(2) << '\n'; });
}

}  // namespace myriad
