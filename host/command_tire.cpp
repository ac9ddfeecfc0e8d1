// `myriad tire FILE.tir`: the steady-state force curves of a Magic Formula tire (tire/magic_formula.hpp) or, for a
// file whose PROPERTY_FILE_FORMAT is FIALA, a Fiala tire (tire/fiala.hpp), as CSV,
// for checking a `.tir` file against its source or another implementation (tests/python/test_tire.py).
#include <cmath>
#include <iostream>
#include <stdexcept>

#include "commands.hpp"
#include "io/atomic_file.hpp"
#include "tire/fiala.hpp"
#include "tire/magic_formula.hpp"
#include "tire/tir_file.hpp"

namespace myriad::cli {
namespace {

constexpr double kDegree = 3.14159265358979323846 / 180.0;

// Rows `curve,kappa,alpha,gamma,fz,fx,fy,mz`: the longitudinal sweep (kappa -0.5..0.5 by 0.01 at alpha 0), the
// lateral sweep (alpha -15..15 deg by 0.25 deg at kappa 0) and the combined sweep (kappa -0.5..0.5 at the
// combined slip angle); for a Magic Formula tire every row is the combined-slip model (fx, fy, mz), which is the
// pure one where kappa or alpha is 0. `forces(kappa, alpha)` is the tire's model at the options' load and camber.
template <class Forces>
void write_curves(std::ostream& out, const Forces& forces, const TireOptions& o) {
  out << "curve,kappa,alpha,gamma,fz,fx,fy,mz\n";
  out.precision(17);
  const auto row = [&](const char* curve, double kappa, double alpha) {
    const TireForces f = forces(kappa, alpha);
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
  const std::string text = read_tir_text(o.file);
  const auto write = [&](const auto& forces) {
    if (o.out.empty()) {
      write_curves(std::cout, forces, o);
    } else {
      write_file_atomically(o.out, [&](std::ostream& out) { write_curves(out, forces, o); });
      std::cout << "wrote " << o.out << '\n';
    }
  };
  const std::string format = tir_property_format(text);
  if (format == "FIALA") {
    if (o.camber != 0.0) throw std::invalid_argument("--camber: the Fiala model has no camber");
    const FialaParameters p = parse_fiala_tir(text, o.file);
    write([&](double kappa, double alpha) { return fiala_forces(p, kappa, alpha, o.fz); });
  } else {
    const TirCoefficients p = parse_tir(text, o.file);
    write([&](double kappa, double alpha) { return tire_forces(p.data(), kappa, alpha, o.camber, o.fz); });
  }
  return 0;
}

}  // namespace myriad::cli
