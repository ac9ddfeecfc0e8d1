#pragma once
// Searches in a table of points packed [x_0, y_0, x_1, y_1, ...] with strictly increasing x (time-function tables,
// road profiles, force tables), by bisection: a measured road profile has thousands of points. `c` is anything
// indexable by int that yields double. O(log points).
#include "core/hd.hpp"

namespace myriad {

// The segment s in [0, points - 2] whose interval [x_s, x_{s+1}) holds x; the first and last segments reach to
// -inf and +inf. points >= 2.
template <class C>
MYRIAD_HD_INLINE int table_segment(const C& c, int points, double x) {
  int s = 0, above = points - 1;  // x_s <= x (or s = 0), x < x_above (or above = points - 1)
  while (above - s > 1) {
    const int mid = (s + above) / 2;
    if (x >= c[2 * mid]) s = mid; else above = mid;
  }
  return s;
}

// The index of the first point with x_i > x, or -1 when there is none.
template <class C>
MYRIAD_HD_INLINE int first_point_after(const C& c, int points, double x) {
  if (points == 0 || !(c[2 * (points - 1)] > x)) return -1;
  int below = -1, at = points - 1;  // x_at > x; x_below <= x or below = -1
  while (at - below > 1) {
    const int mid = (below + at) / 2;
    if (c[2 * mid] > x) at = mid; else below = mid;
  }
  return at;
}

}  // namespace myriad
