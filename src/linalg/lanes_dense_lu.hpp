#pragma once
// linalg/dense_lu.hpp's lu_factor / lu_solve on Lanes (core/lanes.hpp): W instances' n x n matrices side by
// side, for RN4's iteration matrix in the lane runner (ensemble/lane_runner.cpp). Each lane's pivots and
// verdict are its own (partial pivoting compares values), so each lane is factored alone by the scalar
// lu_factor; the solve applies each lane's row exchanges, then substitutes in all lanes at once with the
// scalar solve's operations (detail::lu_substitute). Each lane's factors and solution are the scalar path's
// bit for bit. Host only.
#include <vector>

#include "core/lanes.hpp"
#include "linalg/dense_lu.hpp"

namespace myriad {

// Factors every lane of A in place, pivots as exact doubles per lane. Returns false as soon as one lane does
// not factor (A and pivots then partly overwritten): the caller takes the lanes one by one to learn which.
// Cost: W scalar factorizations and O(W n^2) copies.
template <int W>
bool lu_factor(int n, Lanes<W>* A, Lanes<W>* pivots) {
  thread_local std::vector<double> lane_matrix, lane_pivots;
  lane_matrix.resize(static_cast<std::size_t>(n) * n + 1);
  lane_pivots.resize(static_cast<std::size_t>(n) + 1);
  for (int j = 0; j < W; ++j) {
    for (int i = 0; i < n * n; ++i) lane_matrix[i] = A[i][j];
    if (!lu_factor(n, lane_matrix.data(), lane_pivots.data())) return false;
    for (int i = 0; i < n * n; ++i) A[i].set(j, lane_matrix[i]);
    for (int k = 0; k < n; ++k) pivots[k].set(j, lane_pivots[k]);
  }
  return true;
}

// Solves every lane's system in place with the factors of lu_factor above. O(W n + n^2) lane operations.
template <int W>
void lu_solve(int n, const Lanes<W>* LU, const Lanes<W>* pivots, Lanes<W>* b) {
  for (int j = 0; j < W; ++j)
    for (int k = 0; k < n; ++k) {
      const int pivot_row = static_cast<int>(pivots[k][j]);
      if (pivot_row != k) {
        const double swap = b[k][j];
        b[k].set(j, b[pivot_row][j]);
        b[pivot_row].set(j, swap);
      }
    }
  detail::lu_substitute(n, LU, b);
}

}  // namespace myriad
