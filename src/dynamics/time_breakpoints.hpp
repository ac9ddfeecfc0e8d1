#pragma once
// Times where a model's inputs are not smooth: jumps of steps, kinks of ramps, ends of smooth steps and bumps,
// table points, the ends of a road's fade-in. An adaptive integrator that steps across one either wastes rejected steps on it or, when the
// input is zero on both sides of a short bump, steps over it unseen; integrating piecewise between breakpoints
// avoids both (the integrator restarts there, as after any discontinuity). O(time functions) per query (a table's
// next point by bisection).
#include "core/hd.hpp"
#include "core/point_table.hpp"
#include "dynamics/force_elements.hpp"
#include "model/compiled_model.hpp"
#include "model/time_function.hpp"

namespace myriad {

// The first breakpoint of any time function strictly after `t`, or `none` if there is none.
template <class K>
MYRIAD_HD double next_time_breakpoint(const CompiledModel& model, const K& k, double t, double none) {
  double next = none;
  auto consider = [&](double candidate) {
    if (candidate > t && candidate < next) next = candidate;
  };
  for (int i = 0; i < model.n_time_functions; ++i) {
    const CompiledTimeFunction& f = model.time_functions[i];
    const int c = f.constants;
    switch (f.kind) {
      case kTfStep:
      case kTfRamp: consider(k[c]); break;
      case kTfSmoothStep:
        consider(k[c]);
        consider(k[c + 1]);
        break;
      case kTfHalfSineBump:
      case kTfHaversineBump:
      case kTfSineSweep:
      case kTfVelocitySweep:
      case kTfCylinderBump:
        consider(k[c]);
        consider(k[c] + k[c + 1]);
        break;
      case kTfTable: {
        const ConstantsView<K> table{k, c};
        const int after = first_point_after(table, f.points, t);
        if (after >= 0) consider(table[2 * after]);
        break;
      }
      case kTfIso8608Road: {
        // The fade-in's ends, where x = speed t + distance crosses 0 and fade_in (its second derivative jumps).
        const double speed = k[c + kRoadSpeed], fade = k[c + kRoadFadeIn];
        if (fade > 0.0 && speed > 0.0) {
          consider(-k[c + kRoadDistance] / speed);
          consider((fade - k[c + kRoadDistance]) / speed);
        }
        break;
      }
      default: break;
    }
  }
  return next;
}

}  // namespace myriad
