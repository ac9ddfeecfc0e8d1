#pragma once
// The lane forms (core/lanes.hpp) of the force elements' pieces that branch on a value: time functions and force
// tables run per lane with the scalar code over each lane's own constants, a one-sided element's cut selects per
// lane. Found by argument-dependent lookup from dynamics/force_elements.hpp's templates; each lane gets the
// scalar path's bits.
#include "core/lanes.hpp"
#include "dynamics/force_elements.hpp"

namespace myriad {

template <int W>
inline void time_function_inputs(const CompiledModel& model, const LaneConstants<W>& k, int index,
                                 const Lanes<W>& t, Lanes<W>& value, Lanes<W>& rate) {
  for (int j = 0; j < W; ++j) {
    double v, r;
    time_function_inputs(model, k.rows[j], index, t[j], v, r);
    value.set(j, v);
    rate.set(j, r);
  }
}

template <class S, int W>
inline S actuator_input(const CompiledModel& model, const LaneConstants<W>& k, int index, const Lanes<W>& t) {
  S r;
  for (int j = 0; j < W; ++j) r.set(j, actuator_input<double>(model, k.rows[j], index, t[j]));
  return r;
}

template <int W>
inline void cut_one_sided(int acts, const Lanes<W>& stretch, Lanes<W>& tension, Lanes<W>& damper) {
  bool acting[W];
  for (int j = 0; j < W; ++j) {
    const double x = stretch[j], value = tension[j];
    acting[j] = acts == 1 ? x < 0.0 && value <= 0.0 : x > 0.0 && value >= 0.0;
  }
  tension = lanes_select(acting, tension, Lanes<W>(0.0));
  damper = lanes_select(acting, damper, Lanes<W>(0.0));
}

template <int W>
inline Lanes<W> table_force(const ConstantsView<LaneConstants<W>>& c, int points, const Lanes<W>& x) {
  Lanes<W> f;
  for (int j = 0; j < W; ++j) {
    const double* row = c.k.rows[j];
    f.set(j, table_force(ConstantsView<const double*>{row, c.offset}, points, x[j]));
  }
  return f;
}

}  // namespace myriad
