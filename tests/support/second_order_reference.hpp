#pragma once
// Test support for the second-order (Rosenbrock) integrators: a recorder of outputs, a tight DOPRI5 reference
// solution of a second-order system, the stiff linear oscillator, and the least-squares order fit.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "integrators/dopri5.hpp"
#include "integrators/rosenbrock_nystrom.hpp"

namespace myriad::testing {

struct Recorder {
  int width;
  std::vector<int> indices;
  std::vector<double> times, values;
  explicit Recorder(int w) : width(w) {}
  void operator()(int k, double t, const double* y) {
    indices.push_back(k);
    times.push_back(t);
    values.insert(values.end(), y, y + width);
  }
};

// DOPRI5 at rtol = atol = 1e-13 from (x0, w0) at 0: the solution (x, w) at each of `times` (2n values each).
template <class System>
std::vector<double> reference_solution(System sys, const double* x0, const double* w0,
                                       const std::vector<double>& times) {
  const int n = sys.dimension();
  SecondOrderAsFirstOrder<System> first_order{&sys};
  std::vector<double> y(2 * n), work(dopri5_workspace_size(2 * n));
  for (int i = 0; i < n; ++i) {
    y[i] = x0[i];
    y[n + i] = w0[i];
  }
  Recorder recorder(2 * n);
  StepControl control;
  control.rtol = control.atol = 1e-13;
  IntegratorStats stats;
  EXPECT_EQ(integrate_dopri5(first_order, 0.0, y.data(), times.data(), static_cast<int>(times.size()), recorder,
                             control, work.data(), stats),
            InstanceStatus::ok);
  return recorder.values;
}

// x'' = -k x - c w: first-order eigenvalues lambda = (-c +- sqrt(c^2 - 4k)) / 2. Exact J1, J2; Mhat = 1.
struct StiffLinear {
  double k = 1e8, c = 1e6;
  int dimension() const { return 1; }
  bool acceleration(double, const double* x, const double* w, double* f) {
    f[0] = -k * x[0] - c * w[0];
    return true;
  }
  bool jacobians(double t, const double* x, const double* w, double* f, double* J1, double* J2, double* f_t) {
    acceleration(t, x, w, f);
    J1[0] = -k;
    J2[0] = -c;
    f_t[0] = 0.0;
    return true;
  }
  bool mass_matrix(double, const double*, double* M) {
    M[0] = 1.0;
    return true;
  }
  bool rebase(double, double*, double*) { return false; }
};

// Least-squares slope of log(error) against log(h).
inline double fitted_order(const std::vector<double>& h, const std::vector<double>& error) {
  const double m = static_cast<double>(h.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < h.size(); ++i) {
    const double x = std::log(h[i]), y = std::log(error[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (m * sxy - sx * sy) / (m * sxx - sx * sx);
}

}  // namespace myriad::testing
