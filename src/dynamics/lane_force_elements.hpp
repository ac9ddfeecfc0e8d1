#pragma once
// The lane forms (core/lanes.hpp) of the force elements' pieces that branch on a value: time functions and force
// tables run per lane with the scalar code over each lane's own constants, a one-sided element's cut selects per
// lane. Found by argument-dependent lookup from dynamics/force_elements.hpp's templates; each lane gets the
// scalar path's bits. The same pieces on Dual<Lanes> (the Jacobian passes of dynamics/lane_tree_second_order.hpp)
// run each lane's Dual<double> through the scalar code.
#include "core/lane_dual.hpp"
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

// ---- on Dual<Lanes> ----

template <int W, int N>
inline void time_function_inputs(const CompiledModel& model, const LaneConstants<W>& k, int index,
                                 const LaneDual<W, N>& t, LaneDual<W, N>& value, LaneDual<W, N>& rate) {
  for (int j = 0; j < W; ++j) {
    Dual<double, N> v, r;
    time_function_inputs(model, k.rows[j], index, lane_of(t, j), v, r);
    set_lane(value, j, v);
    set_lane(rate, j, r);
  }
}

template <class S, int W, int N>
inline S actuator_input(const CompiledModel& model, const LaneConstants<W>& k, int index,
                        const LaneDual<W, N>& t) {
  S r;
  for (int j = 0; j < W; ++j)
    set_lane(r, j, actuator_input<Dual<double, N>>(model, k.rows[j], index, lane_of(t, j)));
  return r;
}

template <int W, int N>
inline void cut_one_sided(int acts, const LaneDual<W, N>& stretch, LaneDual<W, N>& tension,
                          LaneDual<W, N>& damper) {
  for (int j = 0; j < W; ++j) {
    Dual<double, N> t = lane_of(tension, j), d = lane_of(damper, j);
    cut_one_sided(acts, lane_of(stretch, j), t, d);
    set_lane(tension, j, t);
    set_lane(damper, j, d);
  }
}

template <int W, int N>
inline LaneDual<W, N> table_force(const ConstantsView<LaneConstants<W>>& c, int points, const LaneDual<W, N>& x) {
  LaneDual<W, N> f;
  for (int j = 0; j < W; ++j) {
    const double* row = c.k.rows[j];
    set_lane(f, j, table_force(ConstantsView<const double*>{row, c.offset}, points, lane_of(x, j)));
  }
  return f;
}

}  // namespace myriad
