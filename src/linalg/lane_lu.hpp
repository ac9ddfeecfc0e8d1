#pragma once
// The LU factorization and solve of linalg/dense_lu.hpp done cooperatively by a group of `lanes` workers (a
// CUDA warp: kernels/warp_lu.cuh; a sequential emulation here), with results equal to lu_factor / lu_solve
// bit for bit: the same pivot rows, the same factors, the same solution and the same singular / non-finite
// verdict, for any number of lanes.
//
// Scheme. The n x n row-major matrix is shared (global memory on the device); row r belongs to lane
// r % lanes. Each phase below is a per-lane step function (this lane's share of the phase's work); a driver
// runs every lane's step of one phase, then a barrier (__syncwarp on the device; the end of the loop over
// lanes in the emulation), then the next phase. Reductions across the lanes combine per-lane partials with an
// operator that is commutative and associative, so a warp's butterfly and the emulation's left fold agree.
//   factor: max|A_ij| (lane_max_entry, combine_max_entry) -> threshold (lu_singularity_threshold_from_max);
//           then for k = 0..n-1: pivot search (lane_pivot_candidate, better_pivot) and verdict
//           (pivot_accepted) | row swap, columns split across lanes (lane_swap_rows) | elimination of the
//           lane's rows below k (lane_eliminate).
//   solve:  P b by one lane (lane_permute) | forward substitution by columns, j = 0..n-2
//           (lane_forward_column) | back substitution by columns, j = n..1 (lane_backward_column).
//
// Why bit-identical. Every matrix and vector element goes through the same floating-point operations, on the
// same operands, in the same order as in dense_lu.hpp; only which worker performs them changes.
// * The threshold: max|A_ij| is exact in any order, and its product with 16 n eps is formed by the same
//   function as lu_singularity_threshold's. A non-finite entry enters the max as +infinity and yields a
//   negative threshold, as lu_singularity_threshold returns for it.
// * The pivot: lu_factor takes the first strict maximum of |A_ik| over i = k..n-1, starting from row k.
//   Ordering candidates by "larger magnitude, then smaller row" selects the same row, and a maximum under a
//   total order depends neither on the grouping nor on the order of the comparisons. NaN follows lu_factor
//   too (entries can become NaN during elimination by overflow even though A was finite): a NaN |A_kk| is
//   kept (no magnitude compares greater than it, and the verdict then rejects it), a NaN below row k is never
//   chosen; so better_pivot ranks a NaN magnitude above every number and lane_pivot_candidate drops NaN
//   below row k.
// * The elimination: row i's multiplier is A_ik * (1 / A_kk) and its update A_ij -= multiplier * A_kj, j > k,
//   skipped when the multiplier is exactly zero, as in lu_factor; rows are independent within a step.
// * The solve: lu_solve computes y_i = b_i - L_i0 y_0 - L_i1 y_1 - ... (ascending j) and x_i = (y_i - U_i,n-1
//   x_n-1 - ... - U_i,i+1 x_i+1) / U_ii (descending j; see lu_solve_impl), which is exactly the order in
//   which the column-oriented substitutions subtract from b_i. Doubles are kept in 64-bit registers on every
//   target Myriad builds for, so keeping a partial sum in a register (lu_solve) or in b (here) rounds the
//   same way.
// Contraction: a compiler may fuse `x -= m * y` into one multiply-add, which rounds once instead of twice.
// The claim is for the two compiled alike: the emulation against the host lu_factor / lu_solve (the host
// build targets plain x86-64, which has no fused multiply-add), the warp LU against lu_factor / lu_solve
// compiled by nvcc (which fuses the same expressions in both); not the device against the host.
//
// Cost: the same flops as lu_factor (2n^3/3) and lu_solve (2n^2), spread over the lanes by rows (the swap by
// columns); the factorization has at most 3n + 1 barriers and n + 1 reductions of log2(lanes) steps, the
// solve 2n + 1. Host and device, no allocation, no exceptions. Only double (lu_factor_scalar's Dual path
// has no lane form).
#include <cmath>

#include "core/hd.hpp"
#include "core/scalar.hpp"
#include "linalg/dense_lu.hpp"

namespace myriad {

// The first row r >= start that belongs to `lane` (r % lanes == lane). O(1).
MYRIAD_HD_INLINE int lane_first_row(int start, int lane, int lanes) {
  return start + (lane - start % lanes + lanes) % lanes;
}

// ---- singularity threshold ----

// This lane's partial of max_ij |A_ij| over its rows: +infinity if one of its entries is not finite (a NaN
// magnitude would be lost by fmax), 0 if it owns no row. O(n^2 / lanes).
MYRIAD_HD_INLINE double lane_max_entry(int n, const double* A, int lane, int lanes) {
  double max_entry = 0.0;
  for (int r = lane_first_row(0, lane, lanes); r < n; r += lanes) {
    for (int j = 0; j < n; ++j) {
      const double magnitude = std::fabs(A[r * n + j]);
      if (!is_finite(magnitude)) return HUGE_VAL;
      max_entry = std::fmax(max_entry, magnitude);
    }
  }
  return max_entry;
}

// The reduction operator of lane_max_entry's partials (exact, commutative, associative). The reduced value
// goes to lu_singularity_threshold_from_max (dense_lu.hpp), which gives lu_singularity_threshold's value.
// O(1).
MYRIAD_HD_INLINE double combine_max_entry(double a, double b) { return std::fmax(a, b); }

// ---- pivot search ----

// A pivot candidate for column k: |A_row,k| and its row.
struct LanePivot {
  double magnitude;
  int row;
};

// The row of the candidate {-1, kNoPivotRow} that a lane owning no row at or below k offers: it ranks below
// every real candidate (magnitude >= 0 or NaN) and is the identity of better_pivot.
constexpr int kNoPivotRow = 0x7fffffff;

// The reduction operator of the pivot search: the larger magnitude, then the smaller row; a NaN magnitude
// (only row k's can take part) ranks above every number (see "Why bit-identical" above). A total order on
// candidates with distinct rows, so commutative and associative: every lane of a butterfly ends with the
// same candidate. O(1).
MYRIAD_HD_INLINE LanePivot better_pivot(LanePivot a, LanePivot b) {
  const bool a_nan = !(a.magnitude == a.magnitude);
  const bool b_nan = !(b.magnitude == b.magnitude);
  if (a_nan != b_nan) return a_nan ? a : b;
  if (!a_nan && a.magnitude != b.magnitude) return a.magnitude > b.magnitude ? a : b;
  return a.row <= b.row ? a : b;
}

// The best pivot for column k among this lane's rows r >= k ({-1, kNoPivotRow} if it owns none). NaN
// magnitudes below row k are left out: lu_factor never picks them. O(n / lanes).
MYRIAD_HD_INLINE LanePivot lane_pivot_candidate(int n, const double* A, int k, int lane, int lanes) {
  LanePivot best{-1.0, kNoPivotRow};
  for (int r = lane_first_row(k, lane, lanes); r < n; r += lanes) {
    const double magnitude = std::fabs(A[r * n + k]);
    if (r > k && !(magnitude == magnitude)) continue;
    best = better_pivot(best, LanePivot{magnitude, r});
  }
  return best;
}

// lu_factor's verdict on the reduced pivot of a column: false (numerically singular or NaN) stops the
// factorization. O(1).
MYRIAD_HD_INLINE bool pivot_accepted(LanePivot pivot, double threshold) {
  return pivot.magnitude > threshold;
}

// ---- elimination step k ----

// This lane's columns j = lane, lane + lanes, ... of the exchange of rows k and pivot_row (call only when
// they differ). O(n / lanes).
MYRIAD_HD_INLINE void lane_swap_rows(int n, double* A, int k, int pivot_row, int lane, int lanes) {
  for (int j = lane; j < n; j += lanes) {
    const double swap = A[k * n + j];
    A[k * n + j] = A[pivot_row * n + j];
    A[pivot_row * n + j] = swap;
  }
}

// Elimination below pivot k for this lane's rows i > k: the multiplier L_ik = A_ik * (1 / A_kk), stored in
// place of A_ik, and A_ij -= L_ik A_kj for j > k unless the multiplier is exactly zero. Reads row k, which no
// lane writes in this phase. O(n^2 / lanes).
MYRIAD_HD_INLINE void lane_eliminate(int n, double* A, int k, int lane, int lanes) {
  const double inverse_pivot = 1.0 / A[k * n + k];
  for (int i = lane_first_row(k + 1, lane, lanes); i < n; i += lanes) {
    const double multiplier = A[i * n + k] * inverse_pivot;
    A[i * n + k] = multiplier;
    if (multiplier == 0.0) continue;
    for (int j = k + 1; j < n; ++j) A[i * n + j] -= multiplier * A[k * n + j];
  }
}

// ---- solve ----

// P b: lane 0 applies the row exchanges in the order they were made (sequential: a later exchange can move
// an entry an earlier one moved); the other lanes do nothing. O(n) on lane 0.
MYRIAD_HD_INLINE void lane_permute(int n, const double* pivots, double* b, int lane) {
  if (lane == 0) detail::lu_apply_pivots(n, pivots, b);
}

// Column j of the forward substitution L y = P b (j = 0..n-2, in order; y_j = b_j is final when it starts):
// b_r -= L_rj y_j for this lane's rows r > j. O(n / lanes).
MYRIAD_HD_INLINE void lane_forward_column(int n, const double* LU, double* b, int j, int lane, int lanes) {
  const double y_j = b[j];
  for (int r = lane_first_row(j + 1, lane, lanes); r < n; r += lanes) b[r] -= LU[r * n + j] * y_j;
}

// Step j of the back substitution U x = y (j = n, n-1, ..., 1, in order; x_j = b_j is final when it starts,
// for j < n): b_r -= U_rj x_j for this lane's rows r < j, then the owner of row j - 1, whose last term that
// was, divides it by U_j-1,j-1, making x_j-1 final. O(n / lanes).
MYRIAD_HD_INLINE void lane_backward_column(int n, const double* LU, double* b, int j, int lane, int lanes) {
  if (j < n) {
    const double x_j = b[j];
    for (int r = lane_first_row(0, lane, lanes); r < j; r += lanes) b[r] -= LU[r * n + j] * x_j;
  }
  const int last = j - 1;
  if (last >= 0 && last % lanes == lane) b[last] = b[last] / LU[last * n + last];
}

// ---- sequential emulation of a group of `lanes` (>= 1) ----

// lu_factor(n, A, pivots) done phase by phase as a group of `lanes` would: same results bit for bit,
// including the false return (numerically singular or non-finite A) and the partly overwritten A and pivots
// it leaves. Cost: O(n^3), O(1) extra memory.
MYRIAD_HD_INLINE bool lane_lu_factor_emulated(int n, double* A, double* pivots, int lanes) {
  double max_entry = 0.0;
  for (int lane = 0; lane < lanes; ++lane)
    max_entry = combine_max_entry(max_entry, lane_max_entry(n, A, lane, lanes));
  const double threshold = lu_singularity_threshold_from_max(n, max_entry);
  if (threshold < 0.0) return false;
  for (int k = 0; k < n; ++k) {
    LanePivot pivot{-1.0, kNoPivotRow};
    for (int lane = 0; lane < lanes; ++lane)
      pivot = better_pivot(pivot, lane_pivot_candidate(n, A, k, lane, lanes));
    pivots[k] = static_cast<double>(pivot.row);
    if (!pivot_accepted(pivot, threshold)) return false;
    if (pivot.row != k) {
      for (int lane = 0; lane < lanes; ++lane) lane_swap_rows(n, A, k, pivot.row, lane, lanes);
    }
    for (int lane = 0; lane < lanes; ++lane) lane_eliminate(n, A, k, lane, lanes);
  }
  return true;
}

// lu_solve(n, LU, pivots, b) done phase by phase as a group of `lanes` would, with the factors and pivots of
// a successful lu_factor or lane_lu_factor_emulated: same x bit for bit. Cost: O(n^2).
MYRIAD_HD_INLINE void lane_lu_solve_emulated(int n, const double* LU, const double* pivots, double* b,
                                             int lanes) {
  for (int lane = 0; lane < lanes; ++lane) lane_permute(n, pivots, b, lane);
  for (int j = 0; j + 1 < n; ++j) {
    for (int lane = 0; lane < lanes; ++lane) lane_forward_column(n, LU, b, j, lane, lanes);
  }
  for (int j = n; j >= 1; --j) {
    for (int lane = 0; lane < lanes; ++lane) lane_backward_column(n, LU, b, j, lane, lanes);
  }
}

}  // namespace myriad
