#pragma once
// Which entry of a model file an assembly failure (constraints/assembly.hpp) comes from, so that compile()
// can name it: the loop or driver with the largest residual when Newton does not converge, the first loop or
// driver whose equations depend on earlier ones when the Jacobian is rank deficient, `independent` when the
// named coordinates do not fit. Host-only, dense Eigen; run only after a failure.
#include <string>

#include "constraints/assembly.hpp"
#include "model/model.hpp"

namespace myriad::constraints {

struct AssemblyBlame {
  std::string
      pointer;  // JSON pointer of the responsible entry ("/loops/2", "/drivers/0", "/independent", "/loops")
  std::string
      detail;  // what about it, with the numbers, e.g. "largest residuals: loop 'c' (/loops/2) 0.31, ..."
};

// `result` is what assemble(model, t, ...) returned (status not ok) for `model` at time t. Residuals are
// those of result.q (the last Newton iterate); rank deficiency is found by eliminating the Jacobian's rows at
// result.q in file order (G, or its dependent columns once they are chosen), so the entry named is the first
// whose rows add less rank than they have. O(m * nv * rank) plus one constraint evaluation.
AssemblyBlame blame_assembly_failure(const Model& model, double t, const AssemblyResult& result,
                                     const AssemblyOptions& options = {});

}  // namespace myriad::constraints
