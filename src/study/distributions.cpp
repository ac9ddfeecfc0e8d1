#include "study/distributions.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace myriad::study {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Horner evaluation of c[0] + c[1] r + ... + c[7] r^7, AS241's degree-7 polynomials.
double poly7(const double (&c)[8], double r) {
  double s = c[7];
  for (int i = 6; i >= 0; --i) s = s * r + c[i];
  return s;
}

// Wichura 1988, Algorithm AS241 PPND16 (Applied Statistics 37, 477-484): three rational approximations, for
// |p - 1/2| <= 0.425, for r = sqrt(-log(min(p, 1-p))) <= 5, and beyond (down to p ~ 1e-300 and below).
constexpr double kA[8] = {3.3871328727963666080e0, 1.3314166789178437745e2, 1.9715909503065514427e3,
                          1.3731693765509461125e4, 4.5921953931549871457e4, 6.7265770927008700853e4,
                          3.3430575583588128105e4, 2.5090809287301226727e3};
constexpr double kB[8] = {1.0000000000000000000e0, 4.2313330701600911252e1, 6.8718700749205790830e2,
                          5.3941960214247511077e3, 2.1213794301586595867e4, 3.9307895800092710610e4,
                          2.8729085735721942674e4, 5.2264952788528545610e3};
constexpr double kC[8] = {1.42343711074968357734e0,  4.63033784615654529590e0, 5.76949722146069140550e0,
                          3.64784832476320460504e0,  1.27045825245236838258e0, 2.41780725177450611770e-1,
                          2.27238449892691845833e-2, 7.74545014278341407640e-4};
constexpr double kD[8] = {1.0000000000000000000e0,   2.05319162663775882187e0,  1.67638483018380384940e0,
                          6.89767334985100004550e-1, 1.48103976427480074590e-1, 1.51986665636164571966e-2,
                          5.47593808499534494600e-4, 1.05075007164441684324e-9};
constexpr double kE[8] = {6.65790464350110377720e0,  5.46378491116411436990e0,  1.78482653991729133580e0,
                          2.96560571828504891230e-1, 2.65321895265761230930e-2, 1.24266094738807843860e-3,
                          2.71155556874348757815e-5, 2.01033439929228813265e-7};
constexpr double kF[8] = {1.0000000000000000000e0,   5.99832206555887937690e-1, 1.36929880922735805310e-1,
                          1.48753612908506148525e-2, 7.86869131145613259100e-4, 1.84631831751005468180e-5,
                          1.42151175831644588870e-7, 2.04426310338993978564e-15};

// Z - a given Z > a, for a so large (> ~37.5) that Phi(-a) underflows. With the Mills ratio's asymptotic
// series Phi(-x) = phi(x) / x c(x), c(x) = 1 - 1/x^2 + 3/x^4 - 15/x^6 (next term 105/x^8 < 1e-10 here;
// Abramowitz & Stegun 26.2.12), its survival function is Phi(-a-t) / Phi(-a) = exp(-g(t)), g(t) = a t + t^2/2
// + log((a + t) c(a) / (a c(a + t))). Truncated at w = b - a, the excess solves g(t) = -log(1 - v (1 -
// exp(-g(w)))), v in [0, 1] counting from a: start from the root of the quadratic part and polish by Newton
// (g' ~ a + t + 1/(a + t)).
double far_tail_excess(double a, double w, double v) {
  auto c = [](double x) {
    const double y = 1.0 / (x * x);
    return 1.0 - y * (1.0 - y * (3.0 - 15.0 * y));
  };
  auto g = [a, &c](double t) { return a * t + 0.5 * t * t + std::log1p(t / a) + std::log(c(a) / c(a + t)); };
  const double mass = w < kInf ? -std::expm1(-g(w)) : 1.0;
  const double l = -std::log1p(-v * mass);
  if (!(l < kInf)) return w;
  double t = 2.0 * l / (a + std::sqrt(a * a + 2.0 * l));  // t^2 / 2 + a t = l, without cancellation
  for (int i = 0; i < 2; ++i) t -= (g(t) - l) / (a + t + 1.0 / (a + t));
  return std::clamp(t, 0.0, w);
}

// The standard normal truncated to [a, b], a < b, at u in [0, 1].
double truncated_standard_quantile(double a, double b, double u) {
  double z = kNaN;
  if (a >= 0.0) {
    // Both bounds above the mean: Phi(a) and Phi(b) would round towards 1 and lose the digits of their
    // difference, so invert the mirror image, whose tail probabilities Phi(-a) > Phi(-b) keep full relative
    // accuracy: Z = -Phi^-1(Phi(-a) - u (Phi(-a) - Phi(-b))).
    const double pa = normal_cdf(-a), pb = normal_cdf(-b);
    z = pa > pb ? -normal_quantile(std::max(pa - u * (pa - pb), 0.0)) : a + far_tail_excess(a, b - a, u);
  } else {
    // Straddling the mean (no cancellation: Phi(b) - Phi(a) is not small) or below it (the lower tail is
    // accurate).
    const double pa = normal_cdf(a), pb = normal_cdf(b);
    z = pb > pa ? normal_quantile(std::min(pa + u * (pb - pa), 1.0))
                : b - far_tail_excess(-b, b - a, 1.0 - u);
  }
  return std::isnan(z) ? a + u * (b - a) : std::clamp(z, a, b);
}

}  // namespace

double normal_cdf(double x) {
  // Phi(x) = erfc(-x / sqrt 2) / 2. Far in the lower tail erfc's relative condition number is about 2 z^2
  // (~1400 at Phi = 1e-300), so the rounding of z = -x / sqrt 2 alone would cost three digits: carry z as z +
  // dz (sqrt(1/2) split in two doubles, the product's error from fma) and apply dz to first order, d erfc /
  // dz = -2/sqrt(pi) e^-z^2.
  constexpr double kSqrtHalfHi = 0x1.6a09e667f3bcdp-1, kSqrtHalfLo = -4.833646656726457e-17;
  constexpr double kTwoOverSqrtPi = 1.1283791670955126;
  const double z = -x * kSqrtHalfHi;
  const double dz = std::fma(-x, kSqrtHalfHi, -z) - x * kSqrtHalfLo;
  const double e = std::erfc(z);
  if (!(z >= 1.0 && z < kInf)) return 0.5 * e;  // the correction matters only in the lower tail
  return 0.5 * (e - kTwoOverSqrtPi * std::exp(-z * z) * dz);
}

double normal_quantile(double p) {
  if (!(p >= 0.0 && p <= 1.0)) return kNaN;
  if (p == 0.0) return -kInf;
  if (p == 1.0) return kInf;
  const double q = p - 0.5;
  if (std::fabs(q) <= 0.425) {
    const double r = 0.180625 - q * q;
    return q * poly7(kA, r) / poly7(kB, r);
  }
  // 1 - p is exact for p > 0.5 (Sterbenz), so the upper tail is as accurate as the grid of doubles near 1
  // allows.
  double r = std::sqrt(-std::log(q < 0.0 ? p : 1.0 - p));
  double x;
  if (r <= 5.0) {
    r -= 1.6;
    x = poly7(kC, r) / poly7(kD, r);
  } else {
    r -= 5.0;
    x = poly7(kE, r) / poly7(kF, r);
  }
  return q < 0.0 ? -x : x;
}

double quantile(const Distribution& d, double u) {
  if (!(u >= 0.0 && u <= 1.0)) return kNaN;
  switch (d.kind) {
    case DistributionKind::uniform:
      if (!(d.lower <= d.upper)) throw std::invalid_argument("quantile: uniform lower > upper");
      return std::min(d.lower + u * (d.upper - d.lower), d.upper);
    case DistributionKind::normal:
      if (!(d.sd >= 0.0)) throw std::invalid_argument("quantile: normal sd < 0");
      return d.sd == 0.0 ? d.mean : d.mean + d.sd * normal_quantile(u);
    case DistributionKind::lognormal:
      if (!(d.sd >= 0.0)) throw std::invalid_argument("quantile: lognormal sigma < 0");
      return d.sd == 0.0 ? std::exp(d.mean) : std::exp(d.mean + d.sd * normal_quantile(u));
    case DistributionKind::truncated_normal: {
      if (!(d.lower <= d.upper)) throw std::invalid_argument("quantile: truncated_normal lower > upper");
      if (!(d.sd >= 0.0)) throw std::invalid_argument("quantile: truncated_normal sd < 0");
      if (d.lower == d.upper) return d.lower;
      if (d.sd == 0.0) return std::clamp(d.mean, d.lower, d.upper);
      const double a = (d.lower - d.mean) / d.sd, b = (d.upper - d.mean) / d.sd;
      return std::clamp(d.mean + d.sd * truncated_standard_quantile(a, b, u), d.lower, d.upper);
    }
    case DistributionKind::levels: {
      if (d.levels.empty()) throw std::invalid_argument("quantile: levels empty");
      const auto n = static_cast<double>(d.levels.size());
      const double k = std::min(std::floor(u * n), n - 1.0);
      return d.levels[static_cast<std::size_t>(k)];
    }
  }
  return kNaN;
}

}  // namespace myriad::study
