// `myriad info MODEL`: what the model is made of.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>

#include <string>
#include <vector>

#include "absolute/model_mapping.hpp"
#include "backends/backend.hpp"
#include "commands.hpp"
#include "dynamics/articulated_body.hpp"
#include "loops/loop_structure.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"

namespace myriad::cli {
namespace {

// Myriad starts every instance exactly where the model file puts it; it does not settle a model into static
// equilibrium (a quarter car with a stiffer spring starts compressed by the old preload). Says so, and for a
// tree how far from rest the initial state is: the largest generalized acceleration at t = 0.
void print_initial_state(const Model& model, const CompiledModel& compiled) {
  std::cout << "\ninitial state: the joints' `position` and `velocity` at t = 0 (parameter defaults), used as given:"
               "\n  Myriad does not move a model into static equilibrium before a run";
  if (compiled.constraints.m > 0) {
    std::cout << " (loops: the dependent coordinates are assembled onto the constraints)\n";
    return;
  }
  const Model literal = apply_parameters(model, default_parameter_values(model));
  std::vector<double> constants(static_cast<size_t>(compiled.n_constants) + 1);
  pack_constants(compiled, literal, constants.data());
  std::vector<double> q(static_cast<size_t>(compiled.nq) + 1), v(static_cast<size_t>(compiled.nv) + 1),
      qdd(static_cast<size_t>(compiled.nv) + 1);
  initial_state(literal, q.data(), v.data());
  std::vector<unsigned char> buffer(tree_workspace_bytes<double>(compiled));
  TreeWorkspace<double> w = carve_tree_workspace<double>(compiled, buffer.data(), nullptr);
  if (!forward_dynamics(compiled, constants.data(), 0.0, q.data(), v.data(), w, qdd.data())) {
    std::cout << "\n  at t = 0 a joint inertia is singular\n";
    return;
  }
  int worst = 0;
  for (int i = 1; i < compiled.nv; ++i)
    if (std::abs(qdd[static_cast<size_t>(i)]) > std::abs(qdd[static_cast<size_t>(worst)])) worst = i;
  std::string coordinate = "v[" + std::to_string(worst) + "]";
  for (size_t j = 0; j < model.joints.size(); ++j)
    if (worst >= compiled.joints[j].v_index && worst < compiled.joints[j].v_index + compiled.joints[j].nv)
      coordinate = model.joints[j].name + (compiled.joints[j].nv > 1 ? "[" + std::to_string(worst - compiled.joints[j].v_index) + "]" : "");
  const double largest = compiled.nv > 0 ? std::abs(qdd[static_cast<size_t>(worst)]) : 0.0;
  // Rounding leaves ~1e-14 in a balanced model; 1e-9 of gravity is far below any physical imbalance.
  const double g = std::sqrt(literal.gravity[0].value * literal.gravity[0].value +
                             literal.gravity[1].value * literal.gravity[1].value +
                             literal.gravity[2].value * literal.gravity[2].value);
  if (largest <= 1e-9 * std::max(1.0, g))
    std::cout << ";\n  at t = 0 (parameter defaults) it is at rest: the largest generalized acceleration is "
              << largest << ", rounding; other parameter values may start it out of equilibrium\n";
  else
    std::cout << ";\n  at t = 0 the largest generalized acceleration is " << largest << " (" << coordinate
              << "), so the model is not at rest there\n";
}

// The source's counts beside the model's (model.reference_counts), when the file gives them.
void print_reference_counts(const ReferenceCounts& r) {
  if (r.source.empty()) return;
  std::cout << "as counted by " << r.source << ":";
  const std::pair<const char*, int> counts[] = {{"bodies", r.bodies},
                                                {"joints", r.joints},
                                                {"coordinates", r.coordinates},
                                                {"constraint equations", r.constraints},
                                                {"degrees of freedom", r.degrees_of_freedom}};
  for (const auto& [what, n] : counts)
    if (n >= 0) std::cout << "  " << what << ": " << n;
  std::cout << '\n';
  if (!r.note.empty()) std::cout << "  " << r.note << '\n';
}

}  // namespace

int run_devices() {
  std::cout << "backends:\n";
  for (const std::string& line : describe_backends()) std::cout << "  " << line << '\n';
  return 0;
}

// The same model in seed 002's absolute coordinates (absolute/model_mapping.hpp): its bodies at their centres of
// mass on principal axes, and the GCONs its joints, loops and drivers produce (the counts of seed 002 Table 7).
void print_absolute_mapping(const Model& model) {
  std::cout << "\nabsolute coordinates (seed 002): ";
  AbsoluteMapping mapping;
  try {
    mapping = map_to_absolute(apply_parameters(model, default_parameter_values(model)));
  } catch (const std::invalid_argument& e) {
    std::cout << "not mapped: " << e.what() << '\n';
    return;
  }
  std::cout << mapping.bodies.size() << " bodies, " << mapping.gcons.size() << " GCONs: "
            << gcon_counts_text(mapping.counts) << '\n';
  std::size_t width = 0;
  for (const GconSource& source : mapping.sources) width = std::max(width, source.what.size());
  for (const GconSource& source : mapping.sources)
    std::cout << "  " << std::left << std::setw(static_cast<int>(width + 2)) << source.what
              << gcon_counts_text(source.counts) << '\n';
  if (!mapping.rsdas.empty())
    std::cout << "  " << mapping.rsdas.size() << " rotational spring-damper-actuator(s) as generalized forces\n";
  if (!mapping.actuators.empty())
    std::cout << "  " << mapping.actuators.size() << " translational joint actuator(s) along their DP2 rows\n";
  if (!mapping.tsdas.empty())
    std::cout << "  " << mapping.tsdas.size() << " translational spring-damper(s) as generalized forces\n";
  for (const std::string& line : mapping.unmapped) std::cout << "  " << line << '\n';
}

int run_info(const std::string& model_path) {
  const Model model = load_model_file(model_path);
  const auto compiled = compile(model);
  std::cout << "model: " << model.name << " (" << model_path << ")\n";
  if (!model.description.empty()) std::cout << "  " << model.description << '\n';
  std::cout << "bodies: " << model.bodies.size() << "  joints: " << model.joints.size()
            << (model.loops.empty() ? "" : " (+" + std::to_string(model.loops.size()) + " loops)")
            << "  coordinates: nq = " << compiled->nq << ", nv = " << compiled->nv
            << "  degrees of freedom: " << compiled->nv - compiled->constraints.m << "  constants per instance: " << compiled->n_constants
            << '\n';
  if (compiled->constraints.m > 0)
    std::cout << "constraint equations: m = " << compiled->constraints.m << " (loops " << model.loops.size()
              << ", drivers " << model.drivers.size() << ")\n";
  print_reference_counts(model.reference_counts);
  std::cout << "\nbodies:\n";
  for (const Body& b : model.bodies) std::cout << "  " << std::left << std::setw(20) << b.name << " mass " << b.mass.value << '\n';
  std::cout << "\njoints (coordinate layout, parent-first):\n";
  for (size_t j = 0; j < model.joints.size(); ++j) {
    const Joint& joint = model.joints[j];
    const CompiledJoint& c = compiled->joints[j];
    const std::string parent = joint.parent < 0 ? "ground" : model.bodies[static_cast<size_t>(joint.parent)].name;
    std::cout << "  " << std::left << std::setw(20) << joint.name << std::setw(12) << joint_type_name(joint.type)
              << parent << " -> " << model.bodies[static_cast<size_t>(joint.child)].name << "  q[" << c.q_index << ".."
              << c.q_index + c.nq << ")  v[" << c.v_index << ".." << c.v_index + c.nv << ")\n";
  }
  std::cout << "\nforce elements: " << model.forces.size() << '\n';
  for (const ForceElement& f : model.forces) {
    std::cout << "  " << std::left << std::setw(20) << f.name << force_type_name(f.type) << '\n';
  }
  std::cout << "\nparameters: " << model.parameters.size() << '\n';
  for (const Parameter& p : model.parameters)
    std::cout << "  " << std::left << std::setw(20) << p.name << std::setw(14) << p.value << p.unit
              << (p.description.empty() ? "" : "  " + p.description) << '\n';
  if (!model.inputs.empty()) {
    std::cout << "\ninputs (stepping API; batch runs use the default): " << model.inputs.size() << '\n';
    for (const Input& u : model.inputs)
      std::cout << "  " << std::left << std::setw(20) << u.name << "default " << u.value << "  [" << u.min << ", "
                << u.max << "] " << u.unit << '\n';
  }
  std::cout << "\noutputs: " << model.outputs.size() << '\n';
  for (const Output& o : model.outputs) std::cout << "  " << o.name << '\n';
  if (!model.subsystems.empty()) {
    std::cout << "\nsubsystems (templates, expanded into the entries above; `myriad expand` writes them): "
              << model.subsystems.size() << '\n';
    for (const Subsystem& s : model.subsystems) {
      std::cout << "  " << s.name << ": " << s.template_name << ", " << s.side << " side (" << s.pointer << ")\n";
      const std::pair<const char*, const char*> kinds[] = {
          {"body", "bodies"}, {"joint", "joints"}, {"loop", "loops"}, {"force", "forces"}, {"output", "outputs"}};
      for (const auto& kind : kinds) {
        std::string names;
        for (const auto& part : s.parts)
          if (part.first == kind.first) names += "  " + part.second;
        if (!names.empty()) std::cout << "    " << std::left << std::setw(8) << kind.second << names << '\n';
      }
    }
  }
  print_absolute_mapping(model);
  print_initial_state(model, *compiled);
  const CompiledConstraints& c = compiled->constraints;
  if (c.m == 0) {
    std::cout << "\nloops: none (tree)\n";
    return 0;
  }
  // Velocity index -> "joint[index]" for the partition.
  std::vector<std::string> coordinate(static_cast<size_t>(compiled->nv));
  for (size_t j = 0; j < model.joints.size(); ++j)
    for (int a = 0; a < compiled->joints[j].nv; ++a)
      coordinate[static_cast<size_t>(compiled->joints[j].v_index + a)] =
          model.joints[j].name + (compiled->joints[j].nv > 1 ? "[" + std::to_string(a) + "]" : "");
  std::cout << "\nloops: " << model.loops.size() << "  drivers: " << model.drivers.size()
            << "\n  n = " << compiled->nv << " coordinates, m = " << c.m << " constraint equations, ndof = "
            << c.n_independent << "\n  loop method: " << loops::loop_method_name(c.method) << " ("
            << c.n_blocks << " dependent block" << (c.n_blocks == 1 ? "" : "s") << ", largest " << c.largest_block
            << (c.method == kLoopMethodReduction ? "" : "; above the reduction's limit of " +
                                                         std::to_string(loops::kReductionLargestBlock))
            << ")\n  partition (" << (c.named_independent ? "named in the model" : "chosen by full pivoting")
            << "):\n    independent:";
  for (int i = 0; i < c.n_independent; ++i) std::cout << ' ' << coordinate[static_cast<size_t>(c.independent[i])];
  std::cout << "\n    dependent:  ";
  for (int i = 0; i < c.m && i < 32; ++i) std::cout << ' ' << coordinate[static_cast<size_t>(c.dependent[i])];
  if (c.m > 32) std::cout << " ... (" << c.m - 32 << " more)";
  std::cout << '\n';
  for (const Loop& loop : model.loops)
    std::cout << "  " << std::left << std::setw(20) << loop.name << std::setw(22) << loop_type_name(loop.type)
              << (loop.body1 < 0 ? "ground" : model.bodies[static_cast<size_t>(loop.body1)].name) << " -- "
              << (loop.body2 < 0 ? "ground" : model.bodies[static_cast<size_t>(loop.body2)].name) << '\n';
  for (const Driver& driver : model.drivers)
    std::cout << "  " << std::left << std::setw(20) << driver.name << "driver on "
              << model.joints[static_cast<size_t>(driver.joint)].name << '\n';
  return 0;
}

}  // namespace myriad::cli
