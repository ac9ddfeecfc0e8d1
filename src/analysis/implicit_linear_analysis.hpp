#pragma once
// The linear analysis of seed 003 sec. 4 for the implicit integrators (integrators/implicit_integrate.hpp): the
// amplification matrix of one step of a method on the undamped oscillator x'' + omega^2 x = 0, taken from the
// stepper itself (each column is one implicit_step from a unit state), its spectral radius rho (the degree of
// algorithmic dissipation), and from the principal root lambda = exp(omega_bar dt (-xi_bar + i sqrt(1 - xi_bar^2)))
// (eq. 22) the numerical damping ratio xi_bar (the amplitude decay ratio) and the period elongation
// (T_bar - T) / T = omega / omega_bar - 1. The state a step maps is the method's whole memory: the r last points
// of an r-step LMS, the point and the (complex) auxiliary derivatives of SS(r), the point of an ESDIRK. Host only
// (Eigen).
#include <complex>

#include <Eigen/Dense>

#include "integrators/implicit_methods.hpp"

namespace myriad {

struct ImplicitLinearAnalysis {
  double omega_dt = 0.0;
  double spectral_radius = 0.0;            // max |eigenvalue| of the amplification matrix
  std::complex<double> principal_root;     // the eigenvalue nearest exp(i omega dt) (Im >= 0)
  double damping_ratio = 0.0;              // xi_bar (eq. 22); the amplitude decay ratio
  double period_elongation = 0.0;          // omega / omega_bar - 1
};

// The amplification matrix of one step of size dt = 1 on x'' + Omega^2 x = 0, Omega = omega_dt. Throws
// std::runtime_error if a step fails (a singular iteration matrix). Cost: one step per state component.
Eigen::MatrixXd implicit_amplification_matrix(const ImplicitScheme& scheme, double omega_dt);

// rho, xi_bar and the period elongation at omega dt (principal-root quantities are meaningful for
// omega dt < pi). Cost: implicit_amplification_matrix and a dense eigenproblem of its size (at most 14).
ImplicitLinearAnalysis implicit_linear_analysis(const ImplicitScheme& scheme, double omega_dt);

}  // namespace myriad
