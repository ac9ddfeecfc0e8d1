#include "model/model_loader.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "core/integrator_names.hpp"
#include "model/force_reading.hpp"
#include "model/joint_reading.hpp"
#include "model/joint_tree.hpp"
#include "model/json_reader.hpp"
#include "model/loop_reading.hpp"
#include "model/model_geometry.hpp"
#include "model/model_limits.hpp"
#include "model/model_reading.hpp"
#include "model/model_validation.hpp"
#include "model/number_text.hpp"
#include "model/kpi_reading.hpp"
#include "model/output_reading.hpp"
#include "model/profile_file.hpp"
#include "model/subsystems.hpp"

namespace myriad {

namespace {

const std::vector<std::string> kTopLevelKeys = {"format",     "version", "name",   "description", "gravity",
                                                "parameters", "bodies",  "joints", "forces",      "outputs",
                                                "simulation", "loops",   "drivers",     "independent", "inputs",
                                                "kpis",       "subsystems", "rig", "reference_counts",
                                                "rod_inertia"};

// `reference_counts`: {"source", "note", "bodies", "joints", "coordinates", "constraints", "degrees_of_freedom"},
// text and non-negative integers, all but `source` optional.
ReferenceCounts read_reference_counts(const JsonNode& node) {
  node.expect_object();
  node.allow_keys({"source", "note", "bodies", "joints", "coordinates", "constraints", "degrees_of_freedom"},
                  "reference_counts");
  ReferenceCounts counts;
  counts.source = node.at("source").as_string();
  if (node.has("note")) counts.note = node.at("note").as_string();
  const std::pair<const char*, int*> fields[] = {{"bodies", &counts.bodies},
                                                 {"joints", &counts.joints},
                                                 {"coordinates", &counts.coordinates},
                                                 {"constraints", &counts.constraints},
                                                 {"degrees_of_freedom", &counts.degrees_of_freedom}};
  for (const auto& [key, target] : fields)
    if (node.has(key)) *target = node.at(key).as_index();
  return counts;
}

// Checked before anything else, so that a file of another kind is named as such instead of producing a list
// of unknown keys.
void check_format_and_version(const JsonNode& root) {
  const JsonNode format = root.at("format");
  if (format.as_string() != "myriad-model")
    format.fail("unsupported format '" + format.as_string() + "' (expected 'myriad-model')");
  const JsonNode version = root.at("version");
  if (!version.json().is_number_integer()) version.fail_type("the integer 1");
  if (version.json().get<long long>() != 1)
    version.fail("unsupported version " + version.json().dump() + " (this build reads version 1)");
}

std::vector<Parameter> read_parameters(const JsonNode& node, ReadContext& context) {
  std::vector<Parameter> parameters;
  for (const auto& member : node.members()) {
    const JsonNode& entry = member.second;
    Parameter p;
    p.name = member.first;
    if (!is_parameter_name(p.name))
      entry.fail("invalid parameter name '" + p.name + "' (names match [A-Za-z_][A-Za-z0-9_]*)");
    if (entry.json().is_object()) {
      entry.allow_keys({"value", "unit", "description"}, "a parameter");
      p.value = entry.at("value").as_plain_number();
      if (entry.has("unit")) p.unit = entry.at("unit").as_string();
      if (entry.has("description")) p.description = entry.at("description").as_string();
    } else if (entry.json().is_number()) {
      p.value = entry.as_plain_number();
    } else {
      entry.fail_type("a number or {\"value\", \"unit\", \"description\"}");
    }
    // Duplicate names cannot reach here: parse_json_document rejects repeated keys.
    context.parameter_index[p.name] = static_cast<int>(parameters.size());
    parameters.push_back(p);
  }
  return parameters;
}

// `inputs`: {"name": {"default", "min", "max", "unit", "description"}} (docs/model-format.md, "Inputs"), plain
// numbers; min <= default <= max where given.
double read_input_number(const JsonNode& entry, const std::string& key) {
  const JsonNode node = entry.at(key);
  if (node.json().is_string()) node.fail(key + " is a plain number (parameters cannot set inputs)");
  return node.as_plain_number();
}

std::vector<Input> read_inputs(const JsonNode& node, ReadContext& context) {
  if (!node.json().is_object()) node.fail_type("an object of inputs by name");
  std::vector<Input> inputs;
  for (const auto& member : node.members()) {
    const JsonNode& entry = member.second;
    Input input;
    input.name = member.first;
    if (!is_parameter_name(input.name))
      entry.fail("invalid input name '" + input.name + "' (names match [A-Za-z_][A-Za-z0-9_]*)");
    entry.expect_object();
    entry.allow_keys({"default", "min", "max", "unit", "description"}, "an input");
    if (entry.has("default")) input.value = read_input_number(entry, "default");
    if (entry.has("min")) input.min = read_input_number(entry, "min");
    if (entry.has("max")) input.max = read_input_number(entry, "max");
    if (entry.has("unit")) input.unit = entry.at("unit").as_string();
    if (entry.has("description")) input.description = entry.at("description").as_string();
    if (input.min > input.max)
      entry.at("min").fail("min " + number_text(input.min) + " is greater than max " + number_text(input.max));
    if (input.value < input.min || input.value > input.max)
      (entry.has("default") ? entry.at("default") : entry).fail("default " + number_text(input.value) + " is outside [" + number_text(input.min) +
                               ", " + number_text(input.max) + "]");
    context.inputs.index[input.name] = static_cast<int>(inputs.size());
    inputs.push_back(input);
  }
  return inputs;
}

std::vector<Body> read_bodies(const JsonNode& node, ReadContext& context) {
  std::vector<Body> bodies;
  for (const JsonNode& entry : node.elements()) {
    entry.allow_keys({"name", "mass", "center_of_mass", "inertia"});
    Body body;
    const int index = static_cast<int>(bodies.size());
    body.name = read_entry_name(entry, context.bodies, index);
    if (body.name == "ground") entry.at("name").fail("'ground' is reserved for the fixed world frame");
    body.mass = read_number(entry.at("mass"), context);
    body.center_of_mass = read_optional_vector3(entry, "center_of_mass", context);
    const JsonNode inertia = entry.at("inertia");
    inertia.allow_keys({"ixx", "iyy", "izz", "ixy", "ixz", "iyz"}, "an inertia");
    const char* const keys[6] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
    for (size_t k = 0; k < 3; ++k) body.inertia[k] = read_number(inertia.at(keys[k]), context);
    for (size_t k = 3; k < 6; ++k) body.inertia[k] = read_optional_number(inertia, keys[k], 0.0, context);
    bodies.push_back(body);
  }
  if (bodies.empty()) node.fail("a model needs at least one body");
  return bodies;
}

double read_positive(const JsonNode& object, const std::string& key, double fallback) {
  if (!object.has(key)) return fallback;
  const JsonNode node = object.at(key);
  if (node.json().is_string())
    node.fail("simulation settings are plain numbers (parameters cannot set them)");
  const double value = node.as_plain_number();
  if (!(value > 0.0)) node.fail(key + " must be positive, got " + node.json().dump());
  return value;
}

// A grid of more than kMaxOutputTimes would be refused by every run; say so at load, where `info` shows it.
void check_output_grid(const JsonNode& node, const SimulationDefaults& simulation) {
  const std::size_t times = output_time_count(0.0, simulation.t_end, simulation.dt_out);
  if (times <= kMaxOutputTimes) return;
  const JsonNode at = node.has("dt_out") ? node.at("dt_out") : node.at("t_end");
  at.fail("t_end = " + number_text(simulation.t_end) + " and dt_out = " + number_text(simulation.dt_out) +
          " give " + (times == kOutputTimeCountUnbounded ? "more than 2^53" : std::to_string(times)) +
          " output times, more than the " + std::to_string(kMaxOutputTimes) + " a run may have");
}

SimulationDefaults read_simulation(const JsonNode& node) {
  node.allow_keys({"t_end", "dt_out", "integrator", "h", "rtol", "atol", "rho_inf"}, "simulation");
  SimulationDefaults simulation;
  simulation.t_end = read_positive(node, "t_end", simulation.t_end);
  simulation.dt_out = read_positive(node, "dt_out", simulation.dt_out);
  check_output_grid(node, simulation);
  if (node.has("integrator")) {
    const std::vector<std::string> integrators = integrator_names();
    simulation.integrator =
        integrators[static_cast<size_t>(read_choice(node.at("integrator"), integrators, "integrator"))];
  }
  simulation.h = read_positive(node, "h", simulation.h);
  simulation.rtol = read_positive(node, "rtol", simulation.rtol);
  simulation.atol = read_positive(node, "atol", simulation.atol);
  if (node.has("rho_inf")) {  // whether the integrator takes it is the run's check (api/run_options.cpp)
    const JsonNode rho = node.at("rho_inf");
    if (rho.json().is_string()) rho.fail("simulation settings are plain numbers (parameters cannot set them)");
    const double value = rho.as_plain_number();
    if (!(value >= 0.0 && value <= 1.0))
      rho.fail("rho_inf (the implicit integrators' spectral radius at infinity) must lie in [0, 1], got " +
               rho.json().dump());
    simulation.rho_inf = value;
  }
  return simulation;
}

// The largest number of entries of each section (model/model_limits.hpp).
struct SectionLimit {
  const char* key;
  int limit;
};
const SectionLimit kSectionLimits[] = {{"parameters", kMaxParameters}, {"bodies", kMaxBodies},
                                       {"joints", kMaxBodies},         {"forces", kMaxForces},
                                       {"outputs", kMaxOutputs},       {"loops", kMaxLoops},
                                       {"drivers", kMaxDrivers},       {"independent", kMaxIndependent},
                                       {"inputs", kMaxInputs},         {"kpis", kMaxKpis}};

// Refuses a section with more entries than a model may have before any entry is read, so that nothing
// downstream (name tables, the compiled model's fixed-size arrays) meets a count it cannot hold.
void check_section_sizes(const JsonNode& root) {
  for (const SectionLimit& section : kSectionLimits) {
    if (!root.has(section.key)) continue;
    const JsonNode node = root.at(section.key);
    const Json& json = node.json();
    if ((json.is_array() || json.is_object()) && json.size() > static_cast<size_t>(section.limit))
      node.fail(std::to_string(json.size()) + " " + section.key + ", more than the " +
                std::to_string(section.limit) + " a model may have");
  }
}

Model read_model(const JsonNode& root, const std::string& file_name) {
  root.expect_object();
  check_format_and_version(root);
  root.allow_keys(kTopLevelKeys);
  check_section_sizes(root);

  Model model;
  model.source_file = file_name;
  if (root.has("name")) model.name = root.at("name").as_string();
  if (root.has("description")) model.description = root.at("description").as_string();
  if (root.has("reference_counts")) model.reference_counts = read_reference_counts(root.at("reference_counts"));
  if (root.has("rod_inertia")) {
    const JsonNode& node = root.at("rod_inertia");
    const std::string method = node.as_string();
    if (method == "exact") model.rod_inertia = RodInertia::exact;
    else if (method == "point") model.rod_inertia = RodInertia::point;
    else if (method == "linear") model.rod_inertia = RodInertia::linear;
    else if (method == "quadratic") model.rod_inertia = RodInertia::quadratic;
    else
      node.fail("unknown rod inertia '" + method + "' (expected 'exact', 'point', 'linear' or 'quadratic')");
  }

  ReadContext context;
  if (root.has("parameters")) model.parameters = read_parameters(root.at("parameters"), context);
  context.parameters = &model.parameters;
  model.gravity = read_optional_vector3(root, "gravity", context);
  model.bodies = read_bodies(root.at("bodies"), context);

  // Joints are checked as a tree in file order (so messages point into the file), then reordered
  // parent-first; every later reference to a joint is an index into that final order.
  const std::vector<Joint> file_joints = read_joints(root.at("joints"), context);
  check_joint_tree(file_joints, model.bodies, file_name);
  model.joints = order_parent_first(file_joints, static_cast<int>(model.bodies.size()));
  for (size_t i = 0; i < model.joints.size(); ++i)
    context.joints.index[model.joints[i].name] = static_cast<int>(i);
  context.joint_list = &model.joints;

  if (root.has("inputs")) model.inputs = read_inputs(root.at("inputs"), context);
  context.input_list = &model.inputs;
  if (root.has("forces")) model.forces = read_forces(root.at("forces"), context);
  context.force_list = &model.forces;
  if (root.has("outputs")) model.outputs = read_outputs(root.at("outputs"), context);
  if (root.has("kpis")) model.kpis = read_kpis(root.at("kpis"), model);
  if (root.has("simulation")) model.simulation = read_simulation(root.at("simulation"));
  if (root.has("loops")) model.loops = read_loops(root.at("loops"), context);
  if (root.has("drivers")) model.drivers = read_drivers(root.at("drivers"), context);
  if (root.has("independent"))
    model.independent = read_independent(root.at("independent"), context, model.drivers);

  resolve_design_lengths(model);
  validate_model_values(model);
  return model;
}

}  // namespace

namespace {

// The document as read_model sees it: subsystems expanded (after the format check, so a file of another kind is
// named as such first).
Json expanded_document(const Json& document, const std::string& file_name, std::vector<Subsystem>& subsystems) {
  const JsonNode root(document, "", file_name);
  if (!document.is_object() || (!document.contains("subsystems") && !document.contains("rig"))) return document;
  check_format_and_version(root);
  return expand_subsystems(root, subsystems);
}

// An error inside a template's generated entry points into the expanded model; say which subsystem made it.
[[noreturn]] void rethrow_in_subsystem(const ModelError& error, const Json& expanded,
                                       const std::vector<Subsystem>& subsystems) {
  const std::string& pointer = error.pointer();
  for (const char* section : {"bodies", "joints", "loops", "forces", "outputs"}) {
    const std::string prefix = std::string("/") + section + "/";
    if (pointer.compare(0, prefix.size(), prefix) != 0) continue;
    const std::size_t end = pointer.find('/', prefix.size());
    const std::string index_text = pointer.substr(prefix.size(), end - prefix.size());
    if (index_text.empty() || index_text.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::size_t index = std::stoul(index_text);
    const Json& list = expanded[section];
    if (index >= list.size() || !list[index].contains("name") || !list[index]["name"].is_string()) continue;
    const std::string name = list[index]["name"].get<std::string>();
    for (const Subsystem& s : subsystems)
      for (const auto& part : s.parts)
        if (part.second == name)
          throw ModelError(error.file(), s.pointer,
                           "part '" + name + "' of subsystem '" + s.name + "' (" + pointer +
                               " in the expanded model, see `myriad expand`): " + error.reason());
  }
  throw error;
}

// read_model on a document expanded_document made, with errors in generated parts put to their subsystem.
Model read_expanded(const Json& expanded, const std::vector<Subsystem>& subsystems, const std::string& file_name) {
  if (subsystems.empty()) return read_model(JsonNode(expanded, "", file_name), file_name);
  try {
    Model model = read_model(JsonNode(expanded, "", file_name), file_name);
    model.subsystems = subsystems;
    return model;
  } catch (const ModelError& error) {
    rethrow_in_subsystem(error, expanded, subsystems);
  }
}

}  // namespace

Model load_model_text(const std::string& json_text, const std::string& file_name) {
  const Json document = parse_json_document(json_text, file_name);
  std::vector<Subsystem> subsystems;
  const Json expanded = expanded_document(document, file_name, subsystems);
  return read_expanded(expanded, subsystems, file_name);
}

std::string read_model_file_text(const std::string& path) {
  // stdio rather than iostreams: errno is then reliably the reason the open or the read failed.
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) throw ModelError(path, "/", std::string("cannot open file: ") + std::strerror(errno));
  struct stat status {};
  if (fstat(fileno(file), &status) == 0 && S_ISDIR(status.st_mode)) {
    std::fclose(file);
    throw ModelError(path, "/", "is a directory, not a model file");
  }
  // At most one byte past the limit, so that a file without end (/dev/zero, a pipe) is refused, not read.
  std::string text;
  char buffer[65536];
  size_t count = 0;
  while (text.size() <= kMaxModelFileBytes &&
         (count =
              std::fread(buffer, 1, std::min(sizeof buffer, kMaxModelFileBytes + 1 - text.size()), file)) > 0)
    text.append(buffer, count);
  const bool failed = std::ferror(file) != 0;
  const int read_errno = errno;
  std::fclose(file);
  if (failed) throw ModelError(path, "/", std::string("cannot read file: ") + std::strerror(read_errno));
  if (text.size() > kMaxModelFileBytes)
    throw ModelError(
        path, "/",
        "file exceeds " + std::to_string(kMaxModelFileBytes) + " bytes (the limit for a model file)");
  return text;
}

Model load_model_file(const std::string& path) { return load_model_text(read_model_file_text(path), path); }

namespace {

// The files a model names beside itself (a tire's `.tir`, a road profile) as absolute paths, so that the expanded
// model loads wherever it is written: every object whose type is "tire" or "profile" with a string "file".
void resolve_named_files(Json& node, const std::string& model_path) {
  if (node.is_object()) {
    const auto type = node.find("type");
    const auto file = node.find("file");
    if (type != node.end() && type->is_string() && (*type == "tire" || *type == "profile") && file != node.end() &&
        file->is_string())
      *file = std::filesystem::absolute(resolve_beside(model_path, file->get<std::string>())).lexically_normal().string();
    for (auto& [key, child] : node.items()) resolve_named_files(child, model_path);
  } else if (node.is_array()) {
    for (Json& child : node) resolve_named_files(child, model_path);
  }
}

}  // namespace

std::string expanded_model_text(const std::string& path) {
  const Json document = parse_json_document(read_model_file_text(path), path);
  std::vector<Subsystem> subsystems;
  Json expanded = expanded_document(document, path, subsystems);
  read_expanded(expanded, subsystems, path);  // the same checks as loading
  resolve_named_files(expanded, path);
  return expanded.dump(2) + "\n";
}

}  // namespace myriad
