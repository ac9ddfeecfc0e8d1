#include "model/road_packing.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

#include "core/philox.hpp"
#include "core/scalar.hpp"
#include "model/road_profile.hpp"

namespace myriad {
namespace {

// Road draws live apart from the stepping API's episode draws of the same seed: the episode word carries this
// bit and the track.
constexpr std::uint32_t kRoadStream = 0x80000000u;

double phase_draw(std::uint64_t seed, long long instance, int track, int k) {
  return 2.0 * kPi *
         philox_uniform(seed, static_cast<std::uint32_t>(instance), kRoadStream | static_cast<std::uint32_t>(track),
                        static_cast<std::uint64_t>(k));
}

}  // namespace

double iso8608_class_value(char road_class, int bound) {
  if (road_class < 'A' || road_class > 'H') return std::numeric_limits<double>::quiet_NaN();
  if ((road_class == 'A' && bound < 0) || (road_class == 'H' && bound > 0))
    return std::numeric_limits<double>::quiet_NaN();
  const int index = road_class - 'A';
  // Geometric mean 16e-6 * 4^index; the bounds a factor 2 below and above it (the notes' table).
  return 16e-6 * std::pow(4.0, index) * std::pow(2.0, bound);
}

double iso8608_variance(double gd_n0, double n_min, double n_max) {
  return gd_n0 * kIso8608N0 * kIso8608N0 * (1.0 / n_min - 1.0 / n_max);
}

int pack_road_profile(const TimeFunction& f, std::vector<double>& out) {
  const int harmonics = f.harmonics;
  out.insert(out.end(), {f.speed.value, f.distance.value, f.fade_in.value});
  const double n_min = f.n_min.value, n_max = f.n_max.value, ratio = n_max / n_min;
  const std::uint64_t seed = static_cast<std::uint64_t>(f.seed.value);
  const double c = f.coherence.value;
  for (int k = 0; k < harmonics; ++k) {
    const double a = n_min * std::pow(ratio, static_cast<double>(k) / harmonics);
    const double b = k + 1 == harmonics ? n_max : n_min * std::pow(ratio, static_cast<double>(k + 1) / harmonics);
    double amplitude = std::sqrt(2.0 * iso8608_variance(f.gd_n0.value, a, b));
    double phase = phase_draw(seed, f.instance, 0, k);
    if (f.track == 1) {
      // The right track: sqrt(c) times the left harmonic plus sqrt(1 - c) times an independent one, so the
      // coherence (squared) between the tracks is c at every frequency and the expected power is unchanged.
      const double independent = phase_draw(seed, f.instance, 1, k);
      const double re = std::sqrt(c) * std::cos(phase) + std::sqrt(1.0 - c) * std::cos(independent);
      const double im = std::sqrt(c) * std::sin(phase) + std::sqrt(1.0 - c) * std::sin(independent);
      amplitude *= std::hypot(re, im);
      phase = std::atan2(im, re);
    }
    out.insert(out.end(), {2.0 * kPi * std::sqrt(a * b), amplitude, phase});
  }
  return harmonics;
}

}  // namespace myriad
