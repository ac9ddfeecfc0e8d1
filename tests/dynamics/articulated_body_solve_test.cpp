// articulated_body_solve (dynamics/articulated_body.hpp): M(q)^-1 tau by the factors the articulated-body algorithm
// leaves behind, which the tree Jacobians apply to every derivative direction. Checked on every shipped model at
// random states against the composite-rigid-body M of the same q: the residual M x - tau is at round-off of
// |M| |x| + |tau| (a backward-stable solve; the solution itself may carry cond(M) eps, up to 1e8 eps here).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "dynamics/articulated_body.hpp"
#include "dynamics/mass_matrix.hpp"
#include "random_state.hpp"
#include "support/model_fixture.hpp"

namespace myriad {
namespace articulated_body_solve_test {

using testing::Instance;
using Vec = std::vector<double>;

size_t idx(int i) { return static_cast<size_t>(i); }

double max_abs(const Vec& a) {
  double m = 0.0;
  for (double v : a) m = std::max(m, std::abs(v));
  return m;
}

TEST(ArticulatedBodySolve, InvertsTheCompositeRigidBodyMassMatrixOnEveryModel) {
  std::mt19937_64 rng(12);
  std::normal_distribution<double> normal;
  int models = 0;
  for (const std::string& file : testing::shipped_model_files()) {
    SCOPED_TRACE(file);
    Instance inst(load_model_file(file));
    const CompiledModel& cm = *inst.compiled;
    const int n = cm.nv;
    if (n == 0) continue;
    ++models;
    std::vector<unsigned char> crba_buffer(tree_workspace_bytes<double>(cm));
    TreeWorkspace<double> crba = carve_tree_workspace<double>(cm, crba_buffer.data(), nullptr);
    double worst = 0.0;
    for (int trial = 0; trial < 4; ++trial) {
      Vec q, v, qdd(idx(n)), M(idx(n * n)), tau(idx(n)), x(idx(n));
      cli::random_state(inst.model, inst.q, rng, q, v);
      ASSERT_TRUE(forward_dynamics(cm, inst.k(), 0.25 * trial, q.data(), v.data(), inst.w, qdd.data()));
      mass_matrix(cm, inst.k(), q.data(), v.data(), crba, M.data());
      double M_max = 0.0;
      for (double m : M) M_max = std::max(M_max, std::abs(m));
      for (int i = 0; i < n; ++i) tau[idx(i)] = M_max * normal(rng);
      articulated_body_solve(cm, inst.w, tau.data(), inst.w.pA, inst.w.u, inst.w.acceleration, x.data());
      const double scale = M_max * max_abs(x) + max_abs(tau);
      for (int i = 0; i < n; ++i) {
        double residual = -tau[idx(i)];
        for (int j = 0; j < n; ++j) residual += M[idx(i * n + j)] * x[idx(j)];
        worst = std::max(worst, std::abs(residual) / scale);
        EXPECT_LT(std::abs(residual), 1e-14 * scale) << "row " << i;
      }
      // In place (tau and qdd one array), as the Jacobians call it: the same bits.
      Vec y = tau;
      articulated_body_solve(cm, inst.w, y.data(), inst.w.pA, inst.w.u, inst.w.acceleration, y.data());
      for (int i = 0; i < n; ++i) EXPECT_EQ(y[idx(i)], x[idx(i)]);
    }
    std::printf("  [%s] n = %d: max |M x - tau| / (|M| |x| + |tau|) = %.1e\n", file.substr(file.rfind('/') + 1).c_str(),
                n, worst);
  }
  EXPECT_GE(models, 20);
}

}  // namespace articulated_body_solve_test
}  // namespace myriad
