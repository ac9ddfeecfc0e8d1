#pragma once
// The explicit predictors of seed 003 sec. 3.1 for the derivative at a new time point t_N,
//
//   y'_N(0) = (1/(t_N - t_N-1)) sum_j m_j y_N-j + sum_j n_j y'_N-j,   j = 1..K,
//
// from the K previous points (earlier steps for the multistep methods; earlier stages and the step start for the
// ESDIRKs). K = 1 is the constant prediction of eq. 15 (m = 0, n = 1); K = 2 the second-order prediction of
// eq. 12 with the weights of eq. 14; K = 3 the fourth-order one of eq. 16 with the weights of eq. 17. The K-point
// weights make the formula exact for every polynomial of degree 2K - 1 (Hermite extrapolation, local truncation
// error O(h^(2K-1)) in the sense of eq. 13), which tests/integrators/implicit_predictor_test.cpp checks. Eq. 17
// as the seed prints it agrees with that Hermite solve (checked symbolically). Host and device, no allocation.
#include "core/hd.hpp"

namespace myriad {

constexpr int kMaxPredictorPoints = 3;

// Weights m (K) and n (K) of the K-point predictor for t_N and the previous times past[j - 1] = t_N-j
// (decreasing). Returns false (weights untouched) if two times coincide; K = 1 always succeeds. O(1).
MYRIAD_HD_INLINE bool predictor_weights(int K, double t_N, const double* past, double* m, double* n) {
  if (K <= 1) {
    m[0] = 0.0;
    n[0] = 1.0;
    return true;
  }
  const double h = t_N - past[0];
  const double h1 = past[0] - past[1];
  if (!(h != 0.0) || !(h1 != 0.0)) return false;
  const double a1 = h / h1;  // eq. 14's alpha, eq. 17a's alpha_1
  if (K == 2) {              // eq. 14
    m[0] = -6.0 * a1 * a1 * (1.0 + a1);
    m[1] = -m[0];
    n[0] = (1.0 + a1) * (1.0 + 3.0 * a1);
    n[1] = a1 * (2.0 + 3.0 * a1);
    return true;
  }
  const double h2 = past[1] - past[2];
  if (!(h2 != 0.0)) return false;
  const double a2 = h / h2;  // eq. 17a
  const double a1s = a1 * a1, a1c = a1s * a1, a2s = a2 * a2, a2c = a2s * a2;
  const double sum = a1 + a2, sum2 = sum * sum, sum3 = sum2 * sum;
  // eqs. 17b-17g
  m[0] = -2.0 * a1s * (1.0 + a1) / sum3 *
         (5.0 * a1c * a2s + 8.0 * a1c * a2 + 10.0 * a1s * a2c + 3.0 * a1c + 25.0 * a1s * a2s + 13.0 * a1s * a2 +
          20.0 * a1 * a2c + 20.0 * a1 * a2s + 10.0 * a2c);
  m[1] = 2.0 * (1.0 + a1) / a1 *
         (5.0 * a1c * a2s + 8.0 * a1c * a2 + 3.0 * a1c - 5.0 * a1s * a2c + a1s * a2s + 4.0 * a1s * a2 -
          7.0 * a1 * a2c - a1 * a2s - 2.0 * a2c);
  m[2] = -m[0] - m[1];
  n[0] = (1.0 + a1) / sum2 *
         (5.0 * a1c * a2s + 8.0 * a1c * a2 + 3.0 * a1c + 11.0 * a1s * a2s + 10.0 * a1s * a2 + a1s +
          7.0 * a1 * a2s + 2.0 * a1 * a2 + a2s);
  n[1] = (5.0 * a1c * a2s + 8.0 * a1c * a2 + 3.0 * a1c + 12.0 * a1s * a2s + 12.0 * a1s * a2 + 2.0 * a1s +
          9.0 * a1 * a2s + 4.0 * a1 * a2 + 2.0 * a2s) /
         a1;
  n[2] = a2c * (1.0 + a1) / (a1 * sum2) * (2.0 * a1 + 2.0 * a2 + 7.0 * a1 * a2 + 5.0 * a1s * a2 + 4.0 * a1s);
  return true;
}

// The predicted derivative (size values): ydot_N = (1/h) sum_j m_j y[j] + sum_j n_j ydot[j], with y[j] and
// ydot[j] the values at t_N-j-1 and h = t_N - t_N-1. O(K size).
MYRIAD_HD_INLINE void predict_derivative(int K, int size, double h, const double* m, const double* n,
                                         const double* const* y, const double* const* ydot, double* ydot_N) {
  for (int i = 0; i < size; ++i) {
    double sum = 0.0;
    for (int j = 0; j < K; ++j) sum += (m[j] / h) * y[j][i] + n[j] * ydot[j][i];
    ydot_N[i] = sum;
  }
}

}  // namespace myriad
