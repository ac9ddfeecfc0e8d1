#pragma once
// The implicit, A-stable, algorithmically dissipative integrators of seed 003 (and backward Euler, seed 002 eqs.
// 32-38), as coefficient sets for integrators/implicit_integrate.hpp. Three families (seed 003 sec. 2):
//
//   * linear multistep, eq. 2: y_k = sum_{j=1}^{r} alpha_j y_k-j + dt sum_{j=0}^{r} beta_j y'_k-j
//     (LMS2/3/4 with rho_inf; backward Euler; BDF2 is LMS2 at rho_inf = 0);
//   * equivalent single-step, eqs. 4a-4e: parameters gamma_0..gamma_(2r-2), complex for SS3 and SS4;
//   * stiffly accurate ESDIRKs with an explicit first stage, eqs. 5-6 (rho_inf-Bathe, MSSTC(n), MSSTH(n),
//     Kennedy & Carpenter's ESDIRK3(2)4L[2]SA, ESDIRK3(2)5L[2]SA, ESDIRK4(3)6L[2]SA2).
//
// The coefficients are computed on the host (integrators/implicit_coefficients.hpp: implicit_scheme) and handed to
// the stepper by value; where each set comes from is written there.
#include "core/hd.hpp"

namespace myriad {

constexpr int kMaxMultisteps = 4;
constexpr int kMaxSingleStepOrder = 4;  // SS4: r = 4, gamma_0..gamma_6
constexpr int kMaxEsdirkStages = 6;

enum class ImplicitFamily : int { multistep = 0, single_step = 1, esdirk = 2 };

enum class ImplicitMethod : int {
  backward_euler = 0,
  lms2,
  lms3,
  lms4,
  ss2,
  ss3,
  ss4,
  bathe,
  msstc3,
  msstc4,
  msstc5,
  mssth3,
  mssth4,
  mssth5,
  esdirk3_4l,  // ESDIRK3(2)4L[2]SA
  esdirk3_5l,  // ESDIRK3(2)5L[2]SA (seed 003 also calls it ESDIRK3(3)5L[2]SA)
  esdirk4_6l,  // ESDIRK4(3)6L[2]SA2
};

constexpr int kImplicitMethodCount = 17;  // = kImplicitIntegratorCount (core/integrator_names.hpp)

struct ImplicitScheme {
  ImplicitMethod method = ImplicitMethod::backward_euler;
  ImplicitFamily family = ImplicitFamily::multistep;
  double rho_inf = 0.0;  // the spectral radius at infinity the coefficients were built for
  int order = 1;         // nominal order of accuracy
  // multistep (eq. 2): steps = r, alpha[1..r], beta[0..r] (alpha[0] unused). single-step: steps = r.
  int steps = 1;
  double alpha[kMaxMultisteps + 1] = {};
  double beta[kMaxMultisteps + 1] = {};
  // single-step (eqs. 4a-4e): gamma_i = gamma_re[i] + i gamma_im[i], i = 0..2r-2
  double gamma_re[2 * kMaxSingleStepOrder - 1] = {};
  double gamma_im[2 * kMaxSingleStepOrder - 1] = {};
  // ESDIRK (eqs. 5-6): stages s, the diagonal gamma, a[i][j] (row i = stage i+1; the last row is b), c[i]
  int stages = 0;
  double gamma = 0.0;
  double a[kMaxEsdirkStages][kMaxEsdirkStages] = {};
  double c[kMaxEsdirkStages] = {};
  int last_stage_predictor_points = 2;  // 2: eq. 12 at the last stage; 3: eq. 16 (order >= 4, sec. 3.1)
};

// Newton's settings for every time point (integrators/implicit_newton.hpp).
struct ImplicitOptions {
  // Absolute part in the variables' own units (rad, m, rad/s, N): 1e-10 sits above the rounding floor of the
  // corrections (about 2e-11 rad for Andrews' squeezer, whose iteration matrix has a condition number near 1e5).
  double newton_rtol = 1e-10;
  double newton_atol = 1e-10;
  int max_newton_iterations = 25;  // per time point; then the instance stops with newton_failed
};

// Time points kept: the LMS history (up to 4 steps) or an ESDIRK's stages (up to 6).
constexpr int kImplicitPointSlots = kMaxEsdirkStages > kMaxMultisteps ? kMaxEsdirkStages : kMaxMultisteps;
constexpr int kMaxSingleStepLevels = kMaxSingleStepOrder - 1;  // auxiliary levels y'^1..y'^(r-1)

// The state of an integration between steps: which slots hold which past points.
struct ImplicitHistory {
  int order[kImplicitPointSlots] = {};  // order[0] = slot of the latest point, order[1] the one before, ...
  int count = 0;                   // points held (multistep: up to `steps`; others: 1)
};

}  // namespace myriad
