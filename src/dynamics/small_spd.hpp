#pragma once
// Inverse of a small symmetric positive definite matrix (n <= 6: a joint's D = S^T IA S) by Cholesky.
#include "core/hd.hpp"
#include "core/scalar.hpp"

namespace myriad {

// a: n x n row-major (read), inv: n x n row-major (written), n <= MaxN. Returns false if a is not positive
// definite. O(n^3). MaxN = 1 (code for one-axis joints, dynamics/model_class.hpp) leaves the general case out.
template <class S, int MaxN = 6>
MYRIAD_HD bool invert_small_spd(const S* a, int n, S* inv) {
  if (n == 1) {  // the common 1-DOF joint, without the loops: the same operations as below, so the same bits
    if (!is_positive(a[0])) return false;
    const S L = scalar_sqrt(a[0]);
    inv[0] = (S(1.0) / L) / L;
    return true;
  }
  if constexpr (MaxN == 1) {
    return false;  // not reached: n <= MaxN
  } else {
    S L[36];
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j <= i; ++j) {
        S sum = a[i * n + j];
        for (int p = 0; p < j; ++p) sum -= L[i * 6 + p] * L[j * 6 + p];
        if (i == j) {
          if (!is_positive(sum)) return false;
          L[i * 6 + i] = scalar_sqrt(sum);
        } else {
          L[i * 6 + j] = sum / L[j * 6 + j];
        }
      }
    }
    // Columns of the inverse: solve L L^T x = e_c.
    for (int col = 0; col < n; ++col) {
      S y[6];
      for (int i = 0; i < n; ++i) {
        S sum = S(i == col ? 1.0 : 0.0);
        for (int p = 0; p < i; ++p) sum -= L[i * 6 + p] * y[p];
        y[i] = sum / L[i * 6 + i];
      }
      for (int i = n - 1; i >= 0; --i) {
        S sum = y[i];
        for (int p = i + 1; p < n; ++p) sum -= L[p * 6 + i] * inv[p * n + col];
        inv[i * n + col] = sum / L[i * 6 + i];
      }
    }
    return true;
  }
}

}  // namespace myriad
