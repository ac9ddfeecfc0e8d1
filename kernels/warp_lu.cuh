#pragma once
// Warp-level LU: one full warp (32 lanes) factors one instance's small dense row-major n x n matrix and
// solves with the factors, row r handled by lane r % 32, with the per-lane step functions of
// linalg/lane_lu.hpp between __syncwarp barriers and the pivot and max|A| reductions done by xor-butterfly
// shuffles. The results equal lu_factor / lu_solve (linalg/dense_lu.hpp) compiled for the device bit for bit
// (lane_lu.hpp explains why); the butterfly's operators are commutative and associative, so every lane
// reduces to the same value and the run is reproducible. Only the step functions do arithmetic on the matrix
// and the vector.
//
// Both drivers are called by all 32 lanes of a warp, converged, with the same arguments except `lane`
// (threadIdx.x % 32); A, LU, pivots and b may live in global or shared memory, are written by the warp only,
// and must be visible to every lane when the call starts (the drivers begin with a __syncwarp, which orders
// writes the warp itself made before the call).
#include "linalg/lane_lu.hpp"

namespace myriad::cuda {

constexpr int kWarpLanes = 32;
constexpr unsigned kFullWarpMask = 0xffffffffu;

// max|A_ij| over the warp: lane partials combined by combine_max_entry along a butterfly. Every lane returns
// the same value. O(n^2 / 32 + log 32).
__device__ inline double warp_max_entry(int n, const double* A, int lane) {
  double max_entry = lane_max_entry(n, A, lane, kWarpLanes);
  for (int offset = kWarpLanes / 2; offset > 0; offset /= 2)
    max_entry = combine_max_entry(max_entry, __shfl_xor_sync(kFullWarpMask, max_entry, offset));
  return max_entry;
}

// The pivot of column k over the warp: lane candidates combined by better_pivot along a butterfly. Every lane
// returns the same candidate. O(n / 32 + log 32).
__device__ inline LanePivot warp_pivot(int n, const double* A, int k, int lane) {
  LanePivot best = lane_pivot_candidate(n, A, k, lane, kWarpLanes);
  for (int offset = kWarpLanes / 2; offset > 0; offset /= 2) {
    const LanePivot other{__shfl_xor_sync(kFullWarpMask, best.magnitude, offset),
                          __shfl_xor_sync(kFullWarpMask, best.row, offset)};
    best = better_pivot(best, other);
  }
  return best;
}

// lu_factor(n, A, pivots) by a warp: P A = L U in place, pivots[k] (n, row indices stored as doubles) the row
// swapped with row k. Returns the same verdict on every lane: false, with A and pivots partly overwritten as
// lu_factor leaves them, if A has a non-finite entry or is numerically singular (dense_lu.hpp's criterion).
// Cost: 2n^3/3 flops over 32 lanes, at most 3n + 1 __syncwarp and n + 1 five-step butterflies.
__device__ inline bool warp_lu_factor(int n, double* A, double* pivots, int lane) {
  __syncwarp(kFullWarpMask);
  const double threshold = lu_singularity_threshold_from_max(n, warp_max_entry(n, A, lane));
  if (threshold < 0.0) return false;
  for (int k = 0; k < n; ++k) {
    const LanePivot pivot = warp_pivot(n, A, k, lane);
    if (lane == 0) pivots[k] = static_cast<double>(pivot.row);
    if (!pivot_accepted(pivot, threshold)) return false;
    if (pivot.row != k) {
      __syncwarp(kFullWarpMask);  // every lane's pivot search has read column k
      lane_swap_rows(n, A, k, pivot.row, lane, kWarpLanes);
      __syncwarp(kFullWarpMask);  // rows k and pivot.row exchanged in every column
    }
    lane_eliminate(n, A, k, lane, kWarpLanes);
    __syncwarp(kFullWarpMask);  // the rows below k updated (the next pivot search reads them)
  }
  return true;
}

// lu_solve(n, LU, pivots, b) by a warp, with the factors and pivots of a successful warp_lu_factor (or
// lu_factor's double overload): b (n) in, x out, bit for bit lu_solve's x. Cost: 2n^2 flops over 32 lanes,
// 2n + 1 __syncwarp.
__device__ inline void warp_lu_solve(int n, const double* LU, const double* pivots, double* b, int lane) {
  __syncwarp(kFullWarpMask);
  lane_permute(n, pivots, b, lane);
  __syncwarp(kFullWarpMask);
  for (int j = 0; j + 1 < n; ++j) {
    lane_forward_column(n, LU, b, j, lane, kWarpLanes);
    __syncwarp(kFullWarpMask);
  }
  for (int j = n; j >= 1; --j) {
    lane_backward_column(n, LU, b, j, lane, kWarpLanes);
    __syncwarp(kFullWarpMask);
  }
}

}  // namespace myriad::cuda
