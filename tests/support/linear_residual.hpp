#pragma once
// The backward error of a computed solution of a dense linear system, shared by the LU tests.
#include <algorithm>
#include <cmath>
#include <vector>

namespace myriad::testing {

// max_i |A x - b|_i / (max|A| max|x| + max|b|) for row-major n x n A: the normwise relative residual (backward
// error) of a solve.
inline double relative_residual(int n, const std::vector<double>& A, const std::vector<double>& x,
                                const std::vector<double>& b) {
  double max_a = 0.0, max_x = 0.0, max_b = 0.0, max_r = 0.0;
  for (double v : A) max_a = std::max(max_a, std::fabs(v));
  for (double v : x) max_x = std::max(max_x, std::fabs(v));
  for (double v : b) max_b = std::max(max_b, std::fabs(v));
  for (int i = 0; i < n; ++i) {
    double r = -b[i];
    for (int j = 0; j < n; ++j) r += A[i * n + j] * x[j];
    max_r = std::max(max_r, std::fabs(r));
  }
  return max_r / (max_a * max_x + max_b);
}

}  // namespace myriad::testing
