#pragma once
// The times an integration reports at and ends on, as the integrators index them: times[i] for i < count, the
// last one the end. A plain `const double*` is one such sequence; SegmentTimes is another, the part of a run's
// output grid that one piece of a piecewise integration covers (ensemble/simulate_instance.hpp), read in place.
#include "core/hd.hpp"

namespace myriad {

// A segment's times: the run's output times outputs[0 .. count - 1], then, at index count, `end` (an input
// breakpoint the segment ends on that is no output time; only read when the caller passes count + 1 times).
// Costs no copy of the run's times, so an instance's scratch does not grow with the number of outputs.
struct SegmentTimes {
  const double* outputs;
  int count;
  double end;

  MYRIAD_HD_INLINE double operator[](int i) const { return i < count ? outputs[i] : end; }
};

}  // namespace myriad
