#pragma once
// The seed 003 methods the implicit-integrator tests sweep: every method at rho_inf = 0, 0.6 and 1 where its
// dissipation is tunable, the L-stable ones at 0.
#include <string>
#include <vector>

#include "integrators/implicit_coefficients.hpp"

namespace myriad {
namespace test {

inline std::vector<ImplicitScheme> every_implicit_scheme() {
  std::vector<ImplicitScheme> schemes;
  for (int i = 0; i < kImplicitMethodCount; ++i) {
    const ImplicitMethod method = static_cast<ImplicitMethod>(i);
    for (double rho : {0.0, 0.6, 1.0})
      if (rho == 0.0 || implicit_method_tunable(method)) schemes.push_back(implicit_scheme(method, rho));
  }
  return schemes;
}

inline std::string implicit_label(const ImplicitScheme& s) {
  return std::string(implicit_method_name(s.method)) + " rho_inf " + std::to_string(s.rho_inf);
}

}  // namespace test
}  // namespace myriad
