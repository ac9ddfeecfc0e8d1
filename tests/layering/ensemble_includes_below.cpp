// Layering probe (CMakeLists.txt, layering_probe_ensemble_builds_on_its_layers): compiled with the include
// directories of the ensemble layer, it includes that layer and the layers below it, so it must build.
#include "core/status.hpp"
#include "dynamics/tree_ode.hpp"
#include "ensemble/ensemble.hpp"
#include "integrators/dopri5.hpp"
#include "loops/loop_ode.hpp"
#include "model/compile.hpp"
#include "model/model.hpp"
#include "spatial/transform.hpp"

int myriad_layering_probe_below() { return static_cast<int>(sizeof(myriad::Ensemble)); }
