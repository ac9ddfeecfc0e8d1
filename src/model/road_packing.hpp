#pragma once
// Host side of the ISO 8608 road (model/road_profile.hpp): the class values of G_d(n0), and the packing of a
// road's harmonics for one instance. ISO 8608 convention used throughout: one-sided displacement PSD in cycles/m,
// G_d(n) = G_d(n0) (n / n0)^-2, n0 = 0.1 cycles/m (shared/notes/suspension-notes.md, "Roads: ISO 8608").
#include <vector>

#include "model/model.hpp"

namespace myriad {

constexpr double kIso8608N0 = 0.1;  // reference spatial frequency, cycles/m

// G_d(n0) in m^3 of class 'A'..'H' as its lower bound (bound -1), geometric mean (0) or upper bound (1); the
// classes double in steps of 4 (16e-6 m^3 for A's mean). NaN for a bound ISO 8608 leaves open (A's lower, H's
// upper) or a letter outside A-H.
double iso8608_class_value(char road_class, int bound);

// The variance of the profile over [n_min, n_max]: G_d(n0) n0^2 (1/n_min - 1/n_max) (the integral of G_d).
double iso8608_variance(double gd_n0, double n_min, double n_max);

// Appends the packed road of `f` (parameters applied, keyed to its instance): `harmonics` log-spaced bands of
// [n_min, n_max], each a harmonic at the band's geometric centre whose power A_k^2 / 2 is the exact integral of
// G_d over the band (so the powers sum to iso8608_variance), phases from Philox keyed by (seed, instance, track).
// Returns the number of harmonics. O(harmonics).
int pack_road_profile(const TimeFunction& f, std::vector<double>& out);

}  // namespace myriad
