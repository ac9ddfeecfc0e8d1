#pragma once
// Coordinate partitioning at run time (seed 000 eqs. 4-7): the dependent coordinates u from the independent
// ones v, at position level by Newton's method on Phi(q) = 0 (warm-started from the last solution), at velocity
// level by G_u u' = -(G_v v' + Phi_t), at acceleration level by G_u u'' = gamma - G_v v''. Every solve with G_u
// runs block by block in the order of loops/loop_structure.hpp (forward substitution by blocks), so its cost is
// O(nnz(G) + sum of block sizes cubed): linear in the number of loops when loops are small and only coupled
// through shared bodies, as in seed 004's ladder. Host+device, templated on the scalar, no allocation.
#include <cmath>

#include "linalg/dense_lu.hpp"
#include "loops/loop_rows.hpp"

namespace myriad {

// Newton's stopping rule on max |Phi_i| (lengths in m, axis conditions as sines).
constexpr double kProjectionTolerance = 1e-12;
constexpr int kProjectionMaxIterations = 25;

// The coordinate partition an instance integrates with: the compiled one (compiled_partition), or its own after a
// repartition (loops/loop_repartition.hpp: one dense block). Same meaning as the CompiledConstraints fields.
struct PartitionView {
  int n_blocks, largest_block;
  const int* independent;  // n_independent (CompiledConstraints::n_independent never changes)
  const int* dependent;    // m
  const int* block_rows;   // m
  const int* block_start;  // n_blocks + 1
  const int* block_lu;     // n_blocks + 1
  const int* slot_role;    // all slots
};

MYRIAD_HD_INLINE PartitionView compiled_partition(const CompiledModel& model) {
  const CompiledConstraints& c = model.constraints;
  return {c.n_blocks, c.largest_block, c.independent, c.dependent, c.block_rows, c.block_start, c.block_lu,
          c.slot_role};
}

// LU factors of the diagonal blocks of G_u (CompiledConstraints::lu_values entries, m pivots).
template <class S>
struct BlockFactors {
  S* lu;
  int* pivots;
};

// Factors every diagonal block of G_u from the row values in `rows`. False if a block is numerically singular
// (the partition no longer suits the configuration). O(sum of block sizes cubed + nnz).
template <class S>
MYRIAD_HD bool factor_dependent_blocks(const CompiledModel& model, const PartitionView& pv,
                                       const ConstraintRows<S>& rows, BlockFactors<S>& f) {
  const CompiledConstraints& c = model.constraints;
  for (int b = 0; b < pv.n_blocks; ++b) {
    const int start = pv.block_start[b], size = pv.block_start[b + 1] - start;
    S* A = f.lu + pv.block_lu[b];
    for (int i = 0; i < size * size; ++i) A[i] = S(0);
    for (int i = 0; i < size; ++i) {
      const int r = pv.block_rows[start + i];
      const S* g = rows.g + c.row_values[r];
      const int* role = pv.slot_role + c.row_slots[r];
      for (int s = 0; s < c.row_width[r]; ++s)
        if (role[s] >= start && role[s] < start + size) A[i * size + (role[s] - start)] += g[s];
    }
    if (!lu_factor_scalar(size, A, f.pivots + start)) return false;
  }
  return true;
}

// Solves G_u x_u = rhs - G_v x_v block by block: x (nv) holds x_v on entry at the independent coordinates and
// receives x_u at the dependent ones; rhs (m) is indexed by constraint row; scratch (largest block). O(nnz +
// sum of block sizes squared).
template <class S>
MYRIAD_HD void solve_dependent(const CompiledModel& model, const PartitionView& pv, const ConstraintRows<S>& rows,
                               const BlockFactors<S>& f, const S* rhs, S* x, S* scratch) {
  const CompiledConstraints& c = model.constraints;
  for (int b = 0; b < pv.n_blocks; ++b) {
    const int start = pv.block_start[b], size = pv.block_start[b + 1] - start;
    for (int i = 0; i < size; ++i) {
      const int r = pv.block_rows[start + i];
      const S* g = rows.g + c.row_values[r];
      const int* role = pv.slot_role + c.row_slots[r];
      const int* column = c.slot_column + c.row_slots[r];
      S sum = rhs[r];
      for (int s = 0; s < c.row_width[r]; ++s)
        if (role[s] < start) sum -= g[s] * x[column[s]];  // independent, or solved in an earlier block
      scratch[i] = sum;
    }
    lu_solve_scalar(size, f.lu + pv.block_lu[b], f.pivots + start, scratch);
    for (int i = 0; i < size; ++i) x[pv.dependent[start + i]] = scratch[i];
  }
}

// Everything the partitioning steps need besides the tree workspace.
template <class S>
struct PartitionScratch {
  ConstraintRows<S> rows;
  BlockFactors<S> factors;
  PartitionView view;  // the partition in force
  Motion<S>* a0;  // bias accelerations (nb)
  S* rhs;         // (m)
  S* step;        // (nv)
  S* small;       // (largest block)
};

// Newton on Phi(q, t) = 0 over the dependent coordinates of q (nq == nv for loop models; independent entries
// held), from q as given. On success the kinematics in w (at q, with velocities v as passed: only positions
// matter here) and the block factors of G_u belong to the final q. Returns false when Newton does not reach
// kProjectionTolerance within kProjectionMaxIterations or G_u turns singular. O(iterations * (n + nnz + blocks)).
template <class S, class K, class T>
MYRIAD_HD_OUTLINE bool project_positions(const CompiledModel& model, const K& k, const T& t, S* q, const S* v,
                                         TreeWorkspace<S>& w, PartitionScratch<S>& p) {
  const CompiledConstraints& c = model.constraints;
  for (int iteration = 0; iteration <= kProjectionMaxIterations; ++iteration) {
    tree_kinematics(model, k, q, v, w);
    evaluate_constraint_rows(model, k, t, q, w, w.acceleration, p.rows);  // gamma unused here
    double residual = 0.0;
    for (int r = 0; r < c.m; ++r) residual = std::fmax(residual, std::fabs(value_of(p.rows.phi[r])));
    if (!factor_dependent_blocks(model, p.view, p.rows, p.factors)) return false;
    if (residual <= kProjectionTolerance) return true;
    if (iteration == kProjectionMaxIterations || !(residual < 1e6)) return false;
    for (int r = 0; r < c.m; ++r) p.rhs[r] = -p.rows.phi[r];
    for (int i = 0; i < c.n_independent; ++i) p.step[p.view.independent[i]] = S(0);
    solve_dependent(model, p.view, p.rows, p.factors, p.rhs, p.step, p.small);
    for (int i = 0; i < c.m; ++i) q[p.view.dependent[i]] += p.step[p.view.dependent[i]];
  }
  return false;
}

// One Newton correction of the dependent coordinates at q, in scalar S (a Dual seeded on the independent
// coordinates): at a converged q it carries the implicit-function derivatives du/dv = -G_u^-1 G_v exactly.
template <class S, class K, class T>
MYRIAD_HD_OUTLINE bool newton_correction(const CompiledModel& model, const K& k, const T& t, S* q, const S* v,
                                         TreeWorkspace<S>& w, PartitionScratch<S>& p) {
  const CompiledConstraints& c = model.constraints;
  tree_kinematics(model, k, q, v, w);
  evaluate_constraint_rows(model, k, t, q, w, w.acceleration, p.rows);
  if (!factor_dependent_blocks(model, p.view, p.rows, p.factors)) return false;
  for (int r = 0; r < c.m; ++r) p.rhs[r] = -p.rows.phi[r];
  for (int i = 0; i < c.n_independent; ++i) p.step[p.view.independent[i]] = S(0);
  solve_dependent(model, p.view, p.rows, p.factors, p.rhs, p.step, p.small);
  for (int i = 0; i < c.m; ++i) q[p.view.dependent[i]] += p.step[p.view.dependent[i]];
  return true;
}

// Dependent velocities: G_u v_u = -(Phi_t + G_v v_v), with the rows and factors at the current q. O(nnz).
template <class S>
MYRIAD_HD void solve_velocities(const CompiledModel& model, PartitionScratch<S>& p, S* v) {
  for (int r = 0; r < model.constraints.m; ++r) p.rhs[r] = -p.rows.phi_t[r];
  solve_dependent(model, p.view, p.rows, p.factors, p.rhs, v, p.small);
}

// Largest relative condition estimate max_b ||A_b||_1 ||A_b^-1||_1 over the diagonal blocks of G_u, from the
// factors (the inverse's columns by solves): the partition check of seed 000 sec. 4 (Algorithm 1 step 14).
// O(sum of block sizes cubed). Double only.
MYRIAD_HD inline double dependent_condition(const CompiledModel& model, const PartitionView& pv,
                                            const ConstraintRows<double>& rows, const BlockFactors<double>& f,
                                            double* scratch) {
  const CompiledConstraints& c = model.constraints;
  double worst = 0.0;
  for (int b = 0; b < pv.n_blocks; ++b) {
    const int start = pv.block_start[b], size = pv.block_start[b + 1] - start;
    double norm = 0.0, inverse_norm = 0.0;
    for (int j = 0; j < size; ++j) {  // column j of A_b: entries of the rows at dependent position start + j
      double column = 0.0;
      for (int i = 0; i < size; ++i) {
        const int r = pv.block_rows[start + i];
        const double* g = rows.g + c.row_values[r];
        const int* role = pv.slot_role + c.row_slots[r];
        double entry = 0.0;
        for (int s = 0; s < c.row_width[r]; ++s)
          if (role[s] == start + j) entry += g[s];
        column += std::fabs(entry);
      }
      norm = std::fmax(norm, column);
      for (int i = 0; i < size; ++i) scratch[i] = i == j ? 1.0 : 0.0;
      lu_solve_scalar(size, f.lu + pv.block_lu[b], f.pivots + start, scratch);
      double inverse_column = 0.0;
      for (int i = 0; i < size; ++i) inverse_column += std::fabs(scratch[i]);
      inverse_norm = std::fmax(inverse_norm, inverse_column);
    }
    worst = std::fmax(worst, norm * inverse_norm);
  }
  return worst;
}

}  // namespace myriad
