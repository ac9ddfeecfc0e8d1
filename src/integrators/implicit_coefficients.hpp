#pragma once
// The coefficients of the seed 003 integrators (integrators/implicit_methods.hpp) as functions of rho_inf, built
// on the host. The seed prints only the rho_inf-Bathe method's (eq. 7); the others are those of its references
// [21, 35, 36] as implemented in MBDyn by the seed's first author (Zhang; MBDyn's multistagestepsol_impl.cc,
// singlestepsol_impl.cc and ms34stepsol.cc), written here from their formulas and cross-checked against the
// published Butcher tables (SUNDIALS' ARKODE tables for Kennedy & Carpenter's ESDIRKs) and against the order
// conditions, stability limits and LMS equivalences that tests/integrators/implicit_coefficients_test.cpp checks.
//
//   * LMS2/3/4 (seed [36]): sum_j beta_j zeta^(r-j) = beta_0 (zeta + rho)^r, so every root at infinity is -rho;
//     LMS2 at rho = 0 is BDF2. LMS3/LMS4 at rho = 0 are second-order formulas of BDF form, not BDF3/BDF4.
//   * SS2/3/4 ([36]): gamma_even = 1/(1 + rho), gamma_odd = 1/2 + kappa (1 - rho)/(1 + rho) with kappa = 1 (SS2),
//     the roots of 6 kappa^2 - 9 kappa + 4 (SS3: 3/4 +- i sqrt(15)/12) and of 20 kappa^3 - 40 kappa^2 + 29 kappa
//     - 8 (SS4): the values that make the SS recursion's characteristic polynomial LMS(r)'s.
//   * rho_inf-Bathe: seed eq. 7.
//   * MSSTC(n) ([35]): trapezoidal sub-steps 2 gamma for stages 2..n, then a last stage with weights q_0..q_n-1
//     that give order 2 and R(-inf) = -+rho; gamma makes |R(i w)|^2 = 1 + O(w^2n) (low-frequency dynamics kept).
//     MSSTC(3)'s gamma is the root in (1/6, 0.1805] of 24 (1 + rho) g^4 - 8 (rho + 9) g^3 + 48 g^2 - 12 g + 1 (any
//     rho); MSSTC(4)'s and MSSTC(5)'s are tabulated at rho = 0, 0.1, ..., 1 (MBDyn tabulates them there only; the
//     values are the 25-digit roots of the defining conditions, computed for this project).
//   * MSSTH(n), the seed's modified version (appendix, not in the extracted text): trapezoidal stage 2, every stage
//     of stage order 2, the last row the order-n quadrature on the nodes (b_s = gamma), the remaining freedom
//     fixed by order conditions; MSSTH(3)'s gamma is the root in [1/3, 0.43587] of 6 (1 - rho) g^3 - 18 g^2 + 9 g
//     - 1 (R(-inf) = rho) with c_3 = (24 g^2 - 20 g + 3)/(24 g^2 - 24 g + 4); MSSTH(4)'s (gamma, c_3, c_4) and
//     MSSTH(5)'s (gamma, c_4, c_5; c_3 = 0.1) come from a truncation-error optimisation and exist only as MBDyn's
//     tables at rho = 0, 0.1, ..., 1 (accurate to about 1e-13 there, which bounds R(-inf) - rho).
//   * Kennedy & Carpenter's ESDIRK3(2)4L[2]SA (gamma the root of 6 g^3 - 18 g^2 + 9 g - 1, c_3 = 3/5, built like
//     MSSTH(3)), ESDIRK3(2)5L[2]SA (closed forms in sqrt 2) and ESDIRK4(3)6L[2]SA2 (their published rationals).
// Host only.
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/integrator_names.hpp"
#include "integrators/implicit_methods.hpp"
#include "linalg/dense_lu.hpp"

namespace myriad {

// The method's name as runs spell it (core/integrator_names.hpp).
inline const char* implicit_method_name(ImplicitMethod method) {
  const int index = static_cast<int>(method);
  return index >= 0 && index < kImplicitIntegratorCount ? kImplicitIntegratorNames[index] : "unknown";
}

// The method named `name` (as implicit_method_name spells it, any case); false if there is none.
inline bool parse_implicit_method(const std::string& name, ImplicitMethod& method) {
  std::string lower;
  for (char ch : name) lower += static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
  for (int i = 0; i < kImplicitMethodCount; ++i) {
    const ImplicitMethod candidate = static_cast<ImplicitMethod>(i);
    if (lower == implicit_method_name(candidate)) {
      method = candidate;
      return true;
    }
  }
  return false;
}

// True for the methods whose dissipation rho_inf is a parameter; the others are L-stable (rho_inf = 0).
inline bool implicit_method_tunable(ImplicitMethod method) {
  switch (method) {
    case ImplicitMethod::backward_euler:
    case ImplicitMethod::esdirk3_4l:
    case ImplicitMethod::esdirk3_5l:
    case ImplicitMethod::esdirk4_6l: return false;
    default: return true;
  }
}

// True for the methods whose coefficients exist only at rho_inf = 0, 0.1, ..., 1 (tables).
inline bool implicit_method_tabulated(ImplicitMethod method) {
  return method == ImplicitMethod::msstc4 || method == ImplicitMethod::msstc5 || method == ImplicitMethod::mssth4 ||
         method == ImplicitMethod::mssth5;
}

namespace detail {

// 25-digit tables at rho = 0, 0.1, ..., 1 (index = 10 rho).
constexpr double kMsstc4Gamma[11] = {
    0.1313787367304661325241454, 0.1305486209464722922239103, 0.1297775838188481417732879,
    0.1290572072573547594491565, 0.1283808049199454260913260, 0.1277429705568482250884293,
    0.1271392659020838138864249, 0.1265659990831371098910662, 0.1260200635864962278248642,
    0.1254988188304218533369901, 0.125};
constexpr double kMsstc5Gamma[11] = {
    0.1035571089202148766377048, 0.1030956315116754982886105, 0.1026666750250932142342568,
    0.1022655944921845543648746, 0.1018887038798819129224043, 0.1015330251478736436897053,
    0.1011961150731811994718270, 0.1008759424458070908920057, 0.1005707989187447753942832,
    0.1002792329547424602331186, 0.1};
constexpr double kMssth4Gamma[11] = {
    0.5728160624821350133117903, 0.5483666449758298755412511, 0.5263864568423862744239727,
    0.5063301189707819505159136, 0.4877974748123480863704060, 0.4704805776216768320452388,
    0.4541307850365287057670116, 0.4385361899021925080610629, 0.4235037660671788772859259,
    0.4088418661206993376389107, 0.3943375672974065437870195};
constexpr double kMssth4C3[11] = {
    0.5590985754229417305152542, 0.6002938888698324121975147, 0.6385228144891605953328610,
    0.6752454071331807752264900, 0.7116626313535582440037008, 0.7489373901316857945701066,
    0.7884370115210036155119526, 0.8321495959968309360981758, 0.8836585039419085905336449,
    0.9508833135343227253337252, 1.0534803411702867301702400};
constexpr double kMssth4C4[11] = {
    0.7414011664833654036144139, 0.7584129875780372120885886, 0.7731436659604612460228168,
    0.7860312064122737529814344, 0.7972514819203143643377985, 0.8067140747427041791439706,
    0.8139662529419134928687640, 0.8179301032006714988753515, 0.8162478946500242305006623,
    0.8036295352568830763217989, 0.7689305362617052663765094};
constexpr double kMssth5Gamma[11] = {
    0.2780538411364499307154574, 0.2741413060318684813410073, 0.2704598867745817702967770,
    0.2669780439256505544243225, 0.2636702317116055294121679, 0.2605154166070549059952555,
    0.2574960298566747463056004, 0.2545972081701334821524085, 0.2518062311838496492022443,
    0.2491120965296297062874231, 0.2465051931428201559270974};
constexpr double kMssth5C4[11] = {
    0.9673258605571696255864822, 0.9085500184865173967097007, 0.8510912674088796370241994,
    0.7951780419709296721109126, 0.7409689864721386021173544, 0.6885609787040850582329199,
    0.6379972790560722861741283, 0.5892756783804685705163706, 0.5423562209596147765111596,
    0.4971683414199104533715001, 0.4536172576687555468843982};
constexpr double kMssth5C5[11] = {
    1.140134263244145573779065, 1.147028320924987188078603, 1.153119767864889455566413,
    1.158468410781347657234619, 1.163120553594974015965136, 1.167112017832381054560642,
    1.170470299562808680349235, 1.173216142360941294242593, 1.175364704054515430087235,
    1.176926433659807091913763, 1.177907736613444944495654};

// The root of p in [lo, hi] (p(lo), p(hi) of opposite signs) by bisection to rounding. O(60 evaluations).
template <class Polynomial>
double bracketed_root(Polynomial p, double lo, double hi) {
  double p_lo = p(lo);
  for (int k = 0; k < 200 && hi - lo > 0.0; ++k) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    const double p_mid = p(mid);
    if ((p_mid < 0.0) == (p_lo < 0.0)) {
      lo = mid;
      p_lo = p_mid;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

// Solves the small dense system A x = b (row-major, n <= 8) in place; throws if singular.
inline void solve_small(int n, double* A, double* b, const char* what) {
  int pivots[8];
  if (!lu_factor(n, A, pivots)) throw std::logic_error(std::string("implicit_scheme: singular system for ") + what);
  lu_solve(n, A, pivots, b);
}

// An ESDIRK whose stages 2..s have stage order 2 (sum_j a_ij = c_i, sum_j a_ij c_j = c_i^2 / 2) and whose last row
// is the quadrature of order s - 1 on the nodes c (b_s = gamma), from gamma and the nodes c_3..c_s-1; stage 2 is
// the trapezoidal sub-step (a_21 = a_22 = gamma, c_2 = 2 gamma). `extra` rows beyond stage 3 take their missing
// conditions from the order conditions listed at the call. Writes scheme.a, scheme.c.
inline void quadrature_weights(ImplicitScheme& s, int order) {
  // b_1..b_(s-1) from sum_i b_i c_i^k = 1/(k+1), k = 0..order-1 (order = s - 1 unknowns), b_s = gamma.
  const int n = s.stages - 1;
  double A[64], rhs[8];
  for (int k = 0; k < order; ++k) {
    for (int i = 0; i < n; ++i) A[k * n + i] = std::pow(s.c[i], k);
    rhs[k] = 1.0 / (k + 1) - s.gamma * std::pow(s.c[n], k);
  }
  solve_small(n, A, rhs, "the quadrature weights");
  for (int i = 0; i < n; ++i) s.a[n][i] = rhs[i];
  s.a[n][n] = s.gamma;
}

inline void stage_order_two_row3(ImplicitScheme& s) {
  const double g = s.gamma, c3 = s.c[2];
  s.a[2][1] = c3 * (c3 - 2.0 * g) / (4.0 * g);
  s.a[2][0] = c3 - g - s.a[2][1];
  s.a[2][2] = g;
}

inline void trapezoidal_stage2(ImplicitScheme& s) {
  s.c[0] = 0.0;
  s.c[1] = 2.0 * s.gamma;
  s.a[1][0] = s.a[1][1] = s.gamma;
}

inline int grid_index(ImplicitMethod method, double rho) {
  const double scaled = 10.0 * rho;
  const int index = static_cast<int>(std::lround(scaled));
  if (!(std::fabs(scaled - index) <= 1e-9))
    throw std::invalid_argument(std::string("implicit method ") + implicit_method_name(method) +
                                ": rho_inf = " + std::to_string(rho) +
                                " is not tabulated; its coefficients exist only at rho_inf = 0, 0.1, ..., 1");
  return index;
}

}  // namespace detail

// The coefficients of `method` at rho_inf. Throws std::invalid_argument naming the method for rho_inf outside
// [0, 1], for a fixed (L-stable) method given rho_inf != 0, and for a tabulated method off its grid. O(1).
inline ImplicitScheme implicit_scheme(ImplicitMethod method, double rho) {
  const std::string name = implicit_method_name(method);
  if (!(rho >= 0.0 && rho <= 1.0))
    throw std::invalid_argument("implicit method " + name + ": rho_inf must lie in [0, 1], got " + std::to_string(rho));
  if (!implicit_method_tunable(method) && rho != 0.0)
    throw std::invalid_argument("implicit method " + name + " is L-stable with fixed coefficients: rho_inf must be 0, got " +
                                std::to_string(rho));
  ImplicitScheme s;
  s.method = method;
  s.rho_inf = rho;
  const double u = (1.0 - rho) / (1.0 + rho);
  switch (method) {
    case ImplicitMethod::backward_euler:  // seed 002 eqs. 32-38
      s.family = ImplicitFamily::multistep, s.order = 1, s.steps = 1;
      s.alpha[1] = 1.0, s.beta[0] = 1.0;
      break;
    case ImplicitMethod::lms2: {
      const double D = (1.0 + rho) * (3.0 - rho);
      s.family = ImplicitFamily::multistep, s.order = 2, s.steps = 2;
      s.alpha[1] = 4.0 * (1.0 - rho) / (3.0 - rho), s.alpha[2] = (3.0 * rho - 1.0) / (3.0 - rho);
      s.beta[0] = 2.0 / D, s.beta[1] = 4.0 * rho / D, s.beta[2] = 2.0 * rho * rho / D;
      break;
    }
    case ImplicitMethod::lms3: {
      const double D = rho * rho - 5.0 * rho + 10.0;
      s.family = ImplicitFamily::multistep, s.order = 2, s.steps = 3;
      s.alpha[1] = 3.0 * (2.0 * rho * rho - 9.0 * rho + 5.0) / D;
      s.alpha[2] = -3.0 * (5.0 * rho * rho - 9.0 * rho + 2.0) / D;
      s.alpha[3] = (10.0 * rho * rho - 5.0 * rho + 1.0) / D;
      const double scale = 6.0 / ((1.0 + rho) * D);
      s.beta[0] = scale, s.beta[1] = 3.0 * scale * rho, s.beta[2] = 3.0 * scale * rho * rho;
      s.beta[3] = scale * rho * rho * rho;
      break;
    }
    case ImplicitMethod::lms4: {
      const double r2 = rho * rho, r3 = r2 * rho;
      const double D = -r3 + 7.0 * r2 - 21.0 * rho + 35.0;
      s.family = ImplicitFamily::multistep, s.order = 2, s.steps = 4;
      s.alpha[1] = 4.0 * (-2.0 * r3 + 13.0 * r2 - 35.0 * rho + 14.0) / D;
      s.alpha[2] = -4.0 * (1.0 - rho) * (7.0 * r2 - 34.0 * rho + 7.0) / D;
      s.alpha[3] = -4.0 * (14.0 * r3 - 35.0 * r2 + 13.0 * rho - 2.0) / D;
      s.alpha[4] = (35.0 * r3 - 21.0 * r2 + 7.0 * rho - 1.0) / D;
      const double scale = 20.0 / ((1.0 + rho) * D);
      s.beta[0] = scale, s.beta[1] = 4.0 * scale * rho, s.beta[2] = 6.0 * scale * r2, s.beta[3] = 4.0 * scale * r3;
      s.beta[4] = scale * r2 * r2;
      break;
    }
    case ImplicitMethod::ss2:
    case ImplicitMethod::ss3:
    case ImplicitMethod::ss4: {
      const int r = method == ImplicitMethod::ss2 ? 2 : method == ImplicitMethod::ss3 ? 3 : 4;
      s.family = ImplicitFamily::single_step, s.order = 2, s.steps = r;
      // kappa_i for gamma_1, gamma_3, gamma_5 (real, imaginary).
      double kappa_re[3] = {1.0, 0.0, 0.0}, kappa_im[3] = {0.0, 0.0, 0.0};
      if (r == 3) {
        kappa_re[0] = kappa_re[1] = 0.75;
        kappa_im[0] = std::sqrt(15.0) / 12.0, kappa_im[1] = -kappa_im[0];
      } else if (r == 4) {
        kappa_re[0] = 0.842384094858369131699303654003;
        kappa_re[1] = kappa_re[2] = 0.578807952570815434150348172999;
        kappa_im[1] = -0.373930645433610122608971599227, kappa_im[2] = 0.373930645433610122608971599227;
      }
      for (int i = 0; i <= 2 * r - 2; i += 2) s.gamma_re[i] = 1.0 / (1.0 + rho);
      for (int k = 0; k < r - 1; ++k) {
        s.gamma_re[2 * k + 1] = 0.5 + kappa_re[k] * u;
        s.gamma_im[2 * k + 1] = kappa_im[k] * u;
      }
      break;
    }
    case ImplicitMethod::bathe: {  // seed eq. 7
      const double g = rho < 1.0 ? (2.0 - std::sqrt(2.0 * (1.0 + rho))) / (2.0 * (1.0 - rho)) : 0.25;
      s.family = ImplicitFamily::esdirk, s.order = 2, s.stages = 3, s.gamma = g;
      detail::trapezoidal_stage2(s);
      s.c[2] = 1.0;
      s.a[2][0] = -(4.0 * g * g - 6.0 * g + 1.0) / (4.0 * g);
      s.a[2][1] = (1.0 - 2.0 * g) / (4.0 * g);
      s.a[2][2] = g;
      break;
    }
    case ImplicitMethod::msstc3:
    case ImplicitMethod::msstc4:
    case ImplicitMethod::msstc5: {
      const int n = method == ImplicitMethod::msstc3 ? 3 : method == ImplicitMethod::msstc4 ? 4 : 5;
      double g;
      if (n == 3) {
        g = detail::bracketed_root(
            [rho](double x) {
              return (((24.0 * (1.0 + rho) * x - 8.0 * (rho + 9.0)) * x + 48.0) * x - 12.0) * x + 1.0;
            },
            1.0 / 6.0, 0.1805);
        if (rho == 1.0) g = 1.0 / 6.0;
      } else {
        const int k = detail::grid_index(method, rho);
        g = n == 4 ? detail::kMsstc4Gamma[k] : detail::kMsstc5Gamma[k];
      }
      s.family = ImplicitFamily::esdirk, s.order = 2, s.stages = n + 1, s.gamma = g;
      for (int i = 1; i < n; ++i) {  // stages 2..n: trapezoidal sub-steps of 2 gamma
        s.c[i] = 2.0 * i * g;
        s.a[i][0] = g;
        for (int j = 1; j < i; ++j) s.a[i][j] = 2.0 * g;
        s.a[i][i] = g;
      }
      s.c[n] = 1.0;
      double q[5] = {};
      const double g2 = g * g, g3 = g2 * g, g4 = g3 * g;
      if (n == 3) {
        q[0] = ((2.0 * rho - 6.0) * g2 + 8.0 * g - 1.0) / (8.0 * g);
        q[1] = -((rho + 1.0) * g - 1.0) / 2.0;
        q[2] = (2.0 * (rho + 1.0) * g2 - 4.0 * g + 1.0) / (8.0 * g);
      } else if (n == 4) {
        const double D = 64.0 * g2 * (1.0 - 4.0 * g);
        q[0] = ((40.0 * rho + 216.0) * g4 - (8.0 * rho + 376.0) * g3 + 144.0 * g2 - 20.0 * g + 1.0) / D;
        q[1] = -(104.0 * (rho - 1.0) * g4 - (24.0 * rho - 88.0) * g3 + 16.0 * g2 - 12.0 * g + 1.0) / D;
        q[2] = -((88.0 - 88.0 * rho) * g4 + (24.0 * rho - 216.0) * g3 + 112.0 * g2 - 20.0 * g + 1.0) / D;
        q[3] = ((24.0 - 24.0 * rho) * g4 + (8.0 * rho - 72.0) * g3 + 48.0 * g2 - 12.0 * g + 1.0) / D;
      } else {
        const double g5 = g4 * g, g6 = g5 * g;
        const double d1 = 1.0 - 5.0 * g, d2 = 10.0 * g2 - 5.0 * g + 0.5;
        const double d3 = -(400.0 * g3 - 280.0 * g2 + 60.0 * g - 4.0 +
                            std::sqrt(2.0 * (64.0 * (5.0 * rho + 805.0) * g6 - 64.0 * (rho + 1025.0) * g5 +
                                             34560.0 * g4 - 9600.0 * g3 + 1480.0 * g2 - 120.0 * g + 4.0))) /
                          8.0;
        const double d4 = -(720.0 * g4 - 800.0 * g3 + 280.0 * g2 + (80.0 * d3 - 40.0) * g - 16.0 * d3 + 2.0) / 16.0;
        const double d5 = rho * g5;
        q[4] = g / 16.0 + d1 / 16.0 + d2 / (16.0 * g) + d3 / (16.0 * g2) + d4 / (16.0 * g3) + d5 / (16.0 * g4);
        q[3] = 3.0 * g / 8.0 + d1 / 4.0 + d2 / (8.0 * g) - d4 / (8.0 * g3) - d5 / (4.0 * g4);
        q[2] = g + 3.0 * d1 / 8.0 - d3 / (8.0 * g2) + 3.0 * d5 / (8.0 * g4);
        q[1] = 13.0 * g / 8.0 + d1 / 4.0 - d2 / (8.0 * g) + d4 / (8.0 * g3) - d5 / (4.0 * g4);
        q[0] = 15.0 * g / 16.0 + d1 / 16.0 - d2 / (16.0 * g) + d3 / (16.0 * g2) - d4 / (16.0 * g3) + d5 / (16.0 * g4);
      }
      for (int j = 0; j < n; ++j) s.a[n][j] = q[j];
      s.a[n][n] = g;
      break;
    }
    case ImplicitMethod::mssth3:
    case ImplicitMethod::esdirk3_4l: {
      const double r = method == ImplicitMethod::mssth3 ? rho : 0.0;
      double g = detail::bracketed_root(
          [r](double x) { return ((6.0 * (1.0 - r) * x - 18.0) * x + 9.0) * x - 1.0; }, 1.0 / 3.0, 0.4358665216);
      if (r == 1.0) g = 1.0 / 3.0;
      s.family = ImplicitFamily::esdirk, s.order = 3, s.stages = 4, s.gamma = g;
      detail::trapezoidal_stage2(s);
      s.c[2] = method == ImplicitMethod::esdirk3_4l
                   ? 0.6
                   : (24.0 * g * g - 20.0 * g + 3.0) / (24.0 * g * g - 24.0 * g + 4.0);
      s.c[3] = 1.0;
      detail::stage_order_two_row3(s);
      detail::quadrature_weights(s, 3);
      break;
    }
    case ImplicitMethod::mssth4: {
      const int k = detail::grid_index(method, rho);
      const double g = detail::kMssth4Gamma[k];
      s.family = ImplicitFamily::esdirk, s.order = 4, s.stages = 5, s.gamma = g, s.last_stage_predictor_points = 3;
      detail::trapezoidal_stage2(s);
      s.c[2] = detail::kMssth4C3[k], s.c[3] = detail::kMssth4C4[k], s.c[4] = 1.0;
      detail::stage_order_two_row3(s);
      detail::quadrature_weights(s, 4);
      // Row 4 (a_41, a_42, a_43; a_44 = gamma): row sum, stage order 2, and the order-4 condition
      // b . (A c^2) = 1/12, whose other terms are known.
      const double c4 = s.c[3];
      double A[9], rhs[3];
      for (int j = 0; j < 3; ++j) {
        A[0 * 3 + j] = 1.0;
        A[1 * 3 + j] = s.c[j];
        A[2 * 3 + j] = s.a[4][3] * s.c[j] * s.c[j];
      }
      rhs[0] = c4 - g;
      rhs[1] = 0.5 * c4 * c4 - g * c4;
      double known = 0.0;  // b . (A c^2) without row 4's unknowns
      for (int i = 1; i < 5; ++i) {
        if (i == 3) {
          known += s.a[4][3] * g * c4 * c4;
          continue;
        }
        double row = 0.0;
        for (int j = 0; j <= i; ++j) row += s.a[i][j] * s.c[j] * s.c[j];
        known += s.a[4][i] * row;
      }
      rhs[2] = 1.0 / 12.0 - known;
      detail::solve_small(3, A, rhs, "MSSTH(4) row 4");
      for (int j = 0; j < 3; ++j) s.a[3][j] = rhs[j];
      s.a[3][3] = g;
      break;
    }
    case ImplicitMethod::mssth5: {
      const int k = detail::grid_index(method, rho);
      const double g = detail::kMssth5Gamma[k];
      s.family = ImplicitFamily::esdirk, s.order = 5, s.stages = 6, s.gamma = g, s.last_stage_predictor_points = 3;
      detail::trapezoidal_stage2(s);
      s.c[2] = 0.1, s.c[3] = detail::kMssth5C4[k], s.c[4] = detail::kMssth5C5[k], s.c[5] = 1.0;
      detail::stage_order_two_row3(s);
      detail::quadrature_weights(s, 5);
      // Rows 4 and 5 (x = a_41, a_42, a_43, a_51, a_52, a_53, a_54): row sums and stage order 2 (4 equations)
      // and the order-5 conditions b.(A c^2) = 1/12, b.(A c^3) = 1/20, b.(c o A c^2) = 1/15 (3 equations).
      const double* c = s.c;
      const double* b = s.a[5];
      double A[49] = {}, rhs[7];
      // unknown columns: 0..2 -> a_4j (j = 0..2), 3..6 -> a_5j (j = 0..3)
      for (int j = 0; j < 3; ++j) A[0 * 7 + j] = 1.0, A[1 * 7 + j] = c[j];
      rhs[0] = c[3] - g, rhs[1] = 0.5 * c[3] * c[3] - g * c[3];
      for (int j = 0; j < 4; ++j) A[2 * 7 + 3 + j] = 1.0, A[3 * 7 + 3 + j] = c[j];
      rhs[2] = c[4] - g, rhs[3] = 0.5 * c[4] * c[4] - g * c[4];
      // sum_i b_i sum_j a_ij f(c_j) with f = c^2, c^3, and sum_i b_i c_i sum_j a_ij c_j^2.
      for (int cond = 0; cond < 3; ++cond) {
        const int row = 4 + cond;
        auto f = [cond](double x) { return cond == 1 ? x * x * x : x * x; };
        auto weight = [&](int i) { return cond == 2 ? b[i] * c[i] : b[i]; };
        double known = 0.0;
        for (int i = 1; i < 6; ++i) {
          if (i == 3) {
            for (int j = 0; j < 3; ++j) A[row * 7 + j] = weight(3) * f(c[j]);
            known += weight(3) * g * f(c[3]);
          } else if (i == 4) {
            for (int j = 0; j < 4; ++j) A[row * 7 + 3 + j] = weight(4) * f(c[j]);
            known += weight(4) * g * f(c[4]);
          } else {
            double sum = 0.0;
            for (int j = 0; j <= i; ++j) sum += s.a[i][j] * f(c[j]);
            known += weight(i) * sum;
          }
        }
        rhs[row] = (cond == 0 ? 1.0 / 12.0 : cond == 1 ? 1.0 / 20.0 : 1.0 / 15.0) - known;
      }
      detail::solve_small(7, A, rhs, "MSSTH(5) rows 4-5");
      for (int j = 0; j < 3; ++j) s.a[3][j] = rhs[j];
      s.a[3][3] = g;
      for (int j = 0; j < 4; ++j) s.a[4][j] = rhs[3 + j];
      s.a[4][4] = g;
      break;
    }
    case ImplicitMethod::esdirk3_5l: {
      const double r2 = std::sqrt(2.0);
      const double g = 9.0 / 40.0;
      s.family = ImplicitFamily::esdirk, s.order = 3, s.stages = 5, s.gamma = g;
      detail::trapezoidal_stage2(s);
      s.c[2] = 9.0 * (2.0 + r2) / 40.0, s.c[3] = 0.6, s.c[4] = 1.0;
      s.a[2][0] = s.a[2][1] = 9.0 * (1.0 + r2) / 80.0;
      s.a[2][2] = g;
      s.a[3][0] = s.a[3][1] = (22.0 + 15.0 * r2) / (80.0 * (1.0 + r2));
      s.a[3][2] = -7.0 / (40.0 * (1.0 + r2));
      s.a[3][3] = g;
      s.a[4][0] = s.a[4][1] = (2398.0 + 1205.0 * r2) / (2835.0 * (4.0 + 3.0 * r2));
      s.a[4][2] = -2374.0 * (1.0 + 2.0 * r2) / (2835.0 * (5.0 + 3.0 * r2));
      s.a[4][3] = 5827.0 / 7560.0;
      s.a[4][4] = g;
      break;
    }
    case ImplicitMethod::esdirk4_6l: {
      const double g = 31.0 / 125.0;
      s.family = ImplicitFamily::esdirk, s.order = 4, s.stages = 6, s.gamma = g, s.last_stage_predictor_points = 3;
      s.c[0] = 0.0, s.c[1] = 62.0 / 125.0, s.c[2] = 486119545908.0 / 3346201505189.0, s.c[3] = 1043.0 / 1706.0;
      s.c[4] = 1361.0 / 1300.0, s.c[5] = 1.0;
      s.a[1][0] = g, s.a[1][1] = g;
      s.a[2][0] = s.a[2][1] = -360286518617.0 / 7014585480527.0;
      s.a[2][2] = g;
      s.a[3][0] = s.a[3][1] = -506388693497.0 / 5937754990171.0;
      s.a[3][2] = 7149918333491.0 / 13390931526268.0;
      s.a[3][3] = g;
      s.a[4][0] = s.a[4][1] = -7628305438933.0 / 11061539393788.0;
      s.a[4][2] = 21592626537567.0 / 14352247503901.0;
      s.a[4][3] = 11630056083252.0 / 17263101053231.0;
      s.a[4][4] = g;
      s.a[5][0] = s.a[5][1] = -12917657251.0 / 5222094901039.0;
      s.a[5][2] = 5602338284630.0 / 15643096342197.0;
      s.a[5][3] = 9002339615474.0 / 18125249312447.0;
      s.a[5][4] = -2420307481369.0 / 24731958684496.0;
      s.a[5][5] = g;
      break;
    }
  }
  return s;
}

}  // namespace myriad
