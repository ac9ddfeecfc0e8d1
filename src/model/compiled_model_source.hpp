#pragma once
// A CompiledModel written as C++ source: a constexpr function that rebuilds it field by field (`myriad
// codegen`). Compiled into a kernel, the model is a constant whose loads the compiler folds: the loop bounds,
// joint types and constant offsets of the one model become literals, the loops over its bodies unroll, and
// the kernel holds no code for joints it lacks (issue 19, item 4: a kernel specialized on the model itself,
// generated ahead of time). Host-only.
#include <string>

#include "model/compiled_model.hpp"

namespace myriad {

// Whether `name` is a C++ identifier (letters, digits and underscores, not starting with a digit; ASCII).
bool is_cpp_identifier(const std::string& name);

// Source of a header defining `constexpr CompiledModel <name>()` in namespace myriad::generated, listing the
// non-zero fields of `compiled` (the rest stay value-initialized zeros), doubles to the last bit (%a). `name`
// must be a C++ identifier; `origin` is quoted in the header's comment (the model file). Throws
// std::invalid_argument on a bad name.
std::string compiled_model_source(const CompiledModel& compiled, const std::string& name,
                                  const std::string& origin);

}  // namespace myriad
