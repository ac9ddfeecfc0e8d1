#pragma once
// The project's small fixed-size types as Eigen values, for the host-only Eigen code (constraints, reference path).
#include <Eigen/Dense>

#include "spatial/mat3.hpp"

namespace myriad::kinematics {

inline Eigen::Vector3d to_eigen(const Vec3<double>& a) { return {a.x, a.y, a.z}; }

inline Eigen::Matrix3d to_eigen(const Mat3<double>& a) {
  Eigen::Matrix3d m;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m(i, j) = a.m[i][j];
  return m;
}

}  // namespace myriad::kinematics
