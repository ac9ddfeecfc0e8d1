// Layering probe (CMakeLists.txt, layering_probe_model_cannot_include_compiler): compiled with the include
// directories of the model layer (description and loader), it includes the model compiler, a higher layer that
// shares the folder src/model. It must fail to compile.
#include "model/model.hpp"
#include "model/compile.hpp"

int myriad_layering_probe_model() { return 0; }
