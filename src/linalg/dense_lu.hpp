#pragma once
// LU factorization with partial pivoting of a small dense n x n row-major matrix, in place, and the solve
// with its factors (Golub & Van Loan, Matrix Computations, 4th ed., Algorithms 3.4.1 and 3.4.2, "gaxpy-free"
// outer-product form). Host and device, no allocation, no exceptions. Meant for the iteration matrices of the
// Rosenbrock integrators (n = degrees of freedom, tens at most); larger systems want a blocked library LU.
//
// Singularity criterion. Gaussian elimination with partial pivoting is backward stable: the computed factors
// are the exact factors of A + E with |E| <= c n u |L||U| entrywise (u = 2^-53; Golub & Van Loan, Theorem
// 3.4.2), so a pivot of magnitude comparable to n u max|A| is indistinguishable from zero: A is then within a
// relative perturbation of order n u of a singular matrix, and the solve would amplify the rounding errors of
// every right-hand side by 1/pivot. lu_factor therefore reports "numerically singular" when a pivot p has
//     !(|p| > kLuSingularityFactor * n * eps * max_ij |A_ij|),   eps = 2^-52, kLuSingularityFactor = 16,
// the max taken over the matrix as given (before elimination). The negated form also rejects a NaN pivot, and
// an exactly zero matrix (max|A| = 0) fails at its first pivot. A matrix with a non-finite entry is rejected
// before elimination. The threshold is 1.4e-14 max|A| for n = 4 and 1.4e-13 max|A| for n = 40.
// Why 16: for matrices that are singular in exact arithmetic (random integer matrices with one row the sum of
// two others, n = 2..40) the rounding-level last pivot measured below 0.06 n eps max|A| in the median, below
// 4.4 n eps max|A| in 99% and below 37 n eps max|A| in 99.9% of cases, while the smallest pivot of random
// regular matrices was above 1e10 n eps max|A| in 99.9% of cases; 16 catches all but about 0.2% of the former
// and none of the latter. A pivot test is not a rank-revealing factorization: those rare exactly singular
// matrices whose last pivot rounds above the threshold come out "regular" with a condition number of order
// 1/eps, and their solves are finite but meaningless (the Rosenbrock integrators' error estimates reject such
// steps). The criterion is scale-invariant (multiplying A by a non-zero factor changes nothing) but not
// row-scaling invariant: a regular matrix whose rows differ in magnitude by more than about 1e12 is reported
// singular; scale its rows first if such a matrix is expected.
#include <cmath>

#include "core/hd.hpp"
#include "core/scalar.hpp"

namespace myriad {

// Multiple of n * eps * max|A| below which a pivot counts as zero (see the criterion above).
constexpr double kLuSingularityFactor = 16.0;

// The threshold of the criterion above for an n x n matrix whose largest entry magnitude is max_entry; negative
// if max_entry is not finite (so a caller that reduces max|A_ij| in pieces, linalg/lane_lu.hpp, can carry a
// non-finite entry as +infinity). O(1).
MYRIAD_HD_INLINE double lu_singularity_threshold_from_max(int n, double max_entry) {
  if (!is_finite(max_entry)) return -1.0;
  return kLuSingularityFactor * static_cast<double>(n) * 2.220446049250313e-16 * max_entry;
}

// The threshold of the criterion above for the n x n matrix A as given; negative if A has a non-finite entry.
// O(n^2).
template <class S>
MYRIAD_HD double lu_singularity_threshold(int n, const S* A) {
  double max_entry = 0.0;
  for (int i = 0; i < n * n; ++i) {
    const double magnitude = std::fabs(value_of(A[i]));
    if (!is_finite(magnitude)) return -1.0;
    max_entry = std::fmax(max_entry, magnitude);
  }
  return lu_singularity_threshold_from_max(n, max_entry);
}

namespace detail {

// Shared body of the lu_factor overloads; Index is int or double (a pivot row index stored exactly in a
// double, for callers whose only scratch is an array of doubles). With `columns` (n Index values of scratch) each
// step first lists the columns where the pivot row is not exactly zero and updates only those (lu_factor_sparse).
template <class S, class Index>
MYRIAD_HD bool lu_factor_impl(int n, S* A, Index* pivots, Index* columns = nullptr) {
  const double threshold = lu_singularity_threshold(n, A);
  if (threshold < 0.0) return false;
  for (int k = 0; k < n; ++k) {
    // Partial pivoting: the largest entry of column k on or below the diagonal.
    int pivot_row = k;
    double pivot_magnitude = std::fabs(value_of(A[k * n + k]));
    for (int i = k + 1; i < n; ++i) {
      const double magnitude = std::fabs(value_of(A[i * n + k]));
      if (magnitude > pivot_magnitude) {
        pivot_magnitude = magnitude;
        pivot_row = i;
      }
    }
    pivots[k] = static_cast<Index>(pivot_row);
    if (!(pivot_magnitude > threshold)) return false;
    if (pivot_row != k) {
      for (int j = 0; j < n; ++j) {
        const S swap = A[k * n + j];
        A[k * n + j] = A[pivot_row * n + j];
        A[pivot_row * n + j] = swap;
      }
    }
    const S inverse_pivot = 1.0 / A[k * n + k];
    int listed = 0;
    if (columns != nullptr)
      for (int j = k + 1; j < n; ++j)
        if (!is_exactly(A[k * n + j], 0.0)) columns[listed++] = static_cast<Index>(j);
    // Past an eighth of the row filled, the contiguous loop is the faster one (measured on the HMMWV and sedan).
    const bool sparse_row = columns != nullptr && 8 * listed < n - k - 1;
    for (int i = k + 1; i < n; ++i) {
      const S multiplier = A[i * n + k] * inverse_pivot;
      A[i * n + k] = multiplier;
      if (is_exactly(multiplier, 0.0)) continue;  // a Dual with zero value may still carry derivatives
      if (!sparse_row) {
        for (int j = k + 1; j < n; ++j) A[i * n + j] -= multiplier * A[k * n + j];
      } else {
        for (int c = 0; c < listed; ++c) {
          const int j = static_cast<int>(columns[c]);
          A[i * n + j] -= multiplier * A[k * n + j];
        }
      }
    }
  }
  return true;
}

// P b: the row exchanges of a factorization (pivots[k], row indices as int or exact double) applied to b (n) in
// the order they were made. O(n).
template <class S, class Index>
MYRIAD_HD_INLINE void lu_apply_pivots(int n, const Index* pivots, S* b) {
  for (int k = 0; k < n; ++k) {
    const int pivot_row = static_cast<int>(pivots[k]);
    if (pivot_row != k) {
      const S swap = b[k];
      b[k] = b[pivot_row];
      b[pivot_row] = swap;
    }
  }
}

// P b, applied in the order the rows were swapped, then L y = P b (unit lower) and U x = y. Summation order:
// row i of the forward substitution subtracts its terms in ascending j, and (since the lane-group LU was added)
// row i of the back substitution subtracts them in descending j, from j = n-1 down to i+1. These are the orders
// in which the column-oriented substitutions of the cooperative solve (linalg/lane_lu.hpp: column j of L
// subtracted from every row below once y_j is final, column j of U from every row above once x_j is final)
// reach each b_i, so that it reproduces this solve bit for bit. (Before, the back substitution summed in
// ascending j; the results differ from that at rounding level only.)
template <class S>
MYRIAD_HD void lu_substitute(int n, const S* LU, S* b) {
  for (int i = 1; i < n; ++i) {
    S sum = b[i];
    for (int j = 0; j < i; ++j) sum -= LU[i * n + j] * b[j];
    b[i] = sum;
  }
  for (int i = n - 1; i >= 0; --i) {
    S sum = b[i];
    for (int j = n - 1; j > i; --j) sum -= LU[i * n + j] * b[j];
    b[i] = sum / LU[i * n + i];
  }
}
template <class S, class Index>
MYRIAD_HD void lu_solve_impl(int n, const S* LU, const Index* pivots, S* b) {
  lu_apply_pivots(n, pivots, b);
  lu_substitute(n, LU, b);
}

}  // namespace detail

// Factors P A = L U in place: on return A holds L strictly below the diagonal (unit diagonal implied) and U
// on and above it; pivots[k] (n) is the row swapped with row k at elimination step k. Returns false, without
// crashing and with A and pivots partly overwritten, if A has a non-finite entry or is numerically singular
// by the criterion at the top of this file (including an exactly zero pivot column). n = 0 succeeds.
// Cost: O(n^3) (2n^3/3 flops), O(1) extra memory.
MYRIAD_HD_INLINE bool lu_factor(int n, double* A, int* pivots) {
  return detail::lu_factor_impl(n, A, pivots);
}

// The same, with the pivot rows stored as (exactly representable) doubles, so that an integrator whose only
// scratch is a double array can keep them there without reinterpreting memory.
MYRIAD_HD_INLINE bool lu_factor(int n, double* A, double* pivots) {
  return detail::lu_factor_impl(n, A, pivots);
}

// lu_factor for matrices whose rows are mostly exact zeros (the index-3 iteration matrices of absolute
// coordinates, where a GCON's row touches the coordinates of two bodies): an elimination step whose pivot row is
// at most an eighth filled updates only the columns where that row is not exactly zero, listed in `columns` (n
// values of scratch). Every other entry would have been updated by x - m * (+-0), which is x for any x but a
// negative zero (-0 - (-0) = +0), so the factors equal lu_factor's but for the sign of some zeros, and the solves
// give the same numbers. Cost: the fill-in decides; a model-file run in re took half the time with it on the sedan
// (n = 442) and 0.8-0.9 of it on the HMMWV (n = 277), where the factorization had been half to two thirds of it.
MYRIAD_HD_INLINE bool lu_factor_sparse(int n, double* A, double* pivots, double* columns) {
  return detail::lu_factor_impl(n, A, pivots, columns);
}
MYRIAD_HD_INLINE bool lu_factor_sparse(int n, double* A, int* pivots, int* columns) {
  return detail::lu_factor_impl(n, A, pivots, columns);
}

// The criterion above applied to factors computed elsewhere (a library's batched LU with partial pivoting, of A
// or of its transpose): true when every pivot, the diagonal of U, exceeds `threshold` (lu_singularity_threshold
// of the matrix before factoring; a negative threshold, a non-finite matrix, fails). O(n).
MYRIAD_HD_INLINE bool lu_pivots_regular(int n, const double* LU, double threshold) {
  if (!(threshold >= 0.0)) return false;
  for (int k = 0; k < n; ++k)
    if (!(std::fabs(LU[k * n + k]) > threshold)) return false;
  return true;
}

// Solves A x = b in place (b in, x out, n) with the factors and pivots of a successful lu_factor.
// Cost: O(n^2) (2n^2 flops).
MYRIAD_HD_INLINE void lu_solve(int n, const double* LU, const int* pivots, double* b) {
  detail::lu_solve_impl(n, LU, pivots, b);
}
MYRIAD_HD_INLINE void lu_solve(int n, const double* LU, const double* pivots, double* b) {
  detail::lu_solve_impl(n, LU, pivots, b);
}

// Any scalar S with value_of (core/scalar.hpp, core/dual.hpp): pivots are chosen and judged on the values, so a
// Dual matrix factors exactly as its value part would and carries the derivatives along (the loop code's
// Jacobians). The double overloads above are these with S = double.
template <class S>
MYRIAD_HD_INLINE bool lu_factor_scalar(int n, S* A, int* pivots) {
  return detail::lu_factor_impl(n, A, pivots);
}
template <class S>
MYRIAD_HD_INLINE void lu_solve_scalar(int n, const S* LU, const int* pivots, S* b) {
  detail::lu_solve_impl(n, LU, pivots, b);
}

}  // namespace myriad
