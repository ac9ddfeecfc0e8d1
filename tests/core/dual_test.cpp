// Forward-mode dual numbers: derivatives of compositions against analytic values, and the templated dynamics
// run on Dual scalars (values equal to the double path, derivatives equal to known identities).
#include "core/dual.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <type_traits>
#include <vector>

#include "dynamics/articulated_body.hpp"
#include "dynamics/energy.hpp"
#include "dynamics/inverse_dynamics.hpp"
#include "dynamics/mass_matrix.hpp"
#include "dynamics/output_signals.hpp"
#include "dynamics/tree_chart.hpp"
#include "dynamics/tree_ode.hpp"
#include "random_state.hpp"
#include "support/model_fixture.hpp"

namespace myriad {
namespace dual_test {

using D2 = Dual<double, 2>;

TEST(DualNumbers, AreTriviallyCopyableConstantsFromDouble) {
  static_assert(std::is_trivially_copyable<D2>::value, "Dual must be trivially copyable");
  static_assert(std::is_trivially_copyable<Dual<double, 8>>::value, "Dual must be trivially copyable");
  const D2 c(2.5);
  EXPECT_EQ(c.value, 2.5);
  EXPECT_EQ(c.d[0], 0.0);
  EXPECT_EQ(c.d[1], 0.0);
  EXPECT_EQ(value_of(c), 2.5);
  const D2 x = D2::variable(1.5, 1);
  EXPECT_EQ(x.d[0], 0.0);
  EXPECT_EQ(x.d[1], 1.0);
  const D2 ignored = D2::variable(1.5, 7);  // a direction outside this Dual: a constant
  EXPECT_EQ(ignored.d[0], 0.0);
  EXPECT_EQ(ignored.d[1], 0.0);
}

TEST(DualNumbers, ArithmeticMatchesAnalyticPartials) {
  const double xv = 0.7, yv = -1.3;
  const D2 x = D2::variable(xv, 0), y = D2::variable(yv, 1);
  // f = (x y + 3) / (x - y) - 2 x + y / 4 + 1 / y - (5 - x) * (x + 2)
  const D2 f = (x * y + 3.0) / (x - y) - 2.0 * x + y / 4.0 + 1.0 / y - (5.0 - x) * (x + 2.0) + (-x) * 0.5;
  const double g = (xv * yv + 3.0), h = (xv - yv);
  const double value = g / h - 2.0 * xv + yv / 4.0 + 1.0 / yv - (5.0 - xv) * (xv + 2.0) - 0.5 * xv;
  const double dfdx = (yv * h - g) / (h * h) - 2.0 + (xv + 2.0) - (5.0 - xv) - 0.5;
  const double dfdy = (xv * h + g) / (h * h) + 0.25 - 1.0 / (yv * yv);
  EXPECT_NEAR(f.value, value, 1e-15 * std::abs(value));
  EXPECT_NEAR(f.d[0], dfdx, 1e-14 * std::abs(dfdx));
  EXPECT_NEAR(f.d[1], dfdy, 1e-14 * std::abs(dfdy));
}

TEST(DualNumbers, CompoundAssignmentsMatchBinaryOperators) {
  const D2 x = D2::variable(1.1, 0), y = D2::variable(0.4, 1);
  D2 a = x;
  a += y;
  a *= x;
  a -= 2.0;
  a /= y;
  a *= 3.0;
  a += 1.0;
  a /= 2.0;
  a -= x;
  const D2 b = (((x + y) * x - 2.0) / y * 3.0 + 1.0) / 2.0 - x;
  EXPECT_DOUBLE_EQ(a.value, b.value);
  EXPECT_DOUBLE_EQ(a.d[0], b.d[0]);
  EXPECT_DOUBLE_EQ(a.d[1], b.d[1]);
}

TEST(DualNumbers, ElementaryFunctionCompositionsMatchAnalyticPartials) {
  const double xv = 0.8, yv = 2.1;
  const D2 x = D2::variable(xv, 0), y = D2::variable(yv, 1);
  // Through the ADL helpers the dynamics use.
  const D2 f = scalar_sin(x * y) + scalar_sqrt(x * x + y) * scalar_cos(y - x) -
               scalar_atan2(y, x) * scalar_abs(x - 3.0);
  const double s = std::sin(xv * yv), c = std::cos(xv * yv);
  const double r = std::sqrt(xv * xv + yv), cy = std::cos(yv - xv), sy = std::sin(yv - xv);
  const double at = std::atan2(yv, xv), den = xv * xv + yv * yv, ab = std::abs(xv - 3.0);
  const double value = s + r * cy - at * ab;
  // d|x - 3|/dx = -1 here (x < 3); d atan2(y, x) = (x dy - y dx) / (x^2 + y^2).
  const double dfdx = c * yv + (xv / r) * cy + r * sy - (-yv / den) * ab - at * (-1.0);
  const double dfdy = c * xv + (0.5 / r) * cy - r * sy - (xv / den) * ab;
  EXPECT_NEAR(f.value, value, 1e-15);
  EXPECT_NEAR(f.d[0], dfdx, 1e-14 * std::abs(dfdx));
  EXPECT_NEAR(f.d[1], dfdy, 1e-14 * std::abs(dfdy));

  // A deeper chain: g = sqrt(sin(x)^2 + cos(x y)^2), dg = (sin x cos x dx - cos(xy) sin(xy) (y dx + x dy)) /
  // g.
  const D2 sx = scalar_sin(x), cxy = scalar_cos(x * y);
  const D2 g = scalar_sqrt(sx * sx + cxy * cxy);
  const double gv = std::sqrt(std::sin(xv) * std::sin(xv) + c * c);
  EXPECT_NEAR(g.value, gv, 1e-15);
  EXPECT_NEAR(g.d[0], (std::sin(xv) * std::cos(xv) - c * s * yv) / gv, 1e-14);
  EXPECT_NEAR(g.d[1], (-c * s * xv) / gv, 1e-14);
}

TEST(DualNumbers, NestedDualsGiveSecondDerivatives) {
  using DD = Dual<Dual<double, 1>, 1>;
  // x seeded in both levels: the outer derivative's inner derivative is f''(x).
  DD x(0.0);
  x.value = Dual<double, 1>::variable(0.9, 0);
  x.d[0] = Dual<double, 1>(1.0);
  const DD f = scalar_sin(x) * x;  // f' = cos x x + sin x, f'' = -sin x x + 2 cos x
  EXPECT_EQ(value_of(f), std::sin(0.9) * 0.9);
  EXPECT_NEAR(f.d[0].value, std::cos(0.9) * 0.9 + std::sin(0.9), 1e-15);
  EXPECT_NEAR(f.d[0].d[0], -std::sin(0.9) * 0.9 + 2.0 * std::cos(0.9), 1e-15);
}

// The dynamics on Dual scalars: values equal to the double path; d(kinetic energy)/dv = M v exactly; the
// velocity derivative of the forward dynamics against a central difference.
TEST(DualNumbers, RunThroughEveryDynamicsHeader) {
  testing::Instance inst(load_model_file(testing::model_path("spatial_chain.json")));
  const CompiledModel& cm = *inst.compiled;
  const int nq = cm.nq, nv = cm.nv;
  using DV = Dual<double, 1>;
  std::vector<unsigned char> buffer(tree_workspace_bytes<DV>(cm));
  TreeWorkspace<DV> w = carve_tree_workspace<DV>(cm, buffer.data(), nullptr);
  std::mt19937_64 rng(11);
  std::vector<double> q, v;
  cli::random_state(inst.model, inst.q, rng, q, v);
  const double t = 0.37;
  std::vector<double> qdd(static_cast<size_t>(nv)), M(static_cast<size_t>(nv * nv));
  ASSERT_TRUE(forward_dynamics(cm, inst.k(), t, q.data(), v.data(), inst.w, qdd.data()));
  mass_matrix(cm, inst.k(), q.data(), v.data(), inst.w, M.data());
  const double kinetic = kinetic_energy(cm, inst.k(), inst.w);
  for (int j = 0; j < nv; ++j) {
    std::vector<DV> qd(static_cast<size_t>(nq)), vd(static_cast<size_t>(nv)), qddd(static_cast<size_t>(nv));
    for (int i = 0; i < nq; ++i) qd[static_cast<size_t>(i)] = DV(q[static_cast<size_t>(i)]);
    for (int i = 0; i < nv; ++i)
      vd[static_cast<size_t>(i)] = DV::variable(v[static_cast<size_t>(i)], i == j ? 0 : -1);
    ASSERT_TRUE(forward_dynamics(cm, inst.k(), t, qd.data(), vd.data(), w, qddd.data()));
    const DV kinetic_d = kinetic_energy(cm, inst.k(), w);
    EXPECT_NEAR(kinetic_d.value, kinetic, 1e-13 * std::max(1.0, kinetic));
    double Mv = 0.0;
    for (int i = 0; i < nv; ++i) Mv += M[static_cast<size_t>(j * nv + i)] * v[static_cast<size_t>(i)];
    EXPECT_NEAR(kinetic_d.d[0], Mv, 1e-12 * std::max(1.0, std::abs(Mv)));

    // Five-point central difference; its round-off is about eps max|qdd| / h.
    const double h = 1e-3;
    std::vector<double> fd(static_cast<size_t>(nv), 0.0), a(static_cast<size_t>(nv));
    const double weights[4] = {1.0, -8.0, 8.0, -1.0}, steps[4] = {-2 * h, -h, h, 2 * h};
    for (int p = 0; p < 4; ++p) {
      std::vector<double> vp = v;
      vp[static_cast<size_t>(j)] += steps[p];
      ASSERT_TRUE(forward_dynamics(cm, inst.k(), t, q.data(), vp.data(), inst.w, a.data()));
      for (int i = 0; i < nv; ++i)
        fd[static_cast<size_t>(i)] += weights[p] / (12 * h) * a[static_cast<size_t>(i)];
    }
    double qdd_max = 0.0;
    for (double value : qdd) qdd_max = std::max(qdd_max, std::abs(value));
    for (int i = 0; i < nv; ++i) {
      const size_t s = static_cast<size_t>(i);
      EXPECT_NEAR(qddd[s].value, qdd[s], 1e-12 * std::max(1.0, std::abs(qdd[s])));
      EXPECT_NEAR(qddd[s].d[0], fd[s], 1e-8 * std::max(1.0, std::abs(fd[s])) + 1e-13 * qdd_max / h);
    }
  }
  // The rest of the templated dynamics compile and agree in value on Dual scalars.
  std::vector<DV> qd(static_cast<size_t>(nq)), vd(static_cast<size_t>(nv)), ad(static_cast<size_t>(nv)),
      tau(static_cast<size_t>(nv)), Md(static_cast<size_t>(nv * nv));
  for (int i = 0; i < nq; ++i) qd[static_cast<size_t>(i)] = DV(q[static_cast<size_t>(i)]);
  for (int i = 0; i < nv; ++i) vd[static_cast<size_t>(i)] = DV(v[static_cast<size_t>(i)]);
  for (int i = 0; i < nv; ++i) ad[static_cast<size_t>(i)] = DV(qdd[static_cast<size_t>(i)]);
  inverse_dynamics(cm, inst.k(), t, qd.data(), vd.data(), ad.data(), w, tau.data());
  for (int i = 0; i < nv; ++i) EXPECT_NEAR(tau[static_cast<size_t>(i)].value, 0.0, 1e-9);
  mass_matrix(cm, inst.k(), qd.data(), vd.data(), w, Md.data());
  for (int i = 0; i < nv * nv; ++i)
    EXPECT_NEAR(Md[static_cast<size_t>(i)].value, M[static_cast<size_t>(i)], 1e-12);
  tree_kinematics(cm, inst.k(), qd.data(), vd.data(), w);
  tree_kinematics(cm, inst.k(), q.data(), v.data(), inst.w);
  EXPECT_NEAR(value_of(potential_energy(cm, inst.k(), t, qd.data(), w)),
              potential_energy(cm, inst.k(), t, q.data(), inst.w), 1e-10);
  const Quat<DV> r = quat_from_rotation(w.X_world[cm.n_bodies - 1].R);
  const Quat<double> r0 = quat_from_rotation(inst.w.X_world[cm.n_bodies - 1].R);
  EXPECT_NEAR(value_of(r.w), r0.w, 1e-14);
  std::vector<double> base(static_cast<size_t>(nq)), x(static_cast<size_t>(nv));
  chart_from_q(cm, q.data(), base.data(), x.data());
  std::vector<DV> xd(static_cast<size_t>(nv)), q_chart(static_cast<size_t>(nq)),
      rate(static_cast<size_t>(nv));
  for (int i = 0; i < nv; ++i) xd[static_cast<size_t>(i)] = DV(x[static_cast<size_t>(i)] + 0.1);
  chart_to_q(cm, base.data(), xd.data(), q_chart.data());
  chart_rate(cm, xd.data(), q_chart.data(), vd.data(), rate.data());
  for (const DV& value : rate) EXPECT_TRUE(is_finite(value_of(value)));
}

}  // namespace dual_test
}  // namespace myriad
