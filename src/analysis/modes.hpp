#pragma once
// Modes of a linearized model (analysis/linearization.hpp): the eigenvalues of the first-order system
//   d/dt [dx; dw] = A [dx; dw],   A = [0 I; J1 J2]
// give the damped modes: for a complex pair lambda = -zeta omega_n +- i omega_n sqrt(1 - zeta^2) the natural
// frequency is |lambda| / (2 pi), the damped frequency Im(lambda) / (2 pi) and the damping ratio
// zeta = -Re(lambda) / |lambda|; a real eigenvalue is a non-oscillating (overdamped or rigid) motion with time
// constant -1 / lambda. The undamped natural frequencies are those of the conservative part alone:
// lambda^2 = the eigenvalues of J1 (= -M^-1 K with the velocity terms left out), the numbers a 2-DOF quarter car's
// closed form det(K - omega^2 M) = 0 gives. With non-proportional damping the two sets differ (by 2% for the IRI
// golden car); both are printed. Host only (Eigen).
#include <complex>
#include <vector>

#include "analysis/linearization.hpp"

namespace myriad {

struct Mode {
  std::complex<double> eigenvalue;  // of A (1/s); of an oscillating mode, the one with Im > 0
  bool oscillating = false;
  double natural_hz = 0.0;          // |lambda| / (2 pi)
  double damped_hz = 0.0;           // Im(lambda) / (2 pi); 0 for a real eigenvalue
  double damping_ratio = 0.0;       // -Re(lambda) / |lambda| (1 for a real negative eigenvalue, -1 for a positive)
  std::vector<double> shape;        // |dx_i| of the eigenvector, scaled to a largest entry of 1 (n)
  int dominant = 0;                 // the coordinate (0 .. n-1) with the largest |dx_i|
};

struct UndampedMode {
  double frequency_hz = 0.0;        // sqrt(-mu) / (2 pi) for an eigenvalue mu < 0 of J1; 0 otherwise
  double eigenvalue = 0.0;          // mu = Re of the eigenvalue of J1 (1/s^2); > 0: statically unstable
  std::vector<double> shape;        // |dx_i|, largest 1
  int dominant = 0;
};

struct ModalAnalysis {
  std::vector<Mode> modes;            // oscillating modes by natural frequency, then the real eigenvalues
  std::vector<UndampedMode> undamped; // by frequency (statically unstable ones, mu > 0, last)
};

// O(n^3) (two dense eigenproblems, of 2n and n).
ModalAnalysis modal_analysis(const Linearization& linearization);

}  // namespace myriad
