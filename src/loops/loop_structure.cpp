#include "loops/loop_structure.hpp"

#include <algorithm>
#include <functional>
#include <string>

#include "constraints/assembly.hpp"
#include "constraints/assembly_diagnosis.hpp"
#include "constraints/constraint_equations.hpp"
#include "model/model_error.hpp"
#include "model/model_pointers.hpp"

namespace myriad::loops {
namespace {

// Models with at most this many equations are assembled densely at compile time whatever their partition.
constexpr int kDenseAssemblyLimit = 128;

// Everything refused here comes from the model file: the message names it and the responsible entry.
[[noreturn]] void fail(const Model& model, const std::string& pointer, const std::string& reason) {
  throw ModelError(model.source_file, pointer, reason);
}

// Where a model's degrees of freedom are set: the named independent coordinates, else the joints.
std::string dof_pointer(const Model& model) { return model.independent.empty() ? "/joints" : "/independent"; }

// Velocity columns of the joints from tree body `body` up to (not including) `stop` (-1: to the root), in walk
// order, with the bodies visited.
void path_columns(const CompiledModel& c, int body, int stop, std::vector<int>& columns, std::vector<int>* bodies) {
  for (int b = body; b >= 0 && b != stop; b = c.joints[b].parent) {
    if (bodies) bodies->push_back(b);
    for (int a = 0; a < c.joints[b].nv; ++a) columns.push_back(c.joints[b].v_index + a);
  }
}

// Maximum matching of rows to dependent columns by augmenting paths (Kuhn). O(m * nnz). Returns the first row
// left unmatched, or -1 when the matching is perfect.
int perfect_matching(int m, const std::vector<std::vector<int>>& row_deps, std::vector<int>& row_of_dep) {
  row_of_dep.assign(static_cast<size_t>(m), -1);
  std::vector<int> seen(static_cast<size_t>(m), -1);
  std::function<bool(int, int)> augment = [&](int row, int stamp) {
    for (int d : row_deps[static_cast<size_t>(row)]) {
      if (seen[static_cast<size_t>(d)] == stamp) continue;
      seen[static_cast<size_t>(d)] = stamp;
      if (row_of_dep[static_cast<size_t>(d)] < 0 || augment(row_of_dep[static_cast<size_t>(d)], stamp)) {
        row_of_dep[static_cast<size_t>(d)] = row;
        return true;
      }
    }
    return false;
  };
  for (int r = 0; r < m; ++r)
    if (!augment(r, r)) return r;
  return -1;
}

// Strongly connected components of the graph row -> rows it needs first, in an order where every component
// comes after those it needs (Tarjan emits sinks first). Iterative, so deep ladders cannot overflow the stack.
std::vector<std::vector<int>> components_in_solve_order(const std::vector<std::vector<int>>& needs) {
  const int n = static_cast<int>(needs.size());
  const size_t count = static_cast<size_t>(n);
  std::vector<int> index(count, -1), low(count, 0), on_stack(count, 0);
  std::vector<int> stack;
  std::vector<std::vector<int>> components;
  int counter = 0;
  struct Frame {
    int node;
    size_t next;
  };
  for (int root = 0; root < n; ++root) {
    if (index[static_cast<size_t>(root)] >= 0) continue;
    std::vector<Frame> call{{root, 0}};
    index[static_cast<size_t>(root)] = low[static_cast<size_t>(root)] = counter++;
    stack.push_back(root);
    on_stack[static_cast<size_t>(root)] = 1;
    while (!call.empty()) {
      Frame& f = call.back();
      const auto& out = needs[static_cast<size_t>(f.node)];
      if (f.next < out.size()) {
        const int w = out[f.next++];
        if (index[static_cast<size_t>(w)] < 0) {
          index[static_cast<size_t>(w)] = low[static_cast<size_t>(w)] = counter++;
          stack.push_back(w);
          on_stack[static_cast<size_t>(w)] = 1;
          call.push_back({w, 0});
        } else if (on_stack[static_cast<size_t>(w)]) {
          low[static_cast<size_t>(f.node)] = std::min(low[static_cast<size_t>(f.node)], index[static_cast<size_t>(w)]);
        }
        continue;
      }
      const int v = f.node;
      call.pop_back();
      if (!call.empty())
        low[static_cast<size_t>(call.back().node)] =
            std::min(low[static_cast<size_t>(call.back().node)], low[static_cast<size_t>(v)]);
      if (low[static_cast<size_t>(v)] == index[static_cast<size_t>(v)]) {
        std::vector<int> component;
        int w = -1;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[static_cast<size_t>(w)] = 0;
          component.push_back(w);
        } while (w != v);
        std::sort(component.begin(), component.end());
        components.push_back(component);
      }
    }
  }
  return components;
}

}  // namespace

const char* loop_method_name(int method) {
  switch (method) {
    case kLoopMethodReduction: return "recursive coordinate reduction";
    case kLoopMethodStandard: return "standard O(n) with constraint forces";
    default: return "none (tree)";
  }
}

void build_loop_structure(const Model& model, const std::vector<int>& loop_constants,
                          const std::vector<int>& driver_functions, CompiledModel& compiled) {
  CompiledConstraints& c = compiled.constraints;
  c = CompiledConstraints{};
  if (model.loops.empty() && model.drivers.empty()) return;
  if (compiled.has_quaternions) {
    size_t j = 0;
    while (model.joints[j].type != JointType::spherical && model.joints[j].type != JointType::free) ++j;
    fail(model, joint_pointer(model, static_cast<int>(j)),
         std::string("joint '") + model.joints[j].name + "' is " + joint_type_name(model.joints[j].type) +
             ", and the model has loops or drivers: their code needs joints whose coordinates are their own "
             "rates (use a universal + revolute chain instead)");
  }
  if (model.loops.size() > static_cast<size_t>(kMaxLoops))
    fail(model, "/loops",
         std::to_string(model.loops.size()) + " loops, more than the " + std::to_string(kMaxLoops) +
             " a model may have");
  if (model.drivers.size() > static_cast<size_t>(kMaxDrivers))
    fail(model, "/drivers",
         std::to_string(model.drivers.size()) + " drivers, more than the " + std::to_string(kMaxDrivers) +
             " a model may have");
  const int m = constraints::constraint_count(model);
  const int nv = compiled.nv;
  if (m > kMaxConstraints) {
    const std::vector<std::string> pointers = constraints::constraint_pointers(model);
    fail(model, pointers[static_cast<size_t>(kMaxConstraints)],
         "the loops and drivers have " + std::to_string(m) + " constraint equations, more than the " +
             std::to_string(kMaxConstraints) + " a model may have (this entry passes the limit)");
  }
  c.m = m;
  c.n_loops = static_cast<int>(model.loops.size());
  c.n_drivers = static_cast<int>(model.drivers.size());
  c.n_rods = 0;
  for (const Loop& loop : model.loops) c.n_rods += loop.type == LoopType::rod ? 1 : 0;
  c.rod_inertia = c.n_rods > 0 ? static_cast<int>(model.rod_inertia) : 0;

  // Structural columns, loop by loop (shared by the loop's rows), then one per driver.
  std::vector<int> slots;
  const auto fail_slots = [&](const std::string& pointer) {
    fail(model, pointer,
         "the loops' Jacobian rows have more than " + std::to_string(kMaxConstraintSlots) +
             " structural columns in all (each loop's count is the joint coordinates on its two paths to the "
             "root; this entry passes the limit)");
  };
  std::vector<std::vector<int>> row_columns(static_cast<size_t>(m));
  int row = 0, values = 0;
  auto tree = [&](int body) { return body < 0 ? -1 : compiled.tree_body[body]; };
  for (size_t l = 0; l < model.loops.size(); ++l) {
    const Loop& loop = model.loops[l];
    CompiledLoop& cl = c.loops[l];
    cl.type = static_cast<int>(loop.type);
    cl.body1 = tree(loop.body1);
    cl.body2 = tree(loop.body2);
    cl.constants = loop_constants[l];
    cl.row = row;
    cl.rows = loop_equation_count(loop.type);
    std::vector<int> columns, path1;
    path_columns(compiled, cl.body1, -1, columns, &path1);
    // The lowest body of path 2 that path 1 also visits.
    int lca = -1;
    for (int b = cl.body2; b >= 0; b = compiled.joints[b].parent)
      if (std::find(path1.begin(), path1.end(), b) != path1.end()) {
        lca = b;
        break;
      }
    cl.path1_slots = static_cast<int>(columns.size());
    int lca_slot = static_cast<int>(columns.size());
    {
      int offset = 0;
      for (int b : path1) {
        if (b == lca) lca_slot = offset;
        offset += compiled.joints[b].nv;
      }
    }
    path_columns(compiled, cl.body2, lca, columns, nullptr);
    cl.slot_start = static_cast<int>(slots.size());
    cl.slots = static_cast<int>(columns.size());
    cl.lca = lca;
    cl.lca_slot = lca_slot;
    slots.insert(slots.end(), columns.begin(), columns.end());
    if (slots.size() > static_cast<size_t>(kMaxConstraintSlots))
      fail_slots(loop_pointer(model, static_cast<int>(l)));
    for (int r = 0; r < cl.rows; ++r, ++row) {
      c.row_slots[row] = cl.slot_start;
      c.row_width[row] = cl.slots;
      c.row_values[row] = values;
      values += cl.slots;
      row_columns[static_cast<size_t>(row)] = columns;
    }
  }
  for (size_t d = 0; d < model.drivers.size(); ++d, ++row) {
    const Driver& driver = model.drivers[d];
    CompiledDriver& cd = c.drivers[d];
    cd.v_index = compiled.joints[driver.joint].v_index + driver.index;
    cd.time_function = driver_functions[d];
    cd.row = row;
    cd.slot_start = static_cast<int>(slots.size());
    slots.push_back(cd.v_index);
    if (slots.size() > static_cast<size_t>(kMaxConstraintSlots))
      fail_slots(driver_pointer(static_cast<int>(d)));
    c.row_slots[row] = cd.slot_start;
    c.row_width[row] = 1;
    c.row_values[row] = values++;
    row_columns[static_cast<size_t>(row)] = {cd.v_index};
  }
  std::copy(slots.begin(), slots.end(), c.slot_column);
  c.n_slots = static_cast<int>(slots.size());
  c.n_values = values;

  // Partition: named, or chosen by full pivoting at the nominal assembled state. The dense assembly also
  // validates the nominal model with a precise message; for large models that name their coordinates it is
  // skipped (it is O(m^3): 90 s for the 1024-equation ladder) and each instance's own block-wise Newton reports
  // projection_failed instead.
  c.named_independent = model.independent.empty() ? 0 : 1;
  std::vector<int> independent;
  if (!c.named_independent || m <= kDenseAssemblyLimit) {
    const constraints::AssemblyResult assembly = constraints::assemble(model);
    if (assembly.status != constraints::AssemblyStatus::ok) {
      const constraints::AssemblyBlame blame = constraints::blame_assembly_failure(model, 0.0, assembly);
      fail(model, blame.pointer,
           "the model does not assemble at its initial state (" +
               std::string(constraints::assembly_status_name(assembly.status)) + "): " + assembly.message +
               blame.detail);
    }
    independent = assembly.independent;
  } else {
    for (const IndependentCoordinate& named : model.independent)
      independent.push_back(compiled.joints[named.joint].v_index + named.index);
  }
  std::sort(independent.begin(), independent.end());
  if (std::adjacent_find(independent.begin(), independent.end()) != independent.end())
    fail(model, "/independent", "an independent coordinate is named twice");
  if (static_cast<int>(independent.size()) > kMaxIndependent)
    fail(model, dof_pointer(model),
         std::to_string(independent.size()) +
             " degrees of freedom (independent coordinates), more than the " +
             std::to_string(kMaxIndependent) + " a model with loops or drivers may have");
  if (static_cast<int>(independent.size()) != nv - m)
    fail(model, dof_pointer(model),
         std::to_string(independent.size()) + " independent coordinates leave " +
             std::to_string(nv - static_cast<int>(independent.size())) + " dependent ones for " +
             std::to_string(m) + " constraint equations (nv = " + std::to_string(nv) + ")");
  c.n_independent = static_cast<int>(independent.size());
  std::vector<int> role(static_cast<size_t>(nv), 0), dependent_columns;
  for (int i = 0; i < c.n_independent; ++i) {
    c.independent[i] = independent[static_cast<size_t>(i)];
    role[static_cast<size_t>(independent[static_cast<size_t>(i)])] = -1 - i;
  }
  std::vector<int> dep_position(static_cast<size_t>(nv), -1);
  for (int v = 0; v < nv; ++v)
    if (role[static_cast<size_t>(v)] == 0) {
      dep_position[static_cast<size_t>(v)] = static_cast<int>(dependent_columns.size());
      dependent_columns.push_back(v);
    }

  // Block lower-triangular order of G_u.
  std::vector<std::vector<int>> row_deps(static_cast<size_t>(m));
  for (int r = 0; r < m; ++r)
    for (int col : row_columns[static_cast<size_t>(r)])
      if (dep_position[static_cast<size_t>(col)] >= 0)
        row_deps[static_cast<size_t>(r)].push_back(dep_position[static_cast<size_t>(col)]);
  std::vector<int> row_of_dep;
  const int unmatched = perfect_matching(m, row_deps, row_of_dep);
  if (unmatched >= 0)
    fail(model, dof_pointer(model),
         "the dependent coordinates cannot be matched to the constraint equations: " +
             constraints::constraint_labels(model)[static_cast<size_t>(unmatched)] + " (" +
             constraints::constraint_pointers(model)[static_cast<size_t>(unmatched)] +
             ") has no dependent coordinate left to solve for (name other independent coordinates)");
  std::vector<std::vector<int>> needs(static_cast<size_t>(m));
  for (int r = 0; r < m; ++r)
    for (int d : row_deps[static_cast<size_t>(r)]) {
      const int other = row_of_dep[static_cast<size_t>(d)];
      if (other != r) needs[static_cast<size_t>(r)].push_back(other);
    }
  const std::vector<std::vector<int>> blocks = components_in_solve_order(needs);
  std::vector<int> dep_of_row(static_cast<size_t>(m));
  for (int d = 0; d < m; ++d) dep_of_row[static_cast<size_t>(row_of_dep[static_cast<size_t>(d)])] = d;
  int position = 0, lu = 0;
  c.n_blocks = static_cast<int>(blocks.size());
  c.largest_block = 0;
  for (size_t b = 0; b < blocks.size(); ++b) {
    c.block_start[b] = position;
    c.block_lu[b] = lu;
    const int size = static_cast<int>(blocks[b].size());
    lu += size * size;
    c.largest_block = std::max(c.largest_block, size);
    for (int r : blocks[b]) {
      const int column = dependent_columns[static_cast<size_t>(dep_of_row[static_cast<size_t>(r)])];
      c.block_rows[position] = r;
      c.dependent[position] = column;
      role[static_cast<size_t>(column)] = position;
      ++position;
    }
  }
  c.block_start[blocks.size()] = position;
  c.block_lu[blocks.size()] = lu;
  c.lu_values = lu;
  for (int v = 0; v < nv; ++v) c.role_of_column[v] = role[static_cast<size_t>(v)];
  for (size_t s = 0; s < slots.size(); ++s) c.slot_role[s] = role[static_cast<size_t>(slots[s])];
  // Rods couple their two bodies' accelerations through the lumped inertia, which the articulated-body
  // recursions of the standard method cannot take; the reduction adds it to Kane's equations.
  if (c.n_rods > 0 && c.largest_block > kReductionLargestBlock) {
    size_t rod = 0;
    while (model.loops[rod].type != LoopType::rod) ++rod;
    fail(model, loop_pointer(model, static_cast<int>(rod)),
         "rod '" + model.loops[rod].name + "' in a model whose loops couple " +
             std::to_string(c.largest_block) + " dependent coordinates in one block; rods need the " +
             "reduction method, which takes blocks of up to " + std::to_string(kReductionLargestBlock));
  }
  c.method = c.largest_block <= kReductionLargestBlock ? kLoopMethodReduction : kLoopMethodStandard;
}

}  // namespace myriad::loops
