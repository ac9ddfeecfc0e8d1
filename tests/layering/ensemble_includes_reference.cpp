// Layering probe (CMakeLists.txt, layering_probe_ensemble_cannot_include_reference): compiled with the include
// directories of the ensemble layer (the fast path's top), it includes the reference oracle, which sits beside the
// fast path and above it. It must fail to compile.
#include "ensemble/cpu_runner.hpp"
#include "reference/reference_runner.hpp"

int myriad_layering_probe_ensemble() { return 0; }
