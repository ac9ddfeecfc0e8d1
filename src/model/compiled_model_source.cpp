#include "model/compiled_model_source.hpp"

#include <cctype>
#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace myriad {

namespace {

// Emits `m.<path> = <value>;` for each field that differs from a value-initialized CompiledModel's (zero, or
// the default member initializer), so the source lists only what the model sets.
class FieldWriter {
 public:
  explicit FieldWriter(std::ostringstream& out) : out_(out) {}

  void operator()(const std::string& path, int value, int initial) {
    if (value != initial) out_ << "  m." << path << " = " << value << ";\n";
  }
  void operator()(const std::string& path, double value, double initial) {
    if (std::memcmp(&value, &initial, sizeof value) == 0) return;
    if (!std::isfinite(value))
      throw std::invalid_argument("compiled_model_source: " + path + " is not finite and has no C++ literal");
    out_ << "  m." << path << " = " << std::hexfloat << value << std::defaultfloat << ";\n";
  }
  template <class T, std::size_t N>
  void array(const std::string& path, const T (&values)[N], const T (&initial)[N]) {
    for (std::size_t i = 0; i < N; ++i) (*this)(path + "[" + std::to_string(i) + "]", values[i], initial[i]);
  }

 private:
  std::ostringstream& out_;
};

std::string at(const char* array, int i, const char* field) {
  return std::string(array) + "[" + std::to_string(i) + "]." + field;
}

void write_joints(FieldWriter& w, const CompiledModel& m, const CompiledModel& d) {
  for (int i = 0; i < kMaxBodies; ++i) {
    const CompiledJoint &j = m.joints[i], &e = d.joints[i];
    w(at("joints", i, "type"), j.type, e.type);
    w(at("joints", i, "parent"), j.parent, e.parent);
    w(at("joints", i, "q_index"), j.q_index, e.q_index);
    w(at("joints", i, "v_index"), j.v_index, e.v_index);
    w(at("joints", i, "nq"), j.nq, e.nq);
    w(at("joints", i, "nv"), j.nv, e.nv);
    w(at("joints", i, "constants"), j.constants, e.constants);
    w(at("joints", i, "body_constants"), j.body_constants, e.body_constants);
  }
  w.array("model_body", m.model_body, d.model_body);
  w.array("tree_body", m.tree_body, d.tree_body);
}

void write_forces(FieldWriter& w, const CompiledModel& m, const CompiledModel& d) {
  for (int i = 0; i < kMaxForces; ++i) {
    const CompiledForce &f = m.forces[i], &e = d.forces[i];
    w(at("forces", i, "type"), f.type, e.type);
    w(at("forces", i, "body1"), f.body1, e.body1);
    w(at("forces", i, "body2"), f.body2, e.body2);
    w(at("forces", i, "joint"), f.joint, e.joint);
    w(at("forces", i, "index"), f.index, e.index);
    w(at("forces", i, "constants"), f.constants, e.constants);
    w(at("forces", i, "actuator"), f.actuator, e.actuator);
    w(at("forces", i, "motion1"), f.motion1, e.motion1);
    w(at("forces", i, "motion2"), f.motion2, e.motion2);
    w(at("forces", i, "acts"), f.acts, e.acts);
    w(at("forces", i, "spring_table"), f.spring_table, e.spring_table);
    w(at("forces", i, "spring_points"), f.spring_points, e.spring_points);
    w(at("forces", i, "damper_table"), f.damper_table, e.damper_table);
    w(at("forces", i, "damper_points"), f.damper_points, e.damper_points);
  }
}

void write_functions_outputs_kpis(FieldWriter& w, const CompiledModel& m, const CompiledModel& d) {
  for (int i = 0; i < kMaxTimeFunctions; ++i) {
    const CompiledTimeFunction &f = m.time_functions[i], &e = d.time_functions[i];
    w(at("time_functions", i, "kind"), f.kind, e.kind);
    w(at("time_functions", i, "constants"), f.constants, e.constants);
    w(at("time_functions", i, "points"), f.points, e.points);
    w(at("time_functions", i, "input"), f.input, e.input);
    w(at("time_functions", i, "gain"), f.gain, e.gain);
  }
  for (int i = 0; i < kMaxOutputs; ++i) {
    const CompiledOutput &o = m.outputs[i], &e = d.outputs[i];
    w(at("outputs", i, "kind"), o.kind, e.kind);
    w(at("outputs", i, "joint"), o.joint, e.joint);
    w(at("outputs", i, "index"), o.index, e.index);
    w(at("outputs", i, "body"), o.body, e.body);
    w(at("outputs", i, "component"), o.component, e.component);
    w(at("outputs", i, "force"), o.force, e.force);
    w(at("outputs", i, "constants"), o.constants, e.constants);
  }
  w("n_kpis", m.n_kpis, d.n_kpis);
  for (int i = 0; i < kMaxKpis; ++i) {
    const CompiledKpi &k = m.kpis[i], &e = d.kpis[i];
    w(at("kpis", i, "type"), k.type, e.type);
    w(at("kpis", i, "output"), k.output, e.output);
    w(at("kpis", i, "scale"), k.scale, e.scale);
    w(at("kpis", i, "threshold"), k.threshold, e.threshold);
    w(at("kpis", i, "from"), k.from, e.from);
  }
}

void write_constraints(FieldWriter& w, const CompiledConstraints& c, const CompiledConstraints& d) {
  w("constraints.m", c.m, d.m);
  w("constraints.n_loops", c.n_loops, d.n_loops);
  w("constraints.n_drivers", c.n_drivers, d.n_drivers);
  w("constraints.n_rods", c.n_rods, d.n_rods);
  w("constraints.rod_inertia", c.rod_inertia, d.rod_inertia);
  w("constraints.method", c.method, d.method);
  w("constraints.named_independent", c.named_independent, d.named_independent);
  w("constraints.n_independent", c.n_independent, d.n_independent);
  w("constraints.n_blocks", c.n_blocks, d.n_blocks);
  w("constraints.largest_block", c.largest_block, d.largest_block);
  w("constraints.n_slots", c.n_slots, d.n_slots);
  w("constraints.n_values", c.n_values, d.n_values);
  w("constraints.lu_values", c.lu_values, d.lu_values);
  w.array("constraints.independent", c.independent, d.independent);
  w.array("constraints.dependent", c.dependent, d.dependent);
  w.array("constraints.block_rows", c.block_rows, d.block_rows);
  w.array("constraints.block_start", c.block_start, d.block_start);
  w.array("constraints.block_lu", c.block_lu, d.block_lu);
  w.array("constraints.row_slots", c.row_slots, d.row_slots);
  w.array("constraints.row_width", c.row_width, d.row_width);
  w.array("constraints.row_values", c.row_values, d.row_values);
  w.array("constraints.slot_column", c.slot_column, d.slot_column);
  w.array("constraints.slot_role", c.slot_role, d.slot_role);
  w.array("constraints.role_of_column", c.role_of_column, d.role_of_column);
  for (int i = 0; i < kMaxLoops; ++i) {
    const CompiledLoop &l = c.loops[i], &e = d.loops[i];
    w(at("constraints.loops", i, "type"), l.type, e.type);
    w(at("constraints.loops", i, "body1"), l.body1, e.body1);
    w(at("constraints.loops", i, "body2"), l.body2, e.body2);
    w(at("constraints.loops", i, "constants"), l.constants, e.constants);
    w(at("constraints.loops", i, "row"), l.row, e.row);
    w(at("constraints.loops", i, "rows"), l.rows, e.rows);
    w(at("constraints.loops", i, "slot_start"), l.slot_start, e.slot_start);
    w(at("constraints.loops", i, "slots"), l.slots, e.slots);
    w(at("constraints.loops", i, "path1_slots"), l.path1_slots, e.path1_slots);
    w(at("constraints.loops", i, "lca"), l.lca, e.lca);
    w(at("constraints.loops", i, "lca_slot"), l.lca_slot, e.lca_slot);
  }
  for (int i = 0; i < kMaxDrivers; ++i) {
    const CompiledDriver &r = c.drivers[i], &e = d.drivers[i];
    w(at("constraints.drivers", i, "v_index"), r.v_index, e.v_index);
    w(at("constraints.drivers", i, "time_function"), r.time_function, e.time_function);
    w(at("constraints.drivers", i, "row"), r.row, e.row);
    w(at("constraints.drivers", i, "slot_start"), r.slot_start, e.slot_start);
  }
}

}  // namespace

bool is_cpp_identifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (const char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

std::string compiled_model_source(const CompiledModel& compiled, const std::string& name,
                                  const std::string& origin) {
  if (!is_cpp_identifier(name))
    throw std::invalid_argument("compiled_model_source: the name '" + name + "' is not a C++ identifier");
  const auto defaults =
      std::make_unique<CompiledModel>();  // value-initialized: what `CompiledModel m{}` holds
  std::ostringstream out;
  out << "#pragma once\n"
      << "// Generated by `myriad codegen` from " << origin
      << ": its CompiledModel as a constant (kernels fold its\n"
      << "// topology; model/compiled_model_source.hpp). Regenerate rather than edit.\n"
      << "#include \"model/compiled_model.hpp\"\n\n"
      << "namespace myriad::generated {\n\n"
      << "constexpr CompiledModel " << name << "() {\n"
      << "  CompiledModel m{};\n";
  FieldWriter w(out);
  const CompiledModel& m = compiled;
  const CompiledModel& d = *defaults;
  w("n_bodies", m.n_bodies, d.n_bodies);
  w("nq", m.nq, d.nq);
  w("nv", m.nv, d.nv);
  w("n_forces", m.n_forces, d.n_forces);
  w("n_time_functions", m.n_time_functions, d.n_time_functions);
  w("n_outputs", m.n_outputs, d.n_outputs);
  w("n_constants", m.n_constants, d.n_constants);
  w("gravity", m.gravity, d.gravity);
  w("has_quaternions", m.has_quaternions, d.has_quaternions);
  write_joints(w, m, d);
  write_forces(w, m, d);
  write_functions_outputs_kpis(w, m, d);
  write_constraints(w, m.constraints, d.constraints);
  out << "  return m;\n}\n\n}  // namespace myriad::generated\n";
  return out.str();
}

}  // namespace myriad
