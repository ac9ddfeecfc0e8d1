// Reading a study file: a small pointer-carrying walk over nlohmann::json, so every check can name where it
// failed.
#include "study/study_reader.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "study/study_error.hpp"

namespace myriad::study {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

// One value of the document and its JSON pointer.
struct Node {
  const Json& json;
  std::string pointer;
  const std::string& file;

  [[noreturn]] void fail(const std::string& reason) const { throw StudyFileError(file, pointer, reason); }
  Node at(const std::string& key) const {
    if (!json.contains(key)) Node{json, pointer + "/" + key, file}.fail("missing required key");
    return Node{json.at(key), pointer + "/" + key, file};
  }
  bool has(const std::string& key) const { return json.contains(key); }
  void expect_object(const std::vector<std::string>& allowed) const {
    if (!json.is_object()) fail(std::string("expected an object, got ") + json.type_name());
    for (auto it = json.begin(); it != json.end(); ++it)
      if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end()) {
        std::string list;
        for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
        Node{it.value(), pointer + "/" + it.key(), file}.fail("unknown key '" + it.key() +
                                                              "' (expected one of: " + list + ")");
      }
  }
  std::vector<Node> elements() const {
    if (!json.is_array()) fail(std::string("expected an array, got ") + json.type_name());
    std::vector<Node> out;
    for (std::size_t i = 0; i < json.size(); ++i)
      out.push_back(Node{json[i], pointer + "/" + std::to_string(i), file});
    return out;
  }
  std::string text() const {
    if (!json.is_string()) fail(std::string("expected a string, got ") + json.type_name());
    return json.get<std::string>();
  }
  double number() const {
    if (!json.is_number()) fail(std::string("expected a number, got ") + json.type_name());
    const double v = json.get<double>();
    if (!std::isfinite(v)) fail("must be finite");
    return v;
  }
  double positive() const {
    const double v = number();
    if (!(v > 0)) fail("must be positive, got " + format(v));
    return v;
  }
  long long whole(long long lowest, long long highest) const {
    if (!json.is_number_integer()) fail(std::string("expected a whole number, got ") + json.dump());
    if (json.is_number_unsigned() &&
        json.get<unsigned long long>() > static_cast<unsigned long long>(highest))
      fail("must be at most " + std::to_string(highest));
    const long long v = json.get<long long>();
    if (v < lowest || v > highest)
      fail("must be in " + std::to_string(lowest) + " .. " + std::to_string(highest) + ", got " +
           std::to_string(v));
    return v;
  }
  bool boolean() const {
    if (!json.is_boolean()) fail(std::string("expected true or false, got ") + json.dump());
    return json.get<bool>();
  }
  static std::string format(double v) {
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
  }
};

std::string absolute_from(const std::string& path, const std::string& folder) {
  const fs::path p(path);
  return (p.is_absolute() ? p : fs::path(folder) / p).lexically_normal().string();
}

// The normal's mean and sd: {"mean", "sd"}, or a nominal value with a tolerance taken as three standard
// deviations.
void read_normal(const Node& n, Distribution& d) {
  if (n.has("tolerance") || n.has("nominal")) {
    if (n.has("mean") || n.has("sd"))
      n.fail("give either mean and sd or nominal and tolerance (3 sigma), not both");
    d.mean = n.at("nominal").number();
    d.sd = n.at("tolerance").positive() / 3.0;
  } else {
    d.mean = n.at("mean").number();
    d.sd = n.at("sd").positive();
  }
}

void read_bounds(const Node& n, Distribution& d) {
  d.lower = n.at("lower").number();
  d.upper = n.at("upper").number();
  if (!(d.lower < d.upper))
    n.at("upper").fail("bounds reversed: upper " + Node::format(d.upper) + " must exceed lower " +
                       Node::format(d.lower));
}

// A table's columns need only their names (and units); every other sampler a distribution.
StudyParameter read_parameter(const Node& n, bool table) {
  StudyParameter p;
  p.pointer = n.pointer;
  if (table) {
    n.expect_object({"name", "unit"});
  } else {
    n.expect_object({"name", "unit", "distribution", "lower", "upper", "mean", "sd", "nominal", "tolerance",
                     "mu", "sigma", "levels", "factorial_levels"});
  }
  p.name = n.at("name").text();
  if (p.name.empty()) n.at("name").fail("must not be empty");
  if (n.has("unit")) p.unit = n.at("unit").text();
  if (table) return p;
  const Node kind = n.at("distribution");
  const std::string name = kind.text();
  Distribution& d = p.distribution;
  std::vector<std::string> keys;  // the keys this distribution takes
  if (name == "uniform") {
    d.kind = DistributionKind::uniform;
    read_bounds(n, d);
    keys = {"lower", "upper"};
  } else if (name == "normal") {
    d.kind = DistributionKind::normal;
    read_normal(n, d);
    keys = {"mean", "sd", "nominal", "tolerance"};
  } else if (name == "truncated_normal") {
    d.kind = DistributionKind::truncated_normal;
    read_normal(n, d);
    read_bounds(n, d);
    keys = {"mean", "sd", "nominal", "tolerance", "lower", "upper"};
  } else if (name == "lognormal") {
    d.kind = DistributionKind::lognormal;
    d.mean = n.at("mu").number();
    d.sd = n.at("sigma").positive();
    keys = {"mu", "sigma"};
  } else if (name == "levels") {
    d.kind = DistributionKind::levels;
    for (const Node& level : n.at("levels").elements()) d.levels.push_back(level.number());
    if (d.levels.empty()) n.at("levels").fail("must list at least one value");
    keys = {"levels"};
  } else {
    kind.fail("unknown distribution '" + name +
              "' (expected one of: uniform, normal, truncated_normal, lognormal, levels)");
  }
  keys.insert(keys.end(), {"name", "unit", "distribution", "factorial_levels"});
  for (auto it = n.json.begin(); it != n.json.end(); ++it)
    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
      n.at(it.key()).fail("a " + name + " distribution takes no '" + it.key() + "'");
  if (n.has("factorial_levels")) {
    if (d.kind == DistributionKind::levels)
      n.at("factorial_levels").fail("a levels distribution uses its own levels");
    if (d.kind != DistributionKind::uniform)
      n.at("factorial_levels").fail("only a uniform or levels distribution can be a full factorial's factor");
    p.factorial_levels = n.at("factorial_levels").whole(2, 1000000);
  }
  return p;
}

bool power_of_two(long long n) { return n > 0 && (n & (n - 1)) == 0; }

SamplerSpec read_sampler(const Node& n, const std::string& folder) {
  SamplerSpec s;
  const Node type = n.at("type");
  const std::string name = type.text();
  if (name == "full_factorial") {
    s.kind = SamplerKind::full_factorial;
    n.expect_object({"type"});
  } else if (name == "latin_hypercube") {
    s.kind = SamplerKind::latin_hypercube;
    n.expect_object({"type", "samples", "seed"});
  } else if (name == "sobol" || name == "saltelli") {
    s.kind = name == "sobol" ? SamplerKind::sobol : SamplerKind::saltelli;
    n.expect_object({"type", "samples", "seed", "scramble"});
    if (n.has("scramble")) s.scramble = n.at("scramble").boolean();
  } else if (name == "instances") {
    s.kind = SamplerKind::instances;
    n.expect_object({"type", "samples"});
    s.samples = n.at("samples").whole(1, 1LL << 32);
    return s;
  } else if (name == "table") {
    s.kind = SamplerKind::table;
    n.expect_object({"type", "file"});
    s.table = absolute_from(n.at("file").text(), folder);
    return s;
  } else {
    type.fail("unknown sampler '" + name +
              "' (expected one of: full_factorial, latin_hypercube, sobol, saltelli, "
              "table, instances)");
  }
  if (s.kind == SamplerKind::full_factorial) return s;
  const Node samples = n.at("samples");
  s.samples = samples.whole(1, 1LL << 32);
  if ((s.kind == SamplerKind::sobol || s.kind == SamplerKind::saltelli) && !power_of_two(s.samples))
    samples.fail(
        std::to_string(s.samples) + " is not a power of two: a " + name +
        " design keeps its balance only in powers of two (e.g. " +
        std::to_string(1LL << static_cast<int>(std::floor(std::log2(static_cast<double>(s.samples))))) +
        " or " +
        std::to_string(1LL << (1 + static_cast<int>(std::floor(std::log2(static_cast<double>(s.samples)))))) +
        ")");
  if (n.has("seed"))
    s.seed = static_cast<std::uint64_t>(n.at("seed").whole(0, std::numeric_limits<long long>::max()));
  return s;
}

void read_simulation(const Node& n, api::RunOptions& o) {
  n.expect_object({"t_end", "dt_out", "h", "rtol", "atol", "integrator", "max_steps", "backend", "threads"});
  if (n.has("t_end")) o.t_end = n.at("t_end").positive();
  if (n.has("dt_out")) o.dt_out = n.at("dt_out").positive();
  if (n.has("h")) o.h = n.at("h").positive();
  if (n.has("rtol")) o.rtol = n.at("rtol").positive();
  if (n.has("atol")) o.atol = n.at("atol").positive();
  if (n.has("integrator")) o.integrator = n.at("integrator").text();
  if (n.has("max_steps")) o.max_steps = n.at("max_steps").whole(1, std::numeric_limits<long long>::max());
  if (n.has("backend")) o.backend = n.at("backend").text();
  if (n.has("threads")) o.threads = static_cast<int>(n.at("threads").whole(0, 4096));
}

}  // namespace

const char* sampler_name(SamplerKind kind) {
  switch (kind) {
    case SamplerKind::full_factorial:
      return "full_factorial";
    case SamplerKind::latin_hypercube:
      return "latin_hypercube";
    case SamplerKind::sobol:
      return "sobol";
    case SamplerKind::saltelli:
      return "saltelli";
    case SamplerKind::table:
      return "table";
    case SamplerKind::instances:
      return "instances";
  }
  return "unknown";
}

StudySpec read_study_text(const std::string& text, const std::string& file, const std::string& folder) {
  StudySpec spec;
  spec.file = file;
  spec.text = text;
  Json document;
  // A key given twice in one object would keep one value silently (nlohmann keeps the first): refused
  // instead.
  std::vector<std::set<std::string>> keys;
  std::string duplicate;
  const auto watch = [&](int, Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::object_start) keys.emplace_back();
    if (event == Json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
    if (event == Json::parse_event_t::key && !keys.empty() &&
        !keys.back().insert(parsed.get<std::string>()).second && duplicate.empty())
      duplicate = parsed.get<std::string>();
    return true;
  };
  try {
    document = Json::parse(text, watch);
  } catch (const nlohmann::json::exception& e) {  // malformed, or a number too large for a double
    throw StudyFileError(file, "", std::string("not valid JSON: ") + e.what());
  }
  if (!duplicate.empty())
    throw StudyFileError(file, "", "the key '" + duplicate + "' appears twice in one object");
  const Node root{document, "", file};
  root.expect_object({"format", "version", "description", "model", "parameters", "sampler", "fixed",
                      "derived", "simulation", "kpis", "series", "chunk", "output", "sobol"});
  if (root.has("format") && root.at("format").text() != "myriad-study")
    root.at("format").fail("expected \"myriad-study\"");
  if (root.has("version")) root.at("version").whole(1, 1);
  const std::string model = root.at("model").text();
  spec.model = model == kIshigamiModel ? model : absolute_from(model, folder);
  spec.sampler = read_sampler(root.at("sampler"), folder);
  std::set<std::string> seen;
  const bool table = spec.sampler.kind == SamplerKind::table;
  if (spec.sampler.kind == SamplerKind::instances && root.has("parameters"))
    root.at("parameters").fail("an instances sampler samples no parameter (set values in \"fixed\")");
  if (root.has("parameters") || (!table && spec.sampler.kind != SamplerKind::instances))
    for (const Node& p : root.at("parameters").elements()) {
      spec.parameters.push_back(read_parameter(p, table));
      if (!seen.insert(spec.parameters.back().name).second)
        p.at("name").fail("parameter '" + spec.parameters.back().name + "' is sampled twice");
    }
  if (spec.parameters.empty() && spec.sampler.kind != SamplerKind::table &&
      spec.sampler.kind != SamplerKind::instances)
    root.at("parameters")
        .fail("a " + std::string(sampler_name(spec.sampler.kind)) + " sampler needs at least one parameter");
  if (spec.sampler.kind == SamplerKind::full_factorial)
    for (std::size_t i = 0; i < spec.parameters.size(); ++i) {
      const StudyParameter& p = spec.parameters[i];
      if (p.distribution.kind != DistributionKind::levels && p.factorial_levels == 0)
        root.at("parameters")
            .elements()[i]
            .fail("a full factorial needs the levels of '" + p.name +
                  "': give a levels distribution, or factorial_levels with a uniform one");
    }
  if (root.has("fixed")) {
    const Node fixed = root.at("fixed");
    if (!fixed.json.is_object()) fixed.fail(std::string("expected an object, got ") + fixed.json.type_name());
    for (auto it = fixed.json.begin(); it != fixed.json.end(); ++it) {
      const Node value = fixed.at(it.key());
      if (seen.count(it.key())) value.fail("parameter '" + it.key() + "' is both sampled and fixed");
      spec.fixed.emplace_back(it.key(), value.number());
    }
  }
  if (root.has("derived")) {
    const Node derived = root.at("derived");
    if (!derived.json.is_object())
      derived.fail(std::string("expected an object, got ") + derived.json.type_name());
    for (auto it = derived.json.begin(); it != derived.json.end(); ++it) {
      const Node value = derived.at(it.key());
      if (seen.count(it.key())) value.fail("parameter '" + it.key() + "' is both sampled and derived");
      for (const auto& [name, number] : spec.fixed)
        if (name == it.key()) value.fail("parameter '" + it.key() + "' is both fixed and derived");
      DerivedParameter d;
      d.name = it.key();
      d.text = value.text();
      try {
        d.expression = parse_expression(d.text);
      } catch (const std::invalid_argument& e) {
        value.fail(std::string("not an expression: ") + e.what());
      }
      for (const std::string& used : d.expression.names)
        if (derived.json.contains(used))
          value.fail("uses the derived parameter $" + used +
                     ": an expression reads sampled, fixed and the model's "
                     "default values only");
      spec.derived.push_back(std::move(d));
    }
  }
  if (root.has("simulation")) read_simulation(root.at("simulation"), spec.run);
  if (root.has("kpis"))
    for (const Node& k : root.at("kpis").elements()) spec.kpis.push_back(k.text());
  if (root.has("series")) {
    const Node series = root.at("series");
    series.expect_object({"signals", "dt"});
    for (const Node& s : series.at("signals").elements()) spec.series.signals.push_back(s.text());
    if (series.has("dt")) spec.series.dt = series.at("dt").positive();
  }
  if (root.has("chunk")) spec.chunk = root.at("chunk").whole(1, 1LL << 30);
  if (root.has("output")) spec.output = absolute_from(root.at("output").text(), folder);
  if (root.has("sobol")) {
    const Node sobol = root.at("sobol");
    sobol.expect_object({"bootstrap", "confidence"});
    if (sobol.has("bootstrap")) spec.bootstrap = static_cast<int>(sobol.at("bootstrap").whole(0, 100000));
    if (sobol.has("confidence")) {
      spec.confidence = sobol.at("confidence").number();
      if (!(spec.confidence > 0 && spec.confidence < 1)) sobol.at("confidence").fail("must be in (0, 1)");
    }
    if (spec.sampler.kind != SamplerKind::saltelli) sobol.fail("Sobol indices need a saltelli sampler");
  }
  return spec;
}

StudySpec read_study_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in || fs::is_directory(path)) throw std::runtime_error(path + ": cannot read the study file");
  std::ostringstream text;
  text << in.rdbuf();
  const fs::path folder = fs::absolute(path).parent_path();
  return read_study_text(text.str(), path, folder.string());
}

void check_study_against_model(const StudySpec& spec, const ModelNames& model) {
  const auto known = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  const auto listing = [](const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? std::string("none") : out;
  };
  const std::string& file = spec.file;
  for (std::size_t i = 0; i < spec.parameters.size(); ++i)
    if (!known(model.parameters, spec.parameters[i].name))
      throw StudyFileError(file, spec.parameters[i].pointer + "/name",
                           "unknown parameter '" + spec.parameters[i].name +
                               "' (the model's: " + listing(model.parameters) + ")");
  for (const auto& [name, value] : spec.fixed)
    if (!known(model.parameters, name))
      throw StudyFileError(
          file, "/fixed/" + name,
          "unknown parameter '" + name + "' (the model's: " + listing(model.parameters) + ")");
  for (const DerivedParameter& d : spec.derived) {
    if (!known(model.parameters, d.name))
      throw StudyFileError(
          file, "/derived/" + d.name,
          "unknown parameter '" + d.name + "' (the model's: " + listing(model.parameters) + ")");
    for (const std::string& used : d.expression.names)
      if (!known(model.parameters, used))
        throw StudyFileError(file, "/derived/" + d.name,
                             "uses $" + used + ", which is not a parameter of the model (the model's: " +
                                 listing(model.parameters) + ")");
  }
  for (std::size_t i = 0; i < spec.kpis.size(); ++i)
    if (!known(model.kpis, spec.kpis[i]))
      throw StudyFileError(file, "/kpis/" + std::to_string(i),
                           "unknown KPI '" + spec.kpis[i] + "' (the model's: " + listing(model.kpis) + ")");
  for (std::size_t i = 0; i < spec.series.signals.size(); ++i)
    if (!known(model.signals, spec.series.signals[i]))
      throw StudyFileError(
          file, "/series/signals/" + std::to_string(i),
          "unknown output '" + spec.series.signals[i] + "' (the model's: " + listing(model.signals) + ")");
  if (spec.series.dt > 0 && model.dt_out > 0) {
    const double ratio = spec.series.dt / model.dt_out;
    if (std::fabs(ratio - std::round(ratio)) > 1e-9 * ratio || std::round(ratio) < 1)
      throw StudyFileError(
          file, "/series/dt",
          "must be a whole multiple of the run's output spacing dt_out = " + Node::format(model.dt_out) +
              " (the kept series are decimated from the run's output times)");
  }
}

std::string parameter_pointer(const StudySpec& spec, std::size_t index) {
  return index < spec.parameters.size() ? spec.parameters[index].pointer : "/parameters";
}

}  // namespace myriad::study
