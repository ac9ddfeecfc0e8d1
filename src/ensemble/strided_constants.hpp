#pragma once
// Instance constants read straight from the ensemble's structure-of-arrays table: entry c of instance i at
// base[c * stride + i]. Neighbouring GPU threads (instances) then read neighbouring addresses.
#include "core/hd.hpp"

namespace myriad {

struct StridedConstants {
  const double* base;  // &constants[instance]
  long long stride;    // number of instances in the table
  MYRIAD_HD_INLINE double operator[](int c) const { return base[c * stride]; }
};

}  // namespace myriad
