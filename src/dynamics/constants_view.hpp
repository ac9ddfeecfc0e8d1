#pragma once
// A window into an instance's constants (a pointer on the host, strided on the device) starting at `offset`,
// indexable like an array: force tables, time functions and a tire's coefficients read through it.
#include "core/hd.hpp"

namespace myriad {

template <class K>
struct ConstantsView {
  const K& k;
  int offset;
  MYRIAD_HD_INLINE auto operator[](int i) const { return k[offset + i]; }
};

}  // namespace myriad
