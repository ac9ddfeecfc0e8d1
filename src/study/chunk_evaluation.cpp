// A chunk through the public API. A failed instance's failure time is the last output time it reached; a run
// that keeps no series learns it by running the chunk's failed instances again with their series (an
// instance's result never depends on the instances beside it, docs/python.md, so the rerun repeats exactly
// what failed).
#include "study/chunk_evaluation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "study/ishigami.hpp"
#include "study/study_error.hpp"
#include "study/study_reader.hpp"

namespace myriad::study {
namespace {

int index_of(const std::vector<std::string>& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}

// The last output time at which every output of instance i is finite (NaN fills the rows after a failure).
double last_time_reached(const api::SimulationResult& r, long long i) {
  double reached = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double>& v = *r.values;
  for (int k = 0; k < r.n_times; ++k) {
    const std::size_t at = (static_cast<std::size_t>(i) * r.n_times + k) * r.n_signals;
    bool finite = true;
    for (int s = 0; s < r.n_signals && finite; ++s) finite = std::isfinite(v[at + s]);
    if (!finite) break;
    reached = r.times[static_cast<std::size_t>(k)];
  }
  return reached;
}

// `ids`: the rows' indices in the whole design, which key their random roads
// (api::SimulateRequest::instance_ids): an instance meets the same road whatever chunk it runs in.
api::SimulateRequest request_for(const ChunkPlan& plan, long long rows, const double* values,
                                 bool keep_series, std::vector<long long> ids) {
  api::SimulateRequest request;
  request.instance_ids = std::move(ids);
  if (plan.parameter_names.empty() && plan.spec->derived.empty()) {  // an instances design: nothing sampled
    request.instances = rows;
  } else {
    std::vector<std::string> names = plan.parameter_names;
    for (const DerivedParameter& d : plan.spec->derived) names.push_back(d.name);
    request.parameters = api::ParameterSet::from_array(names, rows, values);
    request.parameters->source = plan.spec->file + " (design rows)";
  }
  request.overrides = plan.spec->fixed;
  request.options = plan.spec->run;
  if (request.options.threads == 0) request.options.threads = plan.threads;
  request.keep_series = keep_series;
  return request;
}

ChunkRows ishigami_chunk(const ChunkPlan& plan, long long row0, long long rows,
                         const std::vector<double>& values) {
  ChunkRows c;
  c.row0 = row0;
  c.rows = rows;
  c.backend = "builtin";
  c.integrator = "none";
  const std::size_t n = static_cast<std::size_t>(rows), p = plan.parameter_names.size();
  const int x1 = index_of(plan.parameter_names, "x1"), x2 = index_of(plan.parameter_names, "x2"),
            x3 = index_of(plan.parameter_names, "x3");
  c.status.assign(n, 0);
  c.failure_time.assign(n, std::numeric_limits<double>::quiet_NaN());
  for (auto* counter :
       {&c.steps, &c.rejected, &c.function_evaluations, &c.jacobian_evaluations, &c.lu_factorizations})
    counter->assign(n, 0);
  c.kpis.resize(n);
  const auto at = [&](std::size_t i, int column) { return column < 0 ? 0.0 : values[i * p + column]; };
  for (std::size_t i = 0; i < n; ++i) c.kpis[i] = ishigami(at(i, x1), at(i, x2), at(i, x3));
  return c;
}

// The design rows with the derived columns after them (rows x (P + D)); `derived` gets the D columns alone.
std::vector<double> with_derived(const ChunkPlan& plan, long long row0, long long rows,
                                 const std::vector<double>& values, std::vector<double>& derived) {
  const std::vector<DerivedParameter>& list = plan.spec->derived;
  const std::size_t p = plan.parameter_names.size(), d = list.size(), n = static_cast<std::size_t>(rows);
  std::vector<double> out(n * (p + d));
  derived.assign(n * d, 0.0);
  std::vector<double> arguments;
  for (std::size_t i = 0; i < n; ++i) {
    std::copy(values.begin() + static_cast<std::ptrdiff_t>(i * p),
              values.begin() + static_cast<std::ptrdiff_t>((i + 1) * p),
              out.begin() + static_cast<std::ptrdiff_t>(i * (p + d)));
    for (std::size_t j = 0; j < d; ++j) {
      const std::vector<ChunkPlan::Source>& sources = plan.derived_sources[j];
      arguments.resize(sources.size());
      for (std::size_t a = 0; a < sources.size(); ++a)
        arguments[a] = sources[a].column >= 0 ? values[i * p + static_cast<std::size_t>(sources[a].column)]
                                              : sources[a].constant;
      const double value = evaluate(list[j].expression, arguments);
      if (!std::isfinite(value))
        throw StudyFileError(plan.spec->file, "/derived/" + list[j].name,
                             "\"" + list[j].text + "\" is not finite for row " +
                                 std::to_string(row0 + static_cast<long long>(i)));
      out[i * (p + d) + p + j] = value;
      derived[i * d + j] = value;
    }
  }
  return out;
}

}  // namespace

ChunkPlan plan_chunks(const StudySpec& spec, std::vector<std::string> design_names) {
  ChunkPlan plan;
  plan.spec = &spec;
  plan.parameter_names = std::move(design_names);
  ModelNames names;
  if (spec.model == kIshigamiModel) {
    names.parameters = {"x1", "x2", "x3"};
    names.kpis = {"y"};
  } else {
    plan.model = api::load_model(spec.model);
    names.parameters = plan.model->parameter_names();
    names.signals = plan.model->signal_names();
    names.dt_out = spec.run.dt_out.value_or(plan.model->defaults().dt_out);
  }
  if (plan.model) names.kpis = plan.model->kpi_names();
  check_study_against_model(spec, names);
  // A table's columns are checked too (a CSV header names them).
  for (std::size_t c = 0; c < plan.parameter_names.size(); ++c)
    if (index_of(names.parameters, plan.parameter_names[c]) < 0)
      throw StudyFileError(
          spec.file, "/sampler/file",
          "the table's column '" + plan.parameter_names[c] + "' is not a parameter of the model");
  for (const DerivedParameter& d : spec.derived) {
    std::vector<ChunkPlan::Source> sources;
    for (const std::string& used : d.expression.names) {
      ChunkPlan::Source source;
      source.column = index_of(plan.parameter_names, used);
      if (source.column < 0) {
        bool fixed = false;
        for (const auto& [name, value] : spec.fixed)
          if (name == used) {
            source.constant = value;
            fixed = true;
          }
        if (!fixed && plan.model) {
          const int j = index_of(plan.model->parameter_names(), used);
          if (j >= 0) source.constant = plan.model->parameter_defaults()[static_cast<std::size_t>(j)];
        }
      }
      sources.push_back(source);
    }
    plan.derived_sources.push_back(std::move(sources));
  }
  const std::vector<std::string>& kept = spec.kpis.empty() ? names.kpis : spec.kpis;
  for (const std::string& k : kept) plan.kpi_columns.push_back(index_of(names.kpis, k));
  for (const std::string& s : spec.series.signals) plan.series_columns.push_back(index_of(names.signals, s));
  if (spec.series.dt > 0) plan.series_every = static_cast<int>(std::lround(spec.series.dt / names.dt_out));
  return plan;
}

ChunkRows evaluate_chunk(const ChunkPlan& plan, long long row0, long long rows,
                         const std::vector<double>& values, const std::function<void(long long)>& progress) {
  if (!plan.model) {
    if (progress) progress(rows);
    return ishigami_chunk(plan, row0, rows, values);
  }
  const bool keep_series = !plan.series_columns.empty();
  std::vector<long long> ids(static_cast<std::size_t>(rows));
  for (long long i = 0; i < rows; ++i) ids[static_cast<std::size_t>(i)] = row0 + i;
  std::vector<double> derived;
  const std::vector<double> all = with_derived(plan, row0, rows, values, derived);
  api::SimulateRequest request = request_for(plan, rows, all.data(), keep_series, std::move(ids));
  if (progress) request.progress = [&](const api::Progress& p) { progress(p.done); };
  const api::SimulationResult r = api::simulate(*plan.model, request);

  ChunkRows c;
  c.row0 = row0;
  c.rows = rows;
  c.backend = r.backend;
  c.integrator = r.integrator;
  c.threads = r.threads;
  c.derived = std::move(derived);
  const std::size_t n = static_cast<std::size_t>(rows);
  c.status.assign(r.status.begin(), r.status.end());
  c.failure_time.assign(n, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t i = 0; i < n; ++i) {
    const api::InstanceStats& s = r.stats[i];
    c.steps.push_back(s.steps);
    c.rejected.push_back(s.rejected);
    c.function_evaluations.push_back(s.function_evaluations);
    c.jacobian_evaluations.push_back(s.jacobian_evaluations);
    c.lu_factorizations.push_back(s.lu_factorizations);
  }
  const std::size_t k_model = r.kpi_names.size();
  c.kpis.reserve(n * plan.kpi_columns.size());
  for (std::size_t i = 0; i < n; ++i)
    for (int column : plan.kpi_columns)
      c.kpis.push_back(r.kpis[i * k_model + static_cast<std::size_t>(column)]);

  if (keep_series) {
    std::vector<int> kept_times;
    for (int k = 0; k < r.n_times; k += plan.series_every) kept_times.push_back(k);
    for (int k : kept_times) c.series_times.push_back(r.times[static_cast<std::size_t>(k)]);
    const std::vector<double>& v = *r.values;
    for (int column : plan.series_columns) {
      std::vector<double> series;
      series.reserve(n * kept_times.size());
      for (std::size_t i = 0; i < n; ++i)
        for (int k : kept_times)
          series.push_back(
              v[(i * static_cast<std::size_t>(r.n_times) + static_cast<std::size_t>(k)) * r.n_signals +
                static_cast<std::size_t>(column)]);
      c.series.push_back(std::move(series));
    }
    for (std::size_t i = 0; i < n; ++i)
      if (c.status[i] != 0) c.failure_time[i] = last_time_reached(r, static_cast<long long>(i));
    return c;
  }
  // No series kept: the failed instances alone again, with theirs.
  std::vector<double> failed_rows;
  std::vector<std::size_t> failed;
  std::vector<long long> failed_ids;
  const std::size_t p = plan.parameter_names.size() + plan.spec->derived.size();
  for (std::size_t i = 0; i < n; ++i)
    if (c.status[i] != 0) {
      failed.push_back(i);
      failed_ids.push_back(row0 + static_cast<long long>(i));
      failed_rows.insert(failed_rows.end(), all.begin() + static_cast<std::ptrdiff_t>(i * p),
                         all.begin() + static_cast<std::ptrdiff_t>((i + 1) * p));
    }
  if (!failed.empty()) {
    const api::SimulationResult again =
        api::simulate(*plan.model, request_for(plan, static_cast<long long>(failed.size()),
                                               failed_rows.data(), true, std::move(failed_ids)));
    for (std::size_t f = 0; f < failed.size(); ++f)
      c.failure_time[failed[f]] = last_time_reached(again, static_cast<long long>(f));
  }
  return c;
}

}  // namespace myriad::study
