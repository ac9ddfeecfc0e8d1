#pragma once
// Re-choosing the coordinate partition during a run (seed 000 sec. 4 and Algorithm 1 step 14): after each accepted
// step the condition of Phi_u is estimated from its block factors; when it has grown by more than
// kRepartitionGrowth over its value at the last partition, Gauss-Jordan elimination with full pivoting on the
// whole Jacobian G (seed 000 eq. 6) picks new dependent coordinates, which the instance then solves as one dense
// block (the compile-time block structure belongs to the compiled partition). Models that name their independent
// coordinates keep them: the author chose them. Host+device, no allocation.
#include <cmath>

#include "loops/loop_solve.hpp"

namespace myriad {

constexpr double kRepartitionGrowth = 1.25;
constexpr double kPartitionRankTolerance = 1e-10;  // relative to max |G_ij|, as constraints::partition_coordinates

// An instance's own partition arrays (carved only for models without named independent coordinates).
struct OwnedPartition {
  int* independent;  // ndof
  int* dependent;    // m
  int* block_rows;   // m
  int* block_start;  // 2
  int* block_lu;     // 2
  int* slot_role;    // n_slots
  int* role;         // nv
  double* dense;     // m * nv + m: G and the row-pivoted flags
};

// Full-pivoting Gauss-Jordan on G from `rows` (values at the current q); on success `view` describes the new
// partition with one dense block of size m. False when G has numerical rank below m. O(m^2 nv).
MYRIAD_HD inline bool choose_partition(const CompiledModel& model, const ConstraintRows<double>& rows,
                                       OwnedPartition& o, PartitionView& view) {
  const CompiledConstraints& c = model.constraints;
  const int m = c.m, nv = model.nv;
  double* A = o.dense;
  double* row_done = o.dense + m * nv;
  for (int i = 0; i < m * nv; ++i) A[i] = 0.0;
  double largest = 0.0;
  for (int r = 0; r < m; ++r) {
    row_done[r] = 0.0;
    for (int s = 0; s < c.row_width[r]; ++s) {
      A[r * nv + c.slot_column[c.row_slots[r] + s]] += rows.g[c.row_values[r] + s];
    }
  }
  for (int i = 0; i < m * nv; ++i) largest = std::fmax(largest, std::fabs(A[i]));
  for (int j = 0; j < nv; ++j) o.role[j] = -1;
  for (int k = 0; k < m; ++k) {
    int pr = -1, pc = -1;
    double best = 0.0;
    for (int r = 0; r < m; ++r) {
      if (row_done[r] != 0.0) continue;
      for (int j = 0; j < nv; ++j)
        if (o.role[j] < 0 && std::fabs(A[r * nv + j]) > best) {
          best = std::fabs(A[r * nv + j]);
          pr = r;
          pc = j;
        }
    }
    if (!(best > kPartitionRankTolerance * largest)) return false;
    row_done[pr] = 1.0;
    o.role[pc] = k;
    o.dependent[k] = pc;
    o.block_rows[k] = pr;
    const double pivot = A[pr * nv + pc];
    for (int j = 0; j < nv; ++j) A[pr * nv + j] /= pivot;
    for (int r = 0; r < m; ++r) {
      if (r == pr) continue;
      const double factor = A[r * nv + pc];
      if (factor == 0.0) continue;
      for (int j = 0; j < nv; ++j) A[r * nv + j] -= factor * A[pr * nv + j];
    }
  }
  int count = 0;
  for (int j = 0; j < nv; ++j)
    if (o.role[j] < 0) {
      o.independent[count] = j;
      o.role[j] = -1 - count;
      ++count;
    }
  if (count != c.n_independent) return false;
  for (int s = 0; s < c.n_slots; ++s) o.slot_role[s] = o.role[c.slot_column[s]];
  o.block_start[0] = 0;
  o.block_start[1] = m;
  o.block_lu[0] = 0;
  o.block_lu[1] = m * m;
  view = {1, m, o.independent, o.dependent, o.block_rows, o.block_start, o.block_lu, o.slot_role};
  return true;
}

}  // namespace myriad
