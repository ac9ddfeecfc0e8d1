#include "reference/reference_errors.hpp"

#include <cmath>
#include <sstream>

#include "model/model_pointers.hpp"
#include "reference/reference_dynamics.hpp"

namespace myriad::reference {

void refuse_mass_matrix(const Model& model, const Eigen::MatrixXd& M) {
  // Cholesky column by column until a pivot is not positive; that column's joint is where the model's
  // inertia runs out (a body too light for double precision, or masses too far apart in scale).
  const Eigen::Index n = M.rows();
  Eigen::MatrixXd L = Eigen::MatrixXd::Zero(n, n);
  Eigen::Index column = 0;
  double pivot = 0.0;
  for (; column < n; ++column) {
    pivot = M(column, column) - L.row(column).head(column).squaredNorm();
    if (!(pivot > 0.0)) break;
    L(column, column) = std::sqrt(pivot);
    for (Eigen::Index i = column + 1; i < n; ++i)
      L(i, column) =
          (M(i, column) - L.row(i).head(column).dot(L.row(column).head(column))) / L(column, column);
  }
  const CoordinateLayout layout = coordinate_layout(model);
  size_t joint = 0;
  while (joint + 1 < model.joints.size() && layout.v_index[joint + 1] <= column) ++joint;
  std::ostringstream reason;
  reason << "the mass matrix is not positive definite at this configuration: pivot " << pivot
         << " at velocity coordinate " << column - layout.v_index[joint] << " of joint '"
         << model.joints[joint].name
         << "' (double precision loses the inertia it moves: look for extreme values among the masses and "
            "inertias of the bodies it moves and the joints' initial positions)";
  throw ModelError(model.source_file, joint_pointer(model, static_cast<int>(joint)), reason.str());
}

void refuse_zero_length_tsda(const Model& model, int force) {
  throw ModelError(model.source_file, force_pointer(force),
                   "tsda '" + model.forces[static_cast<size_t>(force)].name +
                       "' has zero length at this configuration (its two ends coincide, so its direction and "
                       "force are undefined)");
}

}  // namespace myriad::reference
