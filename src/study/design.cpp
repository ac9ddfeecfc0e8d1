// Sampler -> unit cube -> inverse CDFs. Saltelli draws a 2P-dimensional Sobol' design and crosses its halves
// (samplers.hpp, in SALib's order) before the columns are mapped, so every row is a point of the same design.
#include "study/design.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "study/samplers.hpp"
#include "study/sobol_sequence.hpp"
#include "study/study_error.hpp"

namespace myriad::study {
namespace {

std::vector<double> unit_design(const StudySpec& spec) {
  const int p = static_cast<int>(spec.parameters.size());
  const SamplerSpec& s = spec.sampler;
  switch (s.kind) {
    case SamplerKind::latin_hypercube:
      return latin_hypercube(s.samples, p, s.seed);
    case SamplerKind::sobol:
      return sobol_points(s.samples, p, s.scramble, s.seed);
    case SamplerKind::saltelli:
      return saltelli_rows(sobol_points(s.samples, 2 * p, s.scramble, s.seed), s.samples, p);
    default:
      break;
  }
  throw std::logic_error("unit_design: not a unit-cube sampler");
}

long long factorial_count(const StudyParameter& p) {
  return p.distribution.kind == DistributionKind::levels
             ? static_cast<long long>(p.distribution.levels.size())
             : p.factorial_levels;
}

// Level k of n of a factor: a levels distribution's own value, or a uniform's ends and evenly spaced values
// between.
double factorial_value(const StudyParameter& p, long long k) {
  const Distribution& d = p.distribution;
  if (d.kind == DistributionKind::levels) return d.levels[static_cast<std::size_t>(k)];
  const long long n = p.factorial_levels;
  return k == n - 1 ? d.upper
                    : d.lower + (d.upper - d.lower) * static_cast<double>(k) / static_cast<double>(n - 1);
}

Design read_table(const StudySpec& spec) {
  const std::string& path = spec.sampler.table;
  Design design;
  try {
    const bool npy = path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
    if (npy) {
      if (spec.parameters.empty())
        throw StudyFileError(spec.file, "/parameters",
                             "an NPY table has no column names: list its parameters here");
      long long columns = 0;
      design.values = read_npy(path, design.rows, columns);
      if (columns != static_cast<long long>(spec.parameters.size()))
        throw std::runtime_error(path + ": " + std::to_string(columns) + " columns, the study lists " +
                                 std::to_string(spec.parameters.size()) + " parameters");
      for (const StudyParameter& p : spec.parameters) {
        design.names.push_back(p.name);
        design.units.push_back(p.unit);
      }
    } else {
      api::ParameterSet set = api::ParameterSet::from_csv(path);
      design.names = set.names;
      design.rows = set.rows;
      design.values = std::move(set.values);
      for (const std::string& name : design.names) {
        std::string unit;
        for (const StudyParameter& p : spec.parameters)
          if (p.name == name) unit = p.unit;
        design.units.push_back(unit);
      }
      for (const StudyParameter& p : spec.parameters)
        if (std::find(design.names.begin(), design.names.end(), p.name) == design.names.end())
          throw std::runtime_error(path + ": no column '" + p.name +
                                   "' (the study lists it among its parameters)");
    }
  } catch (const StudyFileError&) {
    throw;
  } catch (const std::exception& e) {
    throw StudyFileError(spec.file, "/sampler/file", std::string("unreadable table: ") + e.what());
  }
  for (std::size_t i = 0; i < design.values.size(); ++i)
    if (!std::isfinite(design.values[i]))
      throw StudyFileError(spec.file, "/sampler/file",
                           "unreadable table: " + path + ": row " + std::to_string(i / design.names.size()) +
                               ", column '" + design.names[i % design.names.size()] + "' is not finite");
  return design;
}

}  // namespace

long long design_rows(const StudySpec& spec) {
  const SamplerSpec& s = spec.sampler;
  if (s.kind == SamplerKind::saltelli)
    return s.samples * (2LL * static_cast<long long>(spec.parameters.size()) + 2);
  if (s.kind == SamplerKind::full_factorial) {
    long long rows = 1;
    for (const StudyParameter& p : spec.parameters) rows *= factorial_count(p);
    return rows;
  }
  return s.samples;
}

Design make_design(const StudySpec& spec) {
  if (spec.sampler.kind == SamplerKind::table) return read_table(spec);
  if (spec.sampler.kind == SamplerKind::instances) {
    Design design;
    design.rows = spec.sampler.samples;
    return design;
  }
  Design design;
  const std::size_t p = spec.parameters.size();
  for (const StudyParameter& parameter : spec.parameters) {
    design.names.push_back(parameter.name);
    design.units.push_back(parameter.unit);
  }
  if (spec.sampler.kind == SamplerKind::full_factorial) {
    std::vector<long long> counts;
    for (const StudyParameter& parameter : spec.parameters) counts.push_back(factorial_count(parameter));
    std::vector<long long> levels;
    try {
      levels = full_factorial(counts);
    } catch (const std::invalid_argument& e) {
      throw StudyFileError(spec.file, "/parameters", e.what());
    }
    design.rows = static_cast<long long>(levels.size() / p);
    design.values.resize(levels.size());
    for (std::size_t i = 0; i < levels.size(); ++i)
      design.values[i] = factorial_value(spec.parameters[i % p], levels[i]);
    return design;
  }
  design.values = unit_design(spec);
  design.rows = static_cast<long long>(design.values.size() / p);
  for (std::size_t i = 0; i < design.values.size(); ++i) {
    const StudyParameter& parameter = spec.parameters[i % p];
    const double value = quantile(parameter.distribution, design.values[i]);
    if (!std::isfinite(value))
      throw StudyFileError(
          spec.file, parameter.pointer,
          "row " + std::to_string(i / p) + " of the " + sampler_name(spec.sampler.kind) +
              " design lies at u = " + std::to_string(design.values[i]) + ", where this " +
              "distribution has no finite value (an unscrambled Sobol' design starts at 0: give "
              "\"scramble\": true, or a bounded distribution)");
    design.values[i] = value;
  }
  return design;
}

std::vector<double> read_npy(const std::string& path, long long& rows, long long& columns) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot be opened");
  char magic[8] = {};
  in.read(magic, 8);
  if (!in || std::memcmp(magic, "\x93NUMPY", 6) != 0) throw std::runtime_error(path + ": not an NPY file");
  const int major = static_cast<unsigned char>(magic[6]);
  std::uint32_t header_length = 0;
  unsigned char length_bytes[4] = {};
  in.read(reinterpret_cast<char*>(length_bytes), major == 1 ? 2 : 4);
  for (int b = (major == 1 ? 1 : 3); b >= 0; --b) header_length = (header_length << 8) | length_bytes[b];
  if (!in || header_length > 65536) throw std::runtime_error(path + ": a damaged NPY header");
  std::string header(header_length, '\0');
  in.read(header.data(), header_length);
  if (!in) throw std::runtime_error(path + ": a damaged NPY header");
  if (header.find("'descr': '<f8'") == std::string::npos)
    throw std::runtime_error(path + ": the table must be little-endian float64 ('<f8')");
  if (header.find("'fortran_order': False") == std::string::npos)
    throw std::runtime_error(path + ": the table must be in C order (fortran_order False)");
  const std::size_t open = header.find("'shape': (");
  const std::size_t close = header.find(')', open);
  if (open == std::string::npos || close == std::string::npos) throw std::runtime_error(path + ": no shape");
  std::vector<long long> shape;
  const std::string dims = header.substr(open + 10, close - open - 10);
  std::size_t at = 0;
  while (at < dims.size()) {
    while (at < dims.size() && (dims[at] == ' ' || dims[at] == ',')) ++at;
    if (at >= dims.size()) break;
    std::size_t used = 0;
    shape.push_back(std::stoll(dims.substr(at), &used));
    at += used;
  }
  if (shape.empty() || shape.size() > 2)
    throw std::runtime_error(path + ": the table must have 1 or 2 dimensions");
  rows = shape[0];
  columns = shape.size() == 2 ? shape[1] : 1;
  if (rows < 1 || columns < 1 || rows > (1LL << 40) / columns)
    throw std::runtime_error(path + ": an empty or huge table");
  std::vector<double> values(static_cast<std::size_t>(rows * columns));
  in.read(reinterpret_cast<char*>(values.data()),
          static_cast<std::streamsize>(values.size() * sizeof(double)));
  if (!in)
    throw std::runtime_error(path + ": shorter than its shape (" + std::to_string(rows) + " x " +
                             std::to_string(columns) + ")");
  return values;
}

}  // namespace myriad::study
