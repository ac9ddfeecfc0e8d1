#pragma once
// The reference path's refusals that a model file can cause, as ModelErrors naming the file
// (Model::source_file), the JSON pointer of the responsible entry and the reason with its numbers, so that
// `myriad check` and the reference backend say which field to look at (docs/model-format.md, "Errors").
#include <Eigen/Dense>
#include <string>

#include "model/model.hpp"
#include "model/model_error.hpp"

namespace myriad::reference {

// M (nv x nv) is not positive definite: names the joint of the first velocity coordinate at which Cholesky
// without pivoting meets a non-positive pivot, and that pivot. O(nv^3).
[[noreturn]] void refuse_mass_matrix(const Model& model, const Eigen::MatrixXd& M);

// The two ends of tsda `force` coincide at this configuration: its direction, and so its force, is undefined.
[[noreturn]] void refuse_zero_length_tsda(const Model& model, int force);

}  // namespace myriad::reference
