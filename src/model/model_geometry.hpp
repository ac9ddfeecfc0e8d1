#pragma once
// Evaluation of a model's literal geometry: rotations, frames, inertia matrices, normalized axes. Host-only; the
// model must have had its parameters applied (all Numbers literal).
#include <array>
#include <string>

#include "model/model.hpp"
#include "spatial/transform.hpp"

namespace myriad {

Mat3<double> rotation_matrix(const Rotation& rotation);
Transform<double> frame_transform(const Frame& frame);  // X_BF of the frame F on body B
Vec3<double> vector3(const Vector3& v);
double largest_magnitude(const Vector3& v);  // max |component|: zero exactly for the zero vector
// Normalized after scaling by the largest |component|, so any finite non-zero vector gives a unit vector to
// full precision, however large or small its components; zero and non-finite vectors come back unchanged.
Vec3<double> unit_vector3(const Vector3& v);
// Normalizes the quaternion (w, x, y, z) at q[0..3] in place, scaled first as unit_vector3; false (q
// unchanged) when it is zero or not finite.
bool normalize_quaternion(double* q);
Mat3<double> inertia_matrix(const std::array<Number, 6>& inertia);  // ixx, iyy, izz, ixy, ixz, iyz

// Sets the length of every distance or rod loop whose file says "length": "design" to the distance between its
// points with every joint at zero coordinates (identity quaternions): the design position of a template, whose
// body frames then all coincide with the chassis frame. Reads the Numbers' current values (defaults at load, an
// instance's once its parameters are applied); never throws (validation refuses a zero or non-finite length).
// O(bodies + loops).
void resolve_design_lengths(Model& model);

// In-plane unit vectors of a planar joint with normal n (docs/model-format.md).
void planar_basis(const Vec3<double>& n, Vec3<double>& e1, Vec3<double>& e2);

// Physical checks that parameters can break; return an empty string when fine, else the reason.
std::string check_mass(double mass);
std::string check_inertia(const Mat3<double>& I_cm);

}  // namespace myriad
