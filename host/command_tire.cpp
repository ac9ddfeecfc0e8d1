// `myriad tire FILE.tir`: the steady-state force curves of a Magic Formula tire (tire/magic_formula.hpp) as CSV,
// for checking a `.tir` file against its source or another implementation (tests/python/test_tire.py).
#include <cmath>
#include <iostream>
#include <stdexcept>

#include "commands.hpp"
#include "io/atomic_file.hpp"
#include "tire/magic_formula.hpp"
#include "tire/tir_file.hpp"

namespace myriad::cli {
namespace {

constexpr double kDegree = 3.14159265358979323846 / 180.0;

// Rows `curve,kappa,alpha,gamma,fz,fx,fy,mz`: the longitudinal sweep (kappa -0.5..0.5 by 0.01 at alpha 0), the
// lateral sweep (alpha -15..15 deg by 0.25 deg at kappa 0) and the combined sweep (kappa -0.5..0.5 at the
// combined slip angle); mz is the pure aligning moment (combined-slip Mz is not implemented).
void write_curves(std::ostream& out, const TirCoefficients& p, const TireOptions& o) {
  out << "curve,kappa,alpha,gamma,fz,fx,fy,mz\n";
  out.precision(17);
  const auto row = [&](const char* curve, double kappa, double alpha) {
    const TireForces f = tire_forces(p.data(), kappa, alpha, o.camber, o.fz);
    out << curve << ',' << kappa << ',' << alpha << ',' << o.camber << ',' << o.fz << ',' << f.fx << ',' << f.fy
        << ',' << f.mz << '\n';
  };
  for (int i = -50; i <= 50; ++i) row("longitudinal", 0.01 * i, 0.0);
  for (int i = -60; i <= 60; ++i) row("lateral", 0.0, 0.25 * i * kDegree);
  for (int i = -50; i <= 50; ++i) row("combined", 0.01 * i, o.combined_alpha_deg * kDegree);
}

}  // namespace

int run_tire(const TireOptions& o) {
  if (!(o.fz > 0.0) || !std::isfinite(o.fz)) throw std::invalid_argument("--fz: the vertical load must be positive");
  if (!std::isfinite(o.camber)) throw std::invalid_argument("--camber: must be finite");
  const TirCoefficients p = read_tir_file(o.file);
  if (o.out.empty()) {
    write_curves(std::cout, p, o);
  } else {
    write_file_atomically(o.out, [&](std::ostream& out) { write_curves(out, p, o); });
    std::cout << "wrote " << o.out << '\n';
  }
  return 0;
}

}  // namespace myriad::cli
