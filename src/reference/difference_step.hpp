#pragma once
// The finite-difference step of the reference path's Jacobians for a value v: cbrt(eps) max(1, |v|), which
// balances the O(h^2) truncation of a central difference against its O(eps / h) round-off.
#include <algorithm>
#include <cmath>

namespace myriad::reference {

inline double central_difference_step(double v) { return 6.0554544523933395e-06 * std::max(1.0, std::abs(v)); }

}  // namespace myriad::reference
