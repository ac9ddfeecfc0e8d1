#pragma once
// The adaptive 4-stage, order-4(3) Rosenbrock-Nystrom integrator RN4 of seed 000 (Theorem 2.1, sec. 4,
// Algorithm 1) for second-order systems x'' = f(t, x, x'), host and device, no allocation. The System concept
// is described in integrators/second_order_system.hpp; coefficients come from
// integrators/rosenbrock_nystrom_coefficients.hpp; step control follows seed 000 eqs. 13-16
// (integrators/step_control.hpp).
//
// One step from (t_n, x_n, w_n), w = x' (seed 000 eqs. 25, 43-46, Algorithm 1 steps 5-12):
//   * ONE sys.jacobians() call: f_n = f(t_n, x_n, w_n), J1 = df/dx, J2 = df/dw, f_t = df/dt; ONE
//     sys.mass_matrix() call: Mhat. From them, once per step start, Mhat J1, Mhat J2 and
//     g = Mhat (f_t + J1 w_n) (the time-derivative term of eqs. 45-46).
//   * Pi = Mhat / gamma^2 - (h/gamma) Mhat J2 - h^2 Mhat J1 (eq. 44) assembled and LU-factored ONCE per step
//     attempt and reused by the four stages: Pi z_i = r_i (eq. 43) with (eq. 45)
//       r_i = Mhat [(h/gamma) f_i + (1/gamma) sum_{j<i} c_ij z_j]
//             + Mhat J1 [(h^2/gamma) sum_{j<i} delta_ij z_j] + h^2 (gamma_i/gamma) g,
//       f_i = f(t_n + alpha_i h, X_i, W_i),  X_i = x_n + h alpha_i w_n + h sum_{j<i} theta_ij z_j (eq. 25c),
//       W_i = w_n + sum_{j<i} a_ij z_j (eq. 25d).
//     Multiplying the stage equations S z_i = ... (eq. 25f) by Mhat / gamma^2 does not change z_i (the tests
//     check this to 1e-12). In the seed it spares a multibody code the solves for J1 and J2 (it knows Mhat J1
//     and Mhat J2 from eqs. 31 and 35); the System contract here hands over J1 and J2 of f, so the products
//     Mhat J1, Mhat J2 are formed once per linearization (O(n^3)). Seed discrepancy: the text before eq. 43
//     says the system is multiplied by (1/gamma) Mhat; eq. 44 (Pi = Mhat S / gamma^2) and eq. 45 (r_i with
//     h/gamma in front of Qhat) correspond to (1/gamma^2) Mhat, which is what is implemented.
//   * THREE evaluations of f per step: f_1 = f_n comes with jacobians(), f_2 and f_3 are acceleration()
//     calls, and f_4 = f_3 because alpha_4j = alpha_3j and alpha_43 = 0 (eq. 39) make X_4 = X_3, W_4 = W_3
//     and alpha_4 = alpha_3 (seed 000 sec. 4: stage 4 "bypasses the stage generalized force computation").
//   * x_n+1 = x_n + h w_n + h sum mu_i z_i, w_n+1 = w_n + sum m_i z_i (eqs. 25a-25b); the embedded order-3
//     solution uses muhat_i and mhat_i. Seed discrepancy: the text of Algorithm 1 step 12 writes the velocity
//     updates with b_i and bhat_i; Theorem 2.1 (eq. 25b) and the derivation give m_i = (b Gamma^-1)_i and
//     mhat_i = (bhat Gamma^-1)_i, which is what is implemented (with b_i the velocity update would not even
//     be consistent: as h -> 0, z ~ Gamma (h f, ..., h f) and sum b_i z_i ~ (sum_i b_i gamma_i) h f
//     = 0.033 h f instead of h f).
#include <cmath>
#include <type_traits>

#include "core/hd.hpp"
#include "core/scalar.hpp"
#include "core/status.hpp"
#include "integrators/integration_progress.hpp"
#include "integrators/rk4.hpp"
#include "integrators/rosenbrock_nystrom_coefficients.hpp"
#include "integrators/step_control.hpp"
#include "linalg/dense_lu.hpp"

namespace myriad {

// ---------------------------------------------------------------------------------------------------------
// Pieces shared by the second-order integrators (RN4 here, ROS2-W in ros2_w.hpp).

// The first-order view y = (x, w), y' = (w, f(t, x, w)) of a second-order system (seed 000 eq. 17b), in the
// System concept of integrators/ode_system.hpp, for initial_step_size. Holds a pointer; no state of its own.
template <class System>
struct SecondOrderAsFirstOrder {
  System* second_order;
  MYRIAD_HD int dimension() const { return 2 * second_order->dimension(); }
  MYRIAD_HD bool derivative(double t, const double* y, double* dydt) {
    const int n = second_order->dimension();
    for (int i = 0; i < n; ++i) dydt[i] = y[n + i];
    return second_order->acceleration(t, y, y + n, dydt + n);
  }
  MYRIAD_HD bool rebase(double, double*) { return false; }
};

// The error norm of seed 000 eq. 14 over the 2n components (x, w), sc_i of eq. 13 from the old and new value
// of each component: sqrt((sum_x (e/sc)^2 + sum_w (e/sc)^2) / 2n). Non-finite if an error is. O(n).
MYRIAD_HD_INLINE double second_order_error_norm(int n, const double* x, const double* w, const double* x_new,
                                                const double* w_new, const double* x_error,
                                                const double* w_error, double rtol, double atol) {
  const double position_norm = error_norm(n, x, x_new, x_error, rtol, atol);
  const double velocity_norm = error_norm(n, w, w_new, w_error, rtol, atol);
  return std::sqrt(0.5 * (position_norm * position_norm + velocity_norm * velocity_norm));
}

// Dense output of a second-order step [t, t + h] at theta = (t_out - t) / h in [0, 1] from positions x,
// velocities w and accelerations f at both ends:
//   x: the quintic Hermite interpolant of (x, h w, h^2 f) at both ends,
//        x(theta) = x0 + H3 (x1 - x0) + h (H1 w0 + H4 w1) + h^2 (H2 f0 + H5 f1),
//        H3 = 10 th^3 - 15 th^4 + 6 th^5, H1 = th - 6 th^3 + 8 th^4 - 3 th^5, H4 = -4 th^3 + 7 th^4 - 3 th^5,
//        H2 = (th^2 - 3 th^3 + 3 th^4 - th^5) / 2, H5 = (th^3 - 2 th^4 + th^5) / 2;
//      interpolation error O(h^6), so with end values of local error O(h^5) the output error is O(h^5).
//   w: the cubic Hermite interpolant of (w, h f) at both ends (hermite_dense_output, rk4.hpp), error O(h^4),
//      the order of RN4's global error.
// x_out and w_out (n each) must not alias the inputs. O(n).
MYRIAD_HD_INLINE void second_order_dense_output(int n, double theta, double h, const double* x0,
                                                const double* w0, const double* f0, const double* x1,
                                                const double* w1, const double* f1, double* x_out,
                                                double* w_out) {
  const double t2 = theta * theta, t3 = t2 * theta, t4 = t3 * theta, t5 = t4 * theta;
  const double H1 = theta - 6.0 * t3 + 8.0 * t4 - 3.0 * t5;
  const double H2 = 0.5 * (t2 - 3.0 * t3 + 3.0 * t4 - t5);
  const double H3 = 10.0 * t3 - 15.0 * t4 + 6.0 * t5;
  const double H4 = -4.0 * t3 + 7.0 * t4 - 3.0 * t5;
  const double H5 = 0.5 * (t3 - 2.0 * t4 + t5);
  const double h2 = h * h;
  for (int i = 0; i < n; ++i) {
    x_out[i] = x0[i] + H3 * (x1[i] - x0[i]) + h * (H1 * w0[i] + H4 * w1[i]) + h2 * (H2 * f0[i] + H5 * f1[i]);
  }
  hermite_dense_output(n, theta, h, w0, f0, w1, f1, w_out);
}

// Hands (x, w) to obs for every output time at or before t0, from next_output on (advanced past them); y_out:
// 2n doubles of scratch. Returns whether output times remain after t0. O(n + outputs there).
template <class Times, class Observer>
MYRIAD_HD bool second_order_initial_outputs(int n, double t0, const double* x, const double* w,
                                            const Times& output_times, int n_outputs, Observer& obs,
                                            double* y_out, int& next_output) {
  if (output_times[0] <= t0) {
    for (int i = 0; i < n; ++i) {
      y_out[i] = x[i];
      y_out[n + i] = w[i];
    }
    while (next_output < n_outputs && output_times[next_output] <= t0) {
      obs(next_output, output_times[next_output], y_out);
      ++next_output;
    }
  }
  return next_output < n_outputs;
}

// The first trial step: control.h_initial, or if that is not positive Hairer's starting step
// (initial_step_size, one acceleration() call) on the first-order form (x, w)' = (w, f) with f = f(t0, x, w) given.
// y0, dydt0: 2n doubles of scratch each; work: initial_step_size's scratch.
template <class System>
MYRIAD_HD double second_order_initial_step(System& sys, double t0, double t_end, const double* x, const double* w,
                                           const double* f, int lower_order, const StepControl& control, double* y0,
                                           double* dydt0, double* work, IntegratorStats& stats) {
  if (control.h_initial > 0.0) return control.h_initial;
  const int n = sys.dimension();
  for (int i = 0; i < n; ++i) {
    y0[i] = x[i];
    y0[n + i] = w[i];
    dydt0[i] = w[i];
    dydt0[n + i] = f[i];
  }
  SecondOrderAsFirstOrder<System> first_order{&sys};
  return initial_step_size(first_order, t0, t_end, y0, dydt0, lower_order, control, work, stats);
}

namespace rosenbrock_detail {

// y = A x for an n x n row-major A; y must not alias x. O(n^2).
template <class S>
MYRIAD_HD_INLINE void dense_matrix_vector(int n, const S* A, const S* x, S* y) {
  for (int i = 0; i < n; ++i) {
    S sum(0.0);
    for (int j = 0; j < n; ++j) sum += A[i * n + j] * x[j];
    y[i] = sum;
  }
}

// Whether all `count` values are finite (on Lanes: in every lane). O(count).
template <class S>
MYRIAD_HD_INLINE bool all_finite(int count, const S* v) {
  for (int i = 0; i < count; ++i) {
    if (!is_finite(v[i])) return false;
  }
  return true;
}

}  // namespace rosenbrock_detail

// ---------------------------------------------------------------------------------------------------------
// RN4

// How many times in a row an RN4 or ROS2-W step attempt may halve h after its iteration matrix failed to
// factor before the integrator gives up with InstanceStatus::singular_matrix: the attempt at h and the
// retries at h/2, h/4, h/8. A singular Pi at one h (h^2 gamma^2 hitting the inverse of a positive eigenvalue
// of J1, an unstable system) is cured by another h; a singular Mhat is not (Pi -> Mhat / gamma^2 as h -> 0),
// and three halvings tell the two apart cheaply.
constexpr int kRosenbrockSingularRetries = 3;

// The linearization of one step start (Algorithm 1 steps 5 and 7), views into the caller's workspace. S is
// double, or Lanes for several instances at once (the lane runner, ensemble/lane_runner.cpp).
template <class S>
struct Rn4LinearizationOf {
  S* f;    // f(t_n, x_n, w_n) (n): stage 1's evaluation; written by rn4_linearize (jacobians())
  S* M;    // Mhat (n x n, row-major); written by rn4_linearize (mass_matrix())
  S* MJ1;  // Mhat J1 (n x n); written by rn4_linearize
  S* MJ2;  // Mhat J2 (n x n); written by rn4_linearize
  S* g;    // Mhat (f_t + J1 w_n) (n), the time-derivative term of eqs. 45-46; written by rn4_linearize
};
using Rn4Linearization = Rn4LinearizationOf<double>;

// Doubles of an Rn4Linearization.
MYRIAD_HD_INLINE int rn4_linearization_size(int n) { return 3 * n * n + 2 * n; }

// Carves an Rn4Linearization out of rn4_linearization_size(n) doubles (or Lanes).
template <class S>
MYRIAD_HD_INLINE Rn4LinearizationOf<S> rn4_linearization_view(int n, S* work) {
  Rn4LinearizationOf<S> lin;
  lin.f = work;
  lin.g = work + n;
  lin.M = work + 2 * n;
  lin.MJ1 = lin.M + n * n;
  lin.MJ2 = lin.MJ1 + n * n;
  return lin;
}

// Scratch doubles of rn4_stages (and of rn4_linearize, which needs n^2 + n of them): Pi, its pivots,
// z_1..z_4, a stage state (X, W), the stage f and two combination vectors.
MYRIAD_HD_INLINE int rn4_stage_workspace_size(int n) { return n * n + 10 * n; }

// Evaluates the linearization at (t, x, w): one sys.jacobians() call (counted as one function evaluation and
// one Jacobian evaluation) and one sys.mass_matrix() call, then Mhat J1, Mhat J2 and g = Mhat (f_t + J1 w).
// scratch: n^2 + n doubles. Returns false if either call fails or returns a non-finite value.
// Cost: the two calls plus O(n^3) (two n x n matrix products).
//   S is double, or Lanes for several instances at once (a System on lanes: dynamics/lane_tree_second_order.hpp).
template <class System, class S>
MYRIAD_HD bool rn4_linearize(System& sys, const S& t, const S* x, const S* w, const Rn4LinearizationOf<S>& lin,
                             S* scratch, IntegratorStats& stats) {
  const int n = sys.dimension();
  S* J1 = lin.MJ1;  // J1 and J2 land in the buffers of their Mhat products and are replaced by them
  S* J2 = lin.MJ2;
  S* f_t = lin.g;
  ++stats.function_evaluations;
  ++stats.jacobian_evaluations;
  if (!sys.jacobians(t, x, w, lin.f, J1, J2, f_t)) return false;
  if (!sys.mass_matrix(t, x, lin.M)) return false;
  if (!rosenbrock_detail::all_finite(n, lin.f) || !rosenbrock_detail::all_finite(n, f_t) ||
      !rosenbrock_detail::all_finite(n * n, J1) || !rosenbrock_detail::all_finite(n * n, J2) ||
      !rosenbrock_detail::all_finite(n * n, lin.M)) {
    return false;
  }
  S* product = scratch;                  // n x n
  S* time_derivative = scratch + n * n;  // f_t + J1 w (n)
  for (int i = 0; i < n; ++i) {
    S sum = f_t[i];
    for (int j = 0; j < n; ++j) sum += J1[i * n + j] * w[j];
    time_derivative[i] = sum;
  }
  rosenbrock_detail::dense_matrix_vector(n, lin.M, time_derivative, lin.g);
  for (int which = 0; which < 2; ++which) {
    S* J = which == 0 ? J1 : J2;
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        S sum(0.0);
        for (int k = 0; k < n; ++k) sum += lin.M[i * n + k] * J[k * n + j];
        product[i * n + j] = sum;
      }
    }
    for (int i = 0; i < n * n; ++i) J[i] = product[i];
  }
  return true;
}

// The four stages of one RN4 step attempt of size h from (t, x, w) with the linearization at (t, x, w):
// assembles and factors Pi (eq. 44; counted in stats.lu_factorizations), solves the four stage systems (eqs.
// 43, 45) with two acceleration() calls (counted; f_1 is lin.f, f_4 = f_3), and writes the order-4 solution
// (x_new, w_new) and the error estimate of the embedded order-3 solution,
//   x_error = x_new - xhat_new = h sum (mu_i - muhat_i) z_i,
//   w_error = w_new - what_new = sum (m_i - mhat_i) z_i.
// Outputs must not alias the inputs. work: rn4_stage_workspace_size(n) doubles.
// Returns ok; singular_matrix if Pi does not factor (dense_lu.hpp criterion; no evaluation is made then);
// non_finite if a stage evaluation fails (outputs then unset). Cost: 2 evaluations and O(n^3) (the LU).
// With a progress whose external_lu is set (integrators/integration_progress.hpp) the factorization and the four
// solves are the caller's: the call stops at each with progress->request set (returning ok; outputs unset) and a
// later call with the same arguments and work takes the result and goes on; progress->stage says how far the
// stages got (-1 once the attempt's stages are done or failed). Without one, or with external_lu unset, the
// stages run through in one call with lu_factor and lu_solve.
//   S is double, or Lanes for several instances' attempts at once (the lane runner; linalg/lanes_dense_lu.hpp
// factors each lane alone; no progress then).
template <class System, class S>
MYRIAD_HD InstanceStatus rn4_stages(System& sys, const S& t, const S& h, const S* x, const S* w,
                                    const Rn4LinearizationOf<S>& lin, S* x_new, S* w_new, S* x_error, S* w_error,
                                    S* work, IntegratorStats& stats, IntegrationProgress* progress = nullptr) {
  using Request = IntegrationProgress::LinearRequest;
  // Static: the stage loops index it at run time, and a plain constexpr local was built in each device thread's
  // local memory on every call (about 100 stores; 608 B of the stiff pendulum's RN4 model kernel's stack).
  static constexpr RosenbrockNystromTableau<4> T = rosenbrock_nystrom_tableau(kRn4BaseTableau);
  static_assert(T.theta[3][0] == T.theta[2][0] && T.theta[3][1] == T.theta[2][1] && T.theta[3][2] == 0.0 &&
                    T.a[3][0] == T.a[2][0] && T.a[3][1] == T.a[2][1] && T.a[3][2] == 0.0 &&
                    T.alpha_i[3] == T.alpha_i[2],
                "stage 4 must evaluate f where stage 3 does (seed 000 eq. 39)");
  constexpr bool kScalar = std::is_same<S, double>::value;  // only the scalar path hands its linear algebra over
  const int n = sys.dimension();
  S* Pi = work;              // the iteration matrix of eq. 44, then its LU factors (n x n)
  S* pivots = work + n * n;  // LU pivot rows (n), stored as doubles
  S* z[4];                   // stage unknowns z_1..z_4 (n each), eq. 43
  for (int s = 0; s < 4; ++s) z[s] = pivots + (1 + s) * n;
  S* X = pivots + 5 * n;              // stage positions X_i (n), eq. 25c
  S* W = pivots + 6 * n;              // stage velocities W_i (n), eq. 25d
  S* f_stage = pivots + 7 * n;        // f_2, then f_3 = f_4 (n)
  S* mass_part = pivots + 8 * n;      // the vector multiplied by Mhat in r_i (n)
  S* jacobian_part = pivots + 9 * n;  // the vector multiplied by Mhat J1 in r_i (n)

  const double gamma = T.gamma;
  const double inverse_gamma2 = 1.0 / (gamma * gamma);
  const S h_over_gamma = h / gamma;
  const S h2 = h * h;
  const bool external = kScalar && progress != nullptr && progress->external_lu;
  int first_stage = 0;
  if (progress == nullptr || progress->stage < 0) {
    for (int i = 0; i < n * n; ++i)
      Pi[i] = inverse_gamma2 * lin.M[i] - h_over_gamma * lin.MJ2[i] - h2 * lin.MJ1[i];
    ++stats.lu_factorizations;
    if constexpr (kScalar) {
      if (external) {
        progress->lu_threshold = lu_singularity_threshold(n, Pi);
        progress->factor_matrix = Pi;
        progress->factor_pivots = pivots;
        progress->request = Request::factor;
        progress->stage = 0;
        return InstanceStatus::ok;
      }
    }
    if (!lu_factor(n, Pi, pivots)) return InstanceStatus::singular_matrix;
  } else if constexpr (kScalar) {
    first_stage = progress->stage;
    if (progress->request == Request::factor) {
      progress->request = Request::none;
      if (progress->lu_info != 0 || !lu_pivots_regular(n, Pi, progress->lu_threshold)) {
        progress->stage = -1;
        return InstanceStatus::singular_matrix;
      }
    }
  }

  for (int s = first_stage; s < 4; ++s) {
    if (external && progress->request == Request::solve) {  // z_s came back solved
      progress->request = Request::none;
      continue;
    }
    const S* f_s = f_stage;
    if (s == 0) {
      f_s = lin.f;
    } else if (s < 3) {
      for (int k = 0; k < n; ++k) {
        S position = x[k] + h * T.alpha_i[s] * w[k];
        S velocity = w[k];
        for (int j = 0; j < s; ++j) {
          position += h * T.theta[s][j] * z[j][k];
          velocity += T.a[s][j] * z[j][k];
        }
        X[k] = position;
        W[k] = velocity;
      }
      ++stats.function_evaluations;
      if (!sys.acceleration(t + T.alpha_i[s] * h, X, W, f_stage)) {
        if (progress) progress->stage = -1;
        return InstanceStatus::non_finite;
      }
    }  // s == 3: f_4 = f_3, already in f_stage
    for (int k = 0; k < n; ++k) {
      S mass_sum = h_over_gamma * f_s[k];
      S jacobian_sum(0.0);
      for (int j = 0; j < s; ++j) {
        mass_sum += (T.c[s][j] / gamma) * z[j][k];
        jacobian_sum += (h2 / gamma) * T.delta[s][j] * z[j][k];
      }
      mass_part[k] = mass_sum;
      jacobian_part[k] = jacobian_sum;
    }
    const S time_factor = h2 * T.gamma_i[s] / gamma;
    S* r = z[s];
    for (int i = 0; i < n; ++i) {
      S sum = time_factor * lin.g[i];
      for (int j = 0; j < n; ++j)
        sum += lin.M[i * n + j] * mass_part[j] + lin.MJ1[i * n + j] * jacobian_part[j];
      r[i] = sum;
    }
    if constexpr (kScalar) {
      if (external) {
        progress->solve_vector = r;
        progress->request = Request::solve;
        progress->stage = s;
        return InstanceStatus::ok;
      }
    }
    lu_solve(n, Pi, pivots, r);  // z_s
  }
  if (progress) progress->stage = -1;

  for (int k = 0; k < n; ++k) {
    S position_sum(0.0), velocity_sum(0.0), position_error(0.0), velocity_error(0.0);
    for (int s = 0; s < 4; ++s) {
      position_sum += T.mu[s] * z[s][k];
      velocity_sum += T.m[s] * z[s][k];
      position_error += (T.mu[s] - T.mu_hat[s]) * z[s][k];
      velocity_error += (T.m[s] - T.m_hat[s]) * z[s][k];
    }
    x_new[k] = x[k] + h * (w[k] + position_sum);
    w_new[k] = w[k] + velocity_sum;
    x_error[k] = h * position_error;
    w_error[k] = velocity_error;
  }
  return InstanceStatus::ok;
}

// Scratch doubles rn4_step needs in `work`.
MYRIAD_HD_INLINE int rn4_step_workspace_size(int n) {
  return rn4_linearization_size(n) + rn4_stage_workspace_size(n);
}

// One RN4 step of the given size h from (t, x, w), for fixed-step use (order tests, stability studies):
// linearizes at (t, x, w) (one jacobians() and one mass_matrix() call) and runs the four stages. Writes the
// order-4 solution (x_new, w_new) and the embedded order-3 solution (x_hat, w_hat). Outputs (n each) must not
// alias the inputs. work: rn4_step_workspace_size(n) doubles.
// Stats: function_evaluations +3, jacobian_evaluations +1, lu_factorizations +1 (fewer evaluations on
// failure). Returns ok; non_finite if an evaluation (jacobians, mass_matrix, a stage) fails or gives
// non-finite values; singular_matrix if Pi does not factor. Cost: O(n^3) plus the evaluations.
template <class System>
MYRIAD_HD InstanceStatus rn4_step(System& sys, double t, double h, const double* x, const double* w,
                                  double* x_new, double* w_new, double* x_hat, double* w_hat, double* work,
                                  IntegratorStats& stats) {
  const int n = sys.dimension();
  const Rn4Linearization lin = rn4_linearization_view(n, work);
  double* stage_work = work + rn4_linearization_size(n);
  if (!rn4_linearize(sys, t, x, w, lin, stage_work, stats)) return InstanceStatus::non_finite;
  const InstanceStatus status =
      rn4_stages(sys, t, h, x, w, lin, x_new, w_new, x_hat, w_hat, stage_work, stats);
  if (status != InstanceStatus::ok) return status;
  for (int k = 0; k < n; ++k) {
    x_hat[k] = x_new[k] - x_hat[k];
    w_hat[k] = w_new[k] - w_hat[k];
  }
  return InstanceStatus::ok;
}

// Leaves a linearization of integrate_rn4 to the caller (IntegrationProgress::Handover::rn4_linearization): at
// the step end before its outputs (at_end) or at the next step start, with the accepted attempt's h and error
// norm kept for the step control that follows.
MYRIAD_HD_INLINE void hand_over_rn4_linearization(IntegrationProgress& progress, bool at_end, double t,
                                                  const double* x, const double* w, double h_try, double err,
                                                  double* work) {
  progress.handover = IntegrationProgress::Handover::rn4_linearization;
  progress.end_linearization = at_end;
  progress.step_t_end = t;
  progress.step_y = x;
  progress.step_w = w;
  progress.h_try = h_try;
  progress.step_err = err;
  progress.step_work = work;
}

// Scratch doubles integrate_rn4 needs in `work` (layout there): 4 n^2 + 19 n.
MYRIAD_HD_INLINE int rn4_workspace_size(int n) {
  return rn4_linearization_size(n) + rn4_stage_workspace_size(n) + 7 * n;
}

// Integrates x'' = f(t, x, x') adaptively with RN4 (seed 000 Algorithm 1) from t0 to T =
// output_times[n_outputs - 1] and hands (x, w) at every output time to obs
// (integrators/second_order_system.hpp).
//   * Each step start is linearized once (rn4_linearize: one jacobians() and one mass_matrix() call); each
//     attempt assembles and factors Pi once (rn4_stages). A rejected attempt is retried from the same start
//     with the same linearization (J1, J2, f_t, Mhat, f_n are not re-evaluated when only h changes); Pi is
//     refactored because it depends on h.
//   * Step control: error of the embedded order-3 solution over positions and velocities, norm of seed 000
//     eqs. 13-14 over the 2n components (second_order_error_norm), next step of eq. 16 with q = 3 (exponent
//     1/4), no growth after a rejection; first trial step control.h_initial or, if 0, Hairer's starting step
//     (initial_step_size on the first-order form, one acceleration() call); trial steps clipped to h_max
//     (if > 0).
//   * Steps never overshoot T: clipped to end on T, a step leaving under 1% of itself is stretched to T.
//   * An attempt whose stage evaluation fails or whose solution or error is non-finite counts as rejected and
//     is retried with h/2. An attempt whose Pi does not factor counts as rejected and is retried with h/2;
//     after kRosenbrockSingularRetries such retries in a row the integration stops with singular_matrix.
//   * Outputs come from second_order_dense_output (quintic Hermite in x, cubic in w) on the accepted step,
//     which needs f at the step end. That f is the next step's stage-1 f: when an output lies strictly inside
//     a step that is not the last, the next step's linearization is evaluated at the step end before the
//     outputs (and reused by the next step); inside the last step one acceleration() call supplies it. An
//     output time equal to t0 gets the initial state, one equal to a step end that step's values; each index
//     is reported exactly once. output_times must be nondecreasing and >= t0; any sequence indexed like an
//     array of doubles (integrators/output_times.hpp).
//   * After each accepted step (after its outputs) sys.rebase(t, x, w) is called. If it returns true and
//     another step follows, the step start is linearized (again) in the new chart.
// x, w: the initial state (n each) on entry; on return the state at T, or on failure the state at the last
// accepted step (after its rebase). work: rn4_workspace_size(n) doubles. stats is added to, not reset:
//   lu_factorizations += steps + rejected (every attempt factors Pi once, including those that fail to);
//   jacobian_evaluations += 1 (at t0) + 1 per accepted step other than the last + 1 per such step that has an
//     output strictly inside it and whose rebase returned true; for a system that never rebases,
//     jacobian_evaluations == steps;
//   function_evaluations += jacobian_evaluations (the f of each jacobians() call) + 2 per attempt whose Pi
//     factored (stages 2 and 3; 1 if stage 2's evaluation failed) + 1 if h_initial == 0 (starting step)
//     + 1 if the last step has an output strictly inside it.
// None of this when T <= t0 (outputs at t0 only). Cost: O((steps + rejected) (2 evaluations + n^3) + Jacobian
// evaluations (1 evaluation + n^3)).
// Returns ok; non_finite if the linearization at t0, at a step end or after a rebase fails (or is
// non-finite), if a rebase leaves a non-finite state, if the dense-output evaluation in the last step fails,
// or if the step falls below the minimum while retrying after failed/non-finite attempts; singular_matrix
// (see above, or the step falls below the minimum while retrying after singular Pi); step_size_too_small if
// the controller asks for a step below minimum_step_size(control, t) after error rejections; max_steps if
// control.max_steps attempts (accepted + rejected) did not reach T.
// The resumable form (integrators/integration_progress.hpp): stops before an attempt when progress.budget is
// used up (returning ok with progress.finished() false); a later call with the same progress, x, w and work
// carries on bit for bit. Finished: returns progress.status. With progress.external_step (host only) it stops
// likewise at each attempt's stages and at each linearization after the first (IntegrationProgress::Handover),
// for the caller to compute them (the lane runner: several instances' at once) before it calls again.
template <class System, class Times, class Observer>
MYRIAD_HD InstanceStatus integrate_rn4(System& sys, double t0, double* x, double* w,
                                       const Times& output_times, int n_outputs, Observer& obs,
                                       const StepControl& control, double* work, IntegratorStats& stats,
                                       IntegrationProgress& progress) {
  if (progress.finished()) return progress.status;
  if (n_outputs <= 0) return progress.finish(InstanceStatus::ok);
  const int n = sys.dimension();
  const Rn4Linearization lin = rn4_linearization_view(n, work);  // the current step start's linearization
  double* stage_work = work + rn4_linearization_size(n);         // rn4_stages' scratch (n^2 + 10 n)
  double* y_new = stage_work + rn4_stage_workspace_size(n);      // (x_new, w_new) at the trial step end (2n)
  double* x_new = y_new;
  double* w_new = y_new + n;
  double* x_error =
      y_new + 2 * n;  // x_new - xhat_new (n); with w_error the first-order f0 for the start step
  double* w_error = y_new + 3 * n;  // w_new - what_new (n)
  double* y_out = y_new + 4 * n;    // (x, w) handed to obs for t0 and dense outputs (2n)
  double* f_start = y_new + 6 * n;  // f at the start of an accepted step, kept for its dense output (n)

  int& next_output = progress.next_output;
  double& t = progress.t;
  double& h = progress.h;
  RetryState& retry = progress.retry;  // decides the status if h underflows while retrying
  int& singular_in_a_row = progress.singular_in_a_row;
  const double t_end = output_times[n_outputs - 1];
  if (progress.phase == IntegrationProgress::Phase::fresh) {
    if (!second_order_initial_outputs(n, t0, x, w, output_times, n_outputs, obs, y_out, next_output))
      return progress.finish(InstanceStatus::ok);

    if (!rn4_linearize(sys, t0, x, w, lin, stage_work, stats)) return progress.finish(InstanceStatus::non_finite);
    // (x_error, w_error) are contiguous: the 2n of scratch for the first-order derivative.
    h = second_order_initial_step(sys, t0, t_end, x, w, lin.f, kRn4LowerOrder, control, y_out, x_error, stage_work,
                                  stats);

    t = t0;
    progress.attempts = 0;
    retry = RetryState{};
    singular_in_a_row = 0;
    progress.phase = IntegrationProgress::Phase::stepping;
  }
  using Handover = IntegrationProgress::Handover;
  for (;;) {
    // What the caller has just done for this call to take up (external_step; none otherwise).
    const Handover resumed = kExternalSteps ? progress.handover : Handover::none;
    progress.handover = Handover::none;
    const bool external = kExternalSteps && progress.external_step;
    double h_try = 0.0, err = 0.0;
    bool last = false;
    if (resumed == Handover::rn4_linearization) {
      h_try = progress.h_try;
      err = progress.step_err;
      last = progress.last;
    }
    if (resumed == Handover::none || resumed == Handover::rn4_stages) {
      // A new attempt, unless this call continues one that stopped for its linear algebra or its stages.
      InstanceStatus result = InstanceStatus::ok;
      if (resumed == Handover::none && progress.stage < 0 &&
          !begin_adaptive_attempt(progress, control, t_end, &result))
        return result;
      last = progress.last;
      h_try = progress.h_try;

      InstanceStatus stage_status;
      if (resumed == Handover::rn4_stages) {
        stage_status = progress.step_status;
      } else if (external) {
        progress.handover = Handover::rn4_stages;
        progress.step_y = x;
        progress.step_w = w;
        progress.step_y_new = y_new;
        progress.step_error = x_error;
        progress.step_work = work;
        return InstanceStatus::ok;
      } else {
        stage_status =
            rn4_stages(sys, t, h_try, x, w, lin, x_new, w_new, x_error, w_error, stage_work, stats, &progress);
        if (progress.request != IntegrationProgress::LinearRequest::none) return InstanceStatus::ok;
      }
      if (stage_status == InstanceStatus::singular_matrix) {
        retry.reject(RetryState::Failure::singular, stats);
        if (++singular_in_a_row > kRosenbrockSingularRetries)
          return progress.finish(InstanceStatus::singular_matrix);
        h = 0.5 * h_try;
        continue;
      }
      singular_in_a_row = 0;
      const bool evaluated = stage_status == InstanceStatus::ok && rosenbrock_detail::all_finite(2 * n, y_new);
      err = evaluated ? second_order_error_norm(n, x, w, x_new, w_new, x_error, w_error, control.rtol, control.atol)
                      : 0.0;
      if (!judge_attempt(evaluated, err, h_try, kRn4LowerOrder, control, stats, retry, h)) continue;
      ++stats.steps;
    }
    const double t_new = last ? t_end : t + h_try;
    // f at the step end, for outputs strictly inside the step: the next step's linearization, evaluated now
    // (before the rebase) in the chart of this step.
    const bool dense = next_output < n_outputs && output_times[next_output] < t_new;
    const bool at_end = resumed == Handover::rn4_linearization && progress.end_linearization;
    const bool at_start = resumed == Handover::rn4_linearization && !progress.end_linearization;
    if (dense && !at_start) {
      bool end_evaluated;
      if (at_end) {
        end_evaluated = progress.step_evaluated;
      } else {
        for (int i = 0; i < n; ++i) f_start[i] = lin.f[i];
        if (last) {
          ++stats.function_evaluations;
          end_evaluated =
              sys.acceleration(t_new, x_new, w_new, lin.f) && rosenbrock_detail::all_finite(n, lin.f);
        } else if (external) {
          hand_over_rn4_linearization(progress, true, t_new, x_new, w_new, h_try, err, work);
          return InstanceStatus::ok;
        } else {
          end_evaluated = rn4_linearize(sys, t_new, x_new, w_new, lin, stage_work, stats);
        }
      }
      if (!end_evaluated) {
        for (int i = 0; i < n; ++i) {
          x[i] = x_new[i];
          w[i] = w_new[i];
        }
        return progress.finish(InstanceStatus::non_finite);
      }
    }
    if (!at_start) {
      while (next_output < n_outputs && output_times[next_output] <= t_new) {
        const double t_out = output_times[next_output];
        if (t_out == t_new) {
          obs(next_output, t_out, y_new);
        } else {
          second_order_dense_output(n, (t_out - t) / h_try, h_try, x, w, f_start, x_new, w_new, lin.f, y_out,
                                    y_out + n);
          obs(next_output, t_out, y_out);
        }
        ++next_output;
      }

      for (int i = 0; i < n; ++i) {
        x[i] = x_new[i];
        w[i] = w_new[i];
      }
      t = t_new;
      const bool rebased = sys.rebase(t, x, w);
      if (rebased && (!rosenbrock_detail::all_finite(n, x) || !rosenbrock_detail::all_finite(n, w)))
        return progress.finish(InstanceStatus::non_finite);
      if (last) return progress.finish(InstanceStatus::ok);
      if (!dense || rebased) {
        if (external) {
          hand_over_rn4_linearization(progress, false, t, x, w, h_try, err, work);
          return InstanceStatus::ok;
        }
        if (!rn4_linearize(sys, t, x, w, lin, stage_work, stats)) return progress.finish(InstanceStatus::non_finite);
      }
    } else if (!progress.step_evaluated) {
      return progress.finish(InstanceStatus::non_finite);
    }
    h = next_step_size(h_try, err, kRn4LowerOrder, control, retry.after_rejection);
    retry.accept();
  }
}

// In one call, to the end.
template <class System, class Times, class Observer>
MYRIAD_HD InstanceStatus integrate_rn4(System& sys, double t0, double* x, double* w,
                                       const Times& output_times, int n_outputs, Observer& obs,
                                       const StepControl& control, double* work, IntegratorStats& stats) {
  IntegrationProgress progress;
  return integrate_rn4(sys, t0, x, w, output_times, n_outputs, obs, control, work, stats, progress);
}

}  // namespace myriad
