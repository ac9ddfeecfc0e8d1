#include "analysis/modes.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>

namespace myriad {
namespace {

constexpr double kTwoPi = 6.283185307179586;

// |v_i| of the first n entries, scaled to a largest entry of 1, and the index of that entry.
template <class Vector>
std::vector<double> shape_of(const Vector& v, int n, int& dominant) {
  std::vector<double> s(static_cast<std::size_t>(n));
  double largest = 0.0;
  dominant = 0;
  for (int i = 0; i < n; ++i) {
    s[static_cast<std::size_t>(i)] = std::abs(v(i));
    if (s[static_cast<std::size_t>(i)] > largest) {
      largest = s[static_cast<std::size_t>(i)];
      dominant = i;
    }
  }
  if (largest > 0.0)
    for (double& x : s) x /= largest;
  return s;
}

}  // namespace

ModalAnalysis modal_analysis(const Linearization& l) {
  const int n = l.n;
  using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const RowMatrix> J1(l.J1.data(), n, n), J2(l.J2.data(), n, n);
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  A.topRightCorner(n, n).setIdentity();
  A.bottomLeftCorner(n, n) = J1;
  A.bottomRightCorner(n, n) = J2;
  ModalAnalysis out;

  const Eigen::EigenSolver<Eigen::MatrixXd> damped(A, true);
  const Eigen::VectorXcd lambda = damped.eigenvalues();
  const Eigen::MatrixXcd vectors = damped.eigenvectors();
  // A real matrix's complex eigenvalues come in conjugate pairs: keep the one with Im > 0. "Real" is judged
  // against the eigenvalue's size, so that round-off in a real eigenvalue does not make it a mode.
  std::vector<Mode> oscillating, real;
  for (int i = 0; i < 2 * n; ++i) {
    const std::complex<double> e = lambda(i);
    const double magnitude = std::abs(e);
    Mode m;
    m.eigenvalue = e;
    m.shape = shape_of(vectors.col(i), n, m.dominant);
    if (std::abs(e.imag()) > 1e-12 * std::max(1.0, magnitude)) {
      if (e.imag() < 0.0) continue;
      m.oscillating = true;
      m.natural_hz = magnitude / kTwoPi;
      m.damped_hz = e.imag() / kTwoPi;
      m.damping_ratio = -e.real() / magnitude;
      oscillating.push_back(m);
    } else {
      m.eigenvalue = {e.real(), 0.0};
      m.natural_hz = std::abs(e.real()) / kTwoPi;
      m.damping_ratio = e.real() < 0.0 ? 1.0 : (e.real() > 0.0 ? -1.0 : 0.0);
      real.push_back(m);
    }
  }
  std::sort(oscillating.begin(), oscillating.end(),
            [](const Mode& a, const Mode& b) { return a.natural_hz < b.natural_hz; });
  std::sort(real.begin(), real.end(), [](const Mode& a, const Mode& b) { return a.natural_hz < b.natural_hz; });
  out.modes = oscillating;
  out.modes.insert(out.modes.end(), real.begin(), real.end());

  const Eigen::EigenSolver<Eigen::MatrixXd> conservative(Eigen::MatrixXd(J1), true);
  const Eigen::VectorXcd mu = conservative.eigenvalues();
  const Eigen::MatrixXcd shapes = conservative.eigenvectors();
  for (int i = 0; i < n; ++i) {
    UndampedMode u;
    u.eigenvalue = mu(i).real();
    u.frequency_hz = u.eigenvalue < 0.0 ? std::sqrt(-u.eigenvalue) / kTwoPi : 0.0;
    u.shape = shape_of(shapes.col(i), n, u.dominant);
    out.undamped.push_back(u);
  }
  std::sort(out.undamped.begin(), out.undamped.end(), [](const UndampedMode& a, const UndampedMode& b) {
    const bool a_unstable = a.eigenvalue > 0.0, b_unstable = b.eigenvalue > 0.0;
    if (a_unstable != b_unstable) return b_unstable;
    return a.frequency_hz < b.frequency_hz;
  });
  return out;
}

}  // namespace myriad
