// Layering probe (CMakeLists.txt, layering_probe_constraints_cannot_include_reference): compiled with the include
// directories of the constraints layer, it includes the reference oracle, a higher layer (the edge that once
// closed the cycle model -> loops -> constraints -> reference -> model). It must fail to compile.
#include "constraints/constraint_equations.hpp"
#include "reference/reference_dynamics.hpp"

int myriad_layering_probe_constraints() { return 0; }
