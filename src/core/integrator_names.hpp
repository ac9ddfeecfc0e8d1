#pragma once
// Every integrator a run may name: a model's /simulation/integrator, RunOptions::integrator, the CLI's --integrator
// and Python's integrator=. The explicit and Rosenbrock methods first, then the implicit ones in the order of
// ImplicitMethod (integrators/implicit_methods.hpp), whose names implicit_method_name returns from this table, so
// that the loader (model layer) and the run options check against one list. Host only.
#include <string>
#include <vector>

namespace myriad {

constexpr int kExplicitIntegratorCount = 4;
constexpr const char* kExplicitIntegratorNames[kExplicitIntegratorCount] = {"rk4", "dopri5", "rn4", "ros2w"};

// Seed 003's methods and backward Euler (seed 002), indexed by ImplicitMethod.
constexpr int kImplicitIntegratorCount = 17;
constexpr const char* kImplicitIntegratorNames[kImplicitIntegratorCount] = {
    "backward-euler", "lms2",   "lms3",   "lms4",   "ss2",    "ss3",
    "ss4",            "bathe",  "msstc3", "msstc4", "msstc5", "mssth3",
    "mssth4",         "mssth5", "esdirk3(2)4l[2]sa", "esdirk3(2)5l[2]sa", "esdirk4(3)6l[2]sa2"};

// The implicit method's index for `name` (exact spelling), or -1.
inline int implicit_integrator_index(const std::string& name) {
  for (int i = 0; i < kImplicitIntegratorCount; ++i)
    if (name == kImplicitIntegratorNames[i]) return i;
  return -1;
}

// All names, explicit then implicit.
inline std::vector<std::string> integrator_names() {
  std::vector<std::string> names(kExplicitIntegratorNames, kExplicitIntegratorNames + kExplicitIntegratorCount);
  names.insert(names.end(), kImplicitIntegratorNames, kImplicitIntegratorNames + kImplicitIntegratorCount);
  return names;
}

}  // namespace myriad
