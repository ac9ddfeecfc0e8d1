#pragma once
// A study as read from its file (docs/study-format.md): what to sample, how, what to run and what to keep.
// Plain data; study_reader.hpp fills it and checks it against the model, run_study.hpp runs it.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "myriad/myriad.hpp"
#include "study/distributions.hpp"
#include "study/expression.hpp"

namespace myriad::study {

struct StudyParameter {
  std::string name, unit;  // unit: the model's when the study gives none
  Distribution distribution;
  long long factorial_levels =
      0;                // full factorial: how many values of a continuous distribution (0: not given)
  std::string pointer;  // where it was given, for messages (/parameters/2)
};

// instances: `samples` copies of the model with no sampled parameter, told apart only by what they draw by
// their index (random roads): a road Monte Carlo, or `simulate --out FILE.h5` without --params.
enum class SamplerKind { full_factorial, latin_hypercube, sobol, saltelli, table, instances };

// A parameter computed per instance from the others (docs/study-format.md, "Derived parameters").
struct DerivedParameter {
  std::string name, text;  // the model parameter it sets, and its expression as written
  Expression expression;
};

struct SamplerSpec {
  SamplerKind kind = SamplerKind::latin_hypercube;
  long long samples = 0;  // rows (latin_hypercube, sobol); base rows N of Saltelli's N (2P + 2)
  std::uint64_t seed = 0;
  bool scramble = true;  // sobol, saltelli
  std::string table;     // table: a CSV (a header of parameter names) or NPY (N x P, the parameters' order)
};

struct SeriesSpec {
  std::vector<std::string> signals;  // kept as N x T datasets; empty: none
  double dt = 0.0;                   // their spacing; 0: every output time of the run
};

struct StudySpec {
  std::string file, text;  // the study file and its bytes (kept in the results' provenance)
  std::string model;       // the model file (absolute), or "builtin:ishigami"
  std::vector<StudyParameter> parameters;
  SamplerSpec sampler;
  std::vector<std::pair<std::string, double>> fixed;  // every instance: model parameter values
  std::vector<DerivedParameter> derived;              // per instance, after sampling, in file order
  api::RunOptions run;                                // backend, threads, integrator, t_end, ...
  std::vector<std::string> kpis;                      // the model's named KPIs kept (empty: all of them)
  SeriesSpec series;
  long long chunk = 0;   // instances per chunk; 0: chosen from the memory a chunk takes
  std::string output;    // the results file (absolute); the CLI's --out wins
  int bootstrap = 1000;  // Saltelli: resamples of the Sobol indices' confidence intervals
  double confidence = 0.95;
};

constexpr const char* kIshigamiModel = "builtin:ishigami";

const char* sampler_name(SamplerKind kind);

}  // namespace myriad::study
