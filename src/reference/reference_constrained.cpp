#include "reference/reference_constrained.hpp"

#include "constraints/constraint_equations.hpp"
#include "constraints/eigen_conversions.hpp"
#include "model/model_geometry.hpp"
#include "reference/reference_dynamics.hpp"

namespace myriad::reference {

namespace {

using Eigen::MatrixXd;
using Eigen::Vector3d;
using Eigen::VectorXd;

using kinematics::to_eigen;

// One end of a rod: world position, velocity, 3 x nv Jacobian and bias acceleration (Jdot v).
struct RodEnd {
  Vector3d p, velocity, bias;
  MatrixXd J;
};

RodEnd rod_end(const Model& model, const VectorXd& q, const std::vector<BodyKinematics>& bodies,
               const std::vector<BodyAcceleration>& bias, int body, const Vector3& point, int nv) {
  RodEnd end{to_eigen(vector3(point)), Vector3d::Zero(), Vector3d::Zero(), MatrixXd::Zero(3, nv)};
  if (body < 0) return end;
  const BodyKinematics& b = bodies[static_cast<size_t>(body)];
  const Vector3d p_B = end.p;
  end.p = b.p_WBo + b.R_WB * p_B;
  const Vector3d r = end.p - b.p_WBcm;
  end.velocity = b.v_WBcm_W + b.w_WB_W.cross(r);
  const BodyAcceleration& a = bias[static_cast<size_t>(body)];
  end.bias = a.a_cm_W + a.alpha_W.cross(r) + b.w_WB_W.cross(b.w_WB_W.cross(r));
  end.J = point_jacobian(model, q, body, p_B);
  return end;
}

// Visits every rod with its two ends evaluated at (q, v).
template <class F>
void for_each_rod(const Model& model, const VectorXd& q, const VectorXd& v, F&& visit) {
  bool any = false;
  for (const Loop& loop : model.loops) any = any || loop.type == LoopType::rod;
  if (!any) return;
  const std::vector<BodyKinematics> bodies = body_kinematics(model, q, v);
  const std::vector<BodyAcceleration> bias = body_bias_accelerations(model, q, v);
  const int nv = static_cast<int>(v.size());
  for (const Loop& loop : model.loops) {
    if (loop.type != LoopType::rod) continue;
    visit(loop.mass.value, rod_end(model, q, bodies, bias, loop.body1, loop.point1, nv),
          rod_end(model, q, bodies, bias, loop.body2, loop.point2, nv));
  }
}

}  // namespace

MatrixXd constrained_mass_matrix(const Model& model, const VectorXd& q) {
  MatrixXd M = mass_matrix(model, q);
  const VectorXd v = VectorXd::Zero(M.rows());
  // seed 001 eq. 19: point blocks m/3 (diagonal) and m/6 (coupling).
  for_each_rod(model, q, v, [&](double m, const RodEnd& a, const RodEnd& b) {
    M += (m / 3.0) * (a.J.transpose() * a.J + b.J.transpose() * b.J) +
         (m / 6.0) * (a.J.transpose() * b.J + b.J.transpose() * a.J);
  });
  return M;
}

VectorXd constrained_generalized_forces(const Model& model, double t, const VectorXd& q, const VectorXd& v) {
  VectorXd Q = generalized_forces(model, t, q, v);
  const Vector3d g = to_eigen(vector3(model.gravity));
  for_each_rod(model, q, v, [&](double m, const RodEnd& a, const RodEnd& b) {
    // Gravity on the midpoint, and the velocity-product terms -M_rod Jdot v (seed 001 eq. 18's second term).
    Q += (a.J + b.J).transpose() * (0.5 * m * g);
    Q -= a.J.transpose() * (m / 3.0 * a.bias + m / 6.0 * b.bias) +
         b.J.transpose() * (m / 6.0 * a.bias + m / 3.0 * b.bias);
  });
  return Q;
}

double constrained_kinetic_energy(const Model& model, const VectorXd& q, const VectorXd& v) {
  double energy = kinetic_energy(model, q, v);
  for_each_rod(model, q, v, [&](double m, const RodEnd& a, const RodEnd& b) {
    energy += m / 6.0 * (a.velocity.squaredNorm() + a.velocity.dot(b.velocity) + b.velocity.squaredNorm());
  });
  return energy;
}

double constrained_potential_energy(const Model& model, double t, const VectorXd& q) {
  double energy = potential_energy(model, t, q);
  const Vector3d g = to_eigen(vector3(model.gravity));
  const VectorXd v = VectorXd::Zero(coordinate_layout(model).nv);
  for_each_rod(model, q, v,
               [&](double m, const RodEnd& a, const RodEnd& b) { energy -= m * g.dot(0.5 * (a.p + b.p)); });
  return energy;
}

MatrixXd rod_coupling_matrix(const Model& model, const VectorXd& q) {
  const int nv = coordinate_layout(model).nv;
  MatrixXd C = MatrixXd::Zero(nv, nv);
  for_each_rod(model, q, VectorXd::Zero(nv), [&](double m, const RodEnd& a, const RodEnd& b) {
    C += (m / 6.0) * (a.J.transpose() * b.J + b.J.transpose() * a.J);
  });
  return C;
}

namespace {

ConstrainedDynamics solve_augmented(const Model& model, double t, const VectorXd& q, const VectorXd& v,
                                    const MatrixXd& M, const VectorXd& Q);

}  // namespace

ConstrainedDynamics constrained_forward_dynamics(const Model& model, double t, const VectorXd& q,
                                                 const VectorXd& v) {
  return solve_augmented(model, t, q, v, constrained_mass_matrix(model, q),
                         constrained_generalized_forces(model, t, q, v));
}

ConstrainedDynamics constrained_forward_dynamics(const Model& model, double t, const VectorXd& q,
                                                 const VectorXd& v, const VectorXd& vdot_hat) {
  const MatrixXd C = rod_coupling_matrix(model, q);
  return solve_augmented(model, t, q, v, constrained_mass_matrix(model, q) - C,
                         constrained_generalized_forces(model, t, q, v) - C * vdot_hat);
}

namespace {

ConstrainedDynamics solve_augmented(const Model& model, double t, const VectorXd& q, const VectorXd& v,
                                    const MatrixXd& M, const VectorXd& Q) {
  const constraints::ConstraintEvaluation c = constraints::evaluate_constraints(model, t, q, v);
  const int nv = static_cast<int>(M.rows()), m = static_cast<int>(c.G.rows());

  MatrixXd K = MatrixXd::Zero(nv + m, nv + m);
  K.topLeftCorner(nv, nv) = M;
  K.topRightCorner(nv, m) = c.G.transpose();
  K.bottomLeftCorner(m, nv) = c.G;
  VectorXd rhs(nv + m);
  rhs << Q, c.gamma;

  ConstrainedDynamics out;
  out.constraint_rank = m;
  if (m > 0) {
    Eigen::FullPivLU<MatrixXd> g_lu(c.G);
    g_lu.setThreshold(1e-10);
    out.constraint_rank = static_cast<int>(g_lu.rank());
  }
  VectorXd x;
  if (out.constraint_rank < m) {
    out.status = ConstrainedDynamics::Status::redundant;
    out.message = "redundant constraints: " + std::to_string(m) + " constraint equations, rank " +
                  std::to_string(out.constraint_rank) + "; lambda is the minimum-norm solution";
    x = K.completeOrthogonalDecomposition().solve(rhs);
  } else {
    Eigen::FullPivLU<MatrixXd> lu(K);
    if (!lu.isInvertible()) {
      out.status = ConstrainedDynamics::Status::singular;
      out.message = "the augmented matrix of seed 000 eq. 3 is singular (rank " + std::to_string(lu.rank()) +
                    " of " + std::to_string(nv + m) + ")";
      x = K.completeOrthogonalDecomposition().solve(rhs);
    } else {
      x = lu.solve(rhs);
    }
  }
  out.vdot = x.head(nv);
  out.lambda = x.tail(m);
  return out;
}

}  // namespace

}  // namespace myriad::reference
