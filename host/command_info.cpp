// `myriad info MODEL`: what the model is made of.
#include <iomanip>
#include <iostream>

#include <string>
#include <vector>

#include "backend.hpp"
#include "loops/loop_structure.hpp"
#include "commands.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"

namespace myriad::cli {

int run_devices() {
  std::cout << "backends:\n";
  for (const std::string& line : describe_backends()) std::cout << "  " << line << '\n';
  return 0;
}

int run_info(const std::string& model_path) {
  const Model model = load_model_file(model_path);
  const auto compiled = compile(model);
  std::cout << "model: " << model.name << " (" << model_path << ")\n";
  if (!model.description.empty()) std::cout << "  " << model.description << '\n';
  std::cout << "bodies: " << model.bodies.size() << "  joints: " << model.joints.size()
            << "  coordinates: nq = " << compiled->nq << ", nv = " << compiled->nv
            << "  degrees of freedom: " << compiled->nv - compiled->constraints.m << "  constants per instance: " << compiled->n_constants
            << "\n\nbodies:\n";
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
    const char* type = f.type == ForceType::tsda ? "tsda" : (f.type == ForceType::rsda ? "rsda" : "joint_actuator");
    std::cout << "  " << std::left << std::setw(20) << f.name << type << '\n';
  }
  std::cout << "\nparameters: " << model.parameters.size() << '\n';
  for (const Parameter& p : model.parameters)
    std::cout << "  " << std::left << std::setw(20) << p.name << std::setw(14) << p.value << p.unit
              << (p.description.empty() ? "" : "  " + p.description) << '\n';
  std::cout << "\noutputs: " << model.outputs.size() << '\n';
  for (const Output& o : model.outputs) std::cout << "  " << o.name << '\n';
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
