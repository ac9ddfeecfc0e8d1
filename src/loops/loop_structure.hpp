#pragma once
// Compile-time structure of a model's loop-closure and driving constraints for the fast path
// (model/compiled_model.hpp, CompiledConstraints): the structural columns of each Jacobian row, the coordinate
// partition (seed 000 eq. 6, or the coordinates the model names) and the order in which the dependent
// coordinates can be solved block by block.
//
// Blocks. The dependent part G_u of the Jacobian is permuted to block lower-triangular form: a perfect matching of
// rows to dependent columns (augmenting paths) turns G_u's sparsity into a directed graph on rows, whose strongly
// connected components (Tarjan), in dependency order, are the blocks. A single loop is one block; the coupled
// cells of seed 004's ladder become one small block per cell, each solved from the cells before it: the coupled-
// loop recursion of seed 004 sec. 4.3 found from the sparsity alone. Host-only; allocates.
#include <vector>

#include "model/compiled_model.hpp"
#include "model/model.hpp"

namespace myriad::loops {

// Fills compiled.constraints for `model` (parameters applied) whose joints, bodies and time functions are
// already laid out in `compiled`; `driver_functions` holds the compiled time-function index of each driver
// and `loop_constants` the offset of each loop's constants block. Independent coordinates:
// Model::independent, or when the model names none, those partition_coordinates picks on the Jacobian at the
// assembled initial state. Throws ModelError (model.source_file, the JSON pointer of the responsible loop,
// driver, joint or `independent`, and the reason with its numbers) when capacities are exceeded, a loop joins
// quaternion joints (the fast path's loop code needs q == v coordinates), assembly fails
// (constraints/assembly_diagnosis.hpp names the loop with the largest residual or the first dependent one),
// or the named independent coordinates do not leave a square non-singular G_u. Models with more than 128
// equations that name their independent coordinates are not assembled here (dense, O(m^3)); their instances
// assemble themselves.
void build_loop_structure(const Model& model, const std::vector<int>& loop_constants,
                          const std::vector<int>& driver_functions, CompiledModel& compiled);

// Largest dependent block for which the reduction method is used; a larger one means the loops are coupled
// beyond what a per-cell elimination helps with, and the standard method (constraint forces) is used.
constexpr int kReductionLargestBlock = 24;

const char* loop_method_name(int method);

}  // namespace myriad::loops
