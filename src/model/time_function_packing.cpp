#include "model/time_function_packing.hpp"

#include <cmath>

#include "model/road_packing.hpp"

namespace myriad {

int pack_time_function(const TimeFunction& f, std::vector<double>& out) {
  switch (f.kind) {
    case TimeFunction::Kind::constant:
    case TimeFunction::Kind::input: out.push_back(f.value.value); return 0;
    case TimeFunction::Kind::step: out.insert(out.end(), {f.t0.value, f.before.value, f.after.value}); return 0;
    case TimeFunction::Kind::ramp: out.insert(out.end(), {f.t0.value, f.slope.value, f.offset.value}); return 0;
    case TimeFunction::Kind::sine:
      out.insert(out.end(), {f.amplitude.value, 2.0 * kPi * f.frequency.value, f.phase.value, f.offset.value});
      return 0;
    case TimeFunction::Kind::smooth_step:
      out.insert(out.end(), {f.t0.value, f.t1.value, f.from.value, f.to.value});
      return 0;
    case TimeFunction::Kind::half_sine_bump:
      out.insert(out.end(), {f.t0.value, f.duration.value, f.height.value});
      return 0;
    case TimeFunction::Kind::table:
      for (const auto& point : f.table) out.insert(out.end(), {point[0].value, point[1].value});
      return static_cast<int>(f.table.size());
    case TimeFunction::Kind::iso8608_road: return pack_road_profile(f, out);
    case TimeFunction::Kind::haversine_bump:
      out.insert(out.end(), {f.t0.value, f.duration.value, f.height.value});
      return 0;
    case TimeFunction::Kind::sine_sweep:
      out.insert(out.end(), {f.t0.value, f.duration.value, f.amplitude.value, f.f0.value, f.f1.value});
      return 0;
    case TimeFunction::Kind::velocity_sweep:
      out.insert(out.end(), {f.t0.value, f.duration.value, f.velocity.value, f.f0.value, f.f1.value});
      return 0;
    case TimeFunction::Kind::profile:
      // The wheel is at x = distance + speed t: point k is passed at t_k = (x_k - distance) / speed (> 0).
      for (const auto& point : f.table)
        out.insert(out.end(), {(point[0].value - f.distance.value) / f.speed.value, point[1].value});
      return static_cast<int>(f.table.size());
    case TimeFunction::Kind::cylinder_bump: {
      // The wheel centre stays R + r from the obstacle's axis while they touch: contact over a half chord
      // a = sqrt((R + r)^2 - R^2) either side of it, so the bump lasts 2 a / speed.
      const double r = f.radius.value, R = f.tire_radius.value, speed = f.speed.value;
      const double half_chord = std::sqrt(r * (r + 2.0 * R));
      out.insert(out.end(), {f.t0.value, 2.0 * half_chord / speed, speed, R + r, R});
      return 0;
    }
  }
  return 0;
}

TimeValue evaluate_time_function(const TimeFunction& f, double t) {
  std::vector<double> coefficients;
  const int points = pack_time_function(f, coefficients);
  return evaluate_time_function(packed_time_function_kind(f), coefficients.data(), points, t);
}

int packed_time_function_kind(const TimeFunction& f) {
  switch (f.kind) {
    case TimeFunction::Kind::input: return kTfConstant;
    case TimeFunction::Kind::iso8608_road: return kTfIso8608Road;
    case TimeFunction::Kind::haversine_bump: return kTfHaversineBump;
    case TimeFunction::Kind::sine_sweep: return kTfSineSweep;
    case TimeFunction::Kind::velocity_sweep: return kTfVelocitySweep;
    case TimeFunction::Kind::profile: return kTfTable;
    case TimeFunction::Kind::cylinder_bump: return kTfCylinderBump;
    default: return static_cast<int>(f.kind);
  }
}

double rsda_effective_zero_angle(double zero_angle, double q_initial, bool shortest) {
  if (!shortest) return zero_angle;
  const double deflection = q_initial - zero_angle;
  const double turns = std::ceil((deflection - kPi) / (2.0 * kPi));
  return zero_angle + 2.0 * kPi * turns;
}

}  // namespace myriad
