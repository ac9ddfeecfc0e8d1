#include "model/model_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "spatial/quaternion.hpp"

namespace myriad {

Vec3<double> vector3(const Vector3& v) { return {v[0].value, v[1].value, v[2].value}; }

double largest_magnitude(const Vector3& v) {
  return std::max({std::abs(v[0].value), std::abs(v[1].value), std::abs(v[2].value)});
}

Vec3<double> unit_vector3(const Vector3& v) {
  // Divided by the largest |component| first: the squares of [1e200, 1e200, 1e200] would overflow to inf (and
  // the axis become 0), those of [1e-160, ...] underflow into denormals that keep a few digits. Dividing (not
  // multiplying by the reciprocal) makes that component exactly +-1, so [s, s, s] gives [1, 1, 1]'s unit
  // vector bit for bit whatever s.
  const Vec3<double> a = vector3(v);
  const double scale = largest_magnitude(v);
  if (!(scale > 0.0) || !std::isfinite(scale)) return a;
  const Vec3<double> b{a.x / scale, a.y / scale, a.z / scale};
  return (1.0 / norm(b)) * b;
}

bool normalize_quaternion(double* q) {
  const double scale = std::max({std::abs(q[0]), std::abs(q[1]), std::abs(q[2]), std::abs(q[3])});
  if (!(scale > 0.0) || !std::isfinite(scale)) return false;
  double squared = 0.0;
  for (int i = 0; i < 4; ++i) {
    q[i] /= scale;
    squared += q[i] * q[i];
  }
  const double n = std::sqrt(squared);
  for (int i = 0; i < 4; ++i) q[i] /= n;
  return true;
}

Mat3<double> rotation_matrix(const Rotation& r) {
  switch (r.kind) {
    case Rotation::Kind::identity: return Mat3<double>::identity();
    case Rotation::Kind::axis_angle: return rotation_about_axis(unit_vector3(r.axis), r.angle.value);
    case Rotation::Kind::rpy: {
      const Vec3<double> x{1, 0, 0}, y{0, 1, 0}, z{0, 0, 1};
      return rotation_about_axis(z, r.rpy[2].value) * rotation_about_axis(y, r.rpy[1].value) *
             rotation_about_axis(x, r.rpy[0].value);
    }
    case Rotation::Kind::quaternion: {
      double q[4] = {r.quaternion[0].value, r.quaternion[1].value, r.quaternion[2].value,
                     r.quaternion[3].value};
      if (!normalize_quaternion(q)) return Mat3<double>::identity();  // refused by validation before any use
      return rotation_matrix(Quat<double>{q[0], q[1], q[2], q[3]});
    }
    case Rotation::Kind::matrix: {
      Mat3<double> m;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) m.m[i][j] = r.matrix[static_cast<size_t>(3 * i + j)].value;
      return m;
    }
  }
  return Mat3<double>::identity();
}

Transform<double> frame_transform(const Frame& frame) {
  return {rotation_matrix(frame.rotation), vector3(frame.origin)};
}

void resolve_design_lengths(Model& model) {
  bool any = false;
  for (const Loop& loop : model.loops) any = any || loop.length_from_design;
  if (!any) return;
  // Joints are parent-first, one per body: at zero coordinates M coincides with F, so X_WC = X_WP X_PF X_CM^-1.
  std::vector<Transform<double>> X_W(model.bodies.size(), Transform<double>::identity());
  for (const Joint& joint : model.joints) {
    const Transform<double> X_WP =
        joint.parent < 0 ? Transform<double>::identity() : X_W[static_cast<size_t>(joint.parent)];
    X_W[static_cast<size_t>(joint.child)] =
        X_WP * frame_transform(joint.parent_frame) * inverse(frame_transform(joint.child_frame));
  }
  const auto world_point = [&](int body, const Vector3& point) {
    return body < 0 ? vector3(point) : transform_point(X_W[static_cast<size_t>(body)], vector3(point));
  };
  for (Loop& loop : model.loops) {
    if (!loop.length_from_design) continue;
    const Vec3<double> d = world_point(loop.body2, loop.point2) - world_point(loop.body1, loop.point1);
    loop.length.value = std::sqrt(dot(d, d));
  }
}

Mat3<double> inertia_matrix(const std::array<Number, 6>& in) {
  const double ixx = in[0].value, iyy = in[1].value, izz = in[2].value;
  const double ixy = in[3].value, ixz = in[4].value, iyz = in[5].value;
  return {{{ixx, ixy, ixz}, {ixy, iyy, iyz}, {ixz, iyz, izz}}};
}

void planar_basis(const Vec3<double>& n, Vec3<double>& e1, Vec3<double>& e2) {
  Vec3<double> r{1, 0, 0};
  if (std::abs(n.x) > 0.9) r = {0, 1, 0};
  const Vec3<double> t = r - dot(r, n) * n;
  e1 = (1.0 / norm(t)) * t;
  e2 = cross(n, e1);
}

std::string check_mass(double mass) {
  if (!(mass > 0.0) || !std::isfinite(mass)) {
    std::ostringstream s;
    s << "mass must be positive and finite, got " << mass;
    return s.str();
  }
  return {};
}

namespace {

// Eigenvalues of a symmetric 3x3 matrix (closed form, trigonometric); ascending.
void symmetric_eigenvalues(const Mat3<double>& a, double ev[3]) {
  const double p1 = a.m[0][1] * a.m[0][1] + a.m[0][2] * a.m[0][2] + a.m[1][2] * a.m[1][2];
  const double q = (a.m[0][0] + a.m[1][1] + a.m[2][2]) / 3.0;
  if (p1 == 0.0) {
    ev[0] = a.m[0][0];
    ev[1] = a.m[1][1];
    ev[2] = a.m[2][2];
  } else {
    const double p2 = (a.m[0][0] - q) * (a.m[0][0] - q) + (a.m[1][1] - q) * (a.m[1][1] - q) +
                      (a.m[2][2] - q) * (a.m[2][2] - q) + 2.0 * p1;
    const double p = std::sqrt(p2 / 6.0);
    Mat3<double> b = (1.0 / p) * (a - q * Mat3<double>::identity());
    const double det = b.m[0][0] * (b.m[1][1] * b.m[2][2] - b.m[1][2] * b.m[2][1]) -
                       b.m[0][1] * (b.m[1][0] * b.m[2][2] - b.m[1][2] * b.m[2][0]) +
                       b.m[0][2] * (b.m[1][0] * b.m[2][1] - b.m[1][1] * b.m[2][0]);
    const double r = std::clamp(det / 2.0, -1.0, 1.0);
    const double phi = std::acos(r) / 3.0;
    ev[2] = q + 2.0 * p * std::cos(phi);
    ev[0] = q + 2.0 * p * std::cos(phi + 2.0 * kPi / 3.0);
    ev[1] = 3.0 * q - ev[0] - ev[2];
  }
  std::sort(ev, ev + 3);
}

}  // namespace

std::string check_inertia(const Mat3<double>& I) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (!std::isfinite(I.m[i][j])) return "inertia has a non-finite entry";
  double ev[3];
  symmetric_eigenvalues(I, ev);
  std::ostringstream s;
  s.precision(6);
  if (!(ev[0] > 0.0)) {
    s << "inertia is not positive definite (principal moments " << ev[0] << ", " << ev[1] << ", " << ev[2] << ")";
    return s.str();
  }
  const double scale = ev[2];
  if (ev[0] + ev[1] < ev[2] - 1e-12 * scale) {
    s << "inertia violates the triangle inequality (principal moments " << ev[0] << ", " << ev[1] << ", " << ev[2]
      << ")";
    return s.str();
  }
  return {};
}

}  // namespace myriad
