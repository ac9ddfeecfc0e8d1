#include "io/result_writers.hpp"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstring>

#include "io/atomic_file.hpp"

namespace myriad {

namespace {

// Appends `value` in its shortest round-trip form; to_chars is several times faster than a stream with
// setprecision(17) and its output reads back bit for bit.
char* append_double(char* at, char* end, double value) {
  if (std::isnan(value)) {
    std::memcpy(at, "nan", 3);
    return at + 3;
  }
  return std::to_chars(at, end, value).ptr;
}

char* append_integer(char* at, char* end, long long value) { return std::to_chars(at, end, value).ptr; }

std::string json_string(const std::string& text) { return nlohmann::json(text).dump(); }

}  // namespace

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

void write_result_csv_header(std::ostream& out, const std::vector<std::string>& signal_names) {
  out << "instance,time";
  for (const std::string& name : signal_names) out << ',' << name;
  out << '\n';
}

void write_result_csv_rows(std::ostream& out, long long first_instance, long long n_instances,
                           const std::vector<double>& times, int n_signals, const double* values,
                           RunProgress* progress) {
  // A row: the instance, the time and the signals, each at most 24 characters and a comma.
  std::vector<char> row(static_cast<size_t>(n_signals + 2) * 32);
  char* const end = row.data() + row.size();
  const size_t n_times = times.size();
  for (long long i = 0; i < n_instances; ++i) {
    for (size_t k = 0; k < n_times; ++k) {
      char* at = append_integer(row.data(), end, first_instance + i);
      *at++ = ',';
      at = append_double(at, end, times[k]);
      const double* v = values + (static_cast<size_t>(i) * n_times + k) * static_cast<size_t>(n_signals);
      for (int s = 0; s < n_signals; ++s) {
        *at++ = ',';
        at = append_double(at, end, v[s]);
      }
      *at++ = '\n';
      out.write(row.data(), at - row.data());
    }
    if (progress) progress->wrote();
  }
}

void write_result_csv(const std::string& path, const EnsembleResult& result,
                      const std::vector<std::string>& signal_names, RunProgress* progress) {
  write_file_atomically(path, [&](std::ostream& out) {
    write_result_csv_header(out, signal_names);
    write_result_csv_rows(out, 0, result.n_instances, result.times, result.n_signals, result.values.data(),
                          progress);
  });
}

void write_stats_json(const std::string& path, const EnsembleResult& result, const std::string& model_name,
                      const std::string& integrator, double write_seconds) {
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
  total["write_seconds"] = write_seconds;
  nlohmann::ordered_json counts;
  for (int s = 0; s < kInstanceStatusCount; ++s)
    counts[instance_status_name(static_cast<InstanceStatus>(s))] = t.status_counts[s];
  total["status"] = counts;
  j["totals"] = total;
  j["instances"] = nlohmann::ordered_json::array();
  // The head through nlohmann, the per-instance array streamed: a JSON tree of a million instances would take
  // about a gigabyte. The layout is dump(2)'s, so the file reads the same as before.
  std::string head = j.dump(2);
  head.erase(head.rfind("[]"));
  write_file_atomically(path, [&](std::ostream& out) {
    out << head << (result.n_instances == 0 ? "[]\n}\n" : "[\n");
    if (result.n_instances == 0) return;
    char number[32];
    for (int i = 0; i < result.n_instances; ++i) {
      const IntegratorStats& s = result.stats[static_cast<size_t>(i)];
      const double wall = result.wall_seconds[static_cast<size_t>(i)];
      out << "    {\n      \"instance\": " << i << ",\n      \"steps\": " << s.steps
          << ",\n      \"rejected_steps\": " << s.rejected
          << ",\n      \"function_evaluations\": " << s.function_evaluations
          << ",\n      \"jacobian_evaluations\": " << s.jacobian_evaluations
          << ",\n      \"lu_factorizations\": " << s.lu_factorizations << ",\n      \"wall_seconds\": ";
      out.write(number, append_double(number, number + sizeof number, wall) - number);
      out << ",\n      \"status\": " << json_string(instance_status_name(result.status[static_cast<size_t>(i)]))
          << "\n    }" << (i + 1 < result.n_instances ? ",\n" : "\n");
    }
    out << "  ]\n}\n";
  });
}

}  // namespace myriad
