// The fast path (ABA, CRBA, RNEA, chart) against the independent dense reference path, on every shipped model.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <filesystem>
#include <random>

#include "dynamics/inverse_dynamics.hpp"
#include "dynamics/mass_matrix.hpp"
#include "dynamics/tree_chart.hpp"
#include "random_state.hpp"
#include "reference/reference_dynamics.hpp"
#include "support/model_fixture.hpp"

namespace myriad {
namespace fast_path_vs_reference_test {

using testing::Instance;

std::vector<std::string> shipped_models() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(MYRIAD_SOURCE_DIR) + "/models"))
    if (entry.path().extension() == ".json") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FastPath, ShipsModelsToCheck) { EXPECT_GE(shipped_models().size(), 5u); }

TEST(FastPath, AbaCrbaRneaMatchReferenceOnEveryModel) {
  for (const std::string& file : shipped_models()) {
    SCOPED_TRACE(file);
    Instance inst(load_model_file(file));
    const int nv = inst.compiled->nv;
    std::mt19937_64 rng(3);
    std::vector<double> q, v, qdd(static_cast<size_t>(nv)), M(static_cast<size_t>(nv * nv)), tau(static_cast<size_t>(nv));
    for (int s = 0; s < 8; ++s) {
      cli::random_state(inst.model, inst.q, rng, q, v);
      const double t = 0.1 * s;
      const Eigen::VectorXd qe = Eigen::Map<Eigen::VectorXd>(q.data(), static_cast<Eigen::Index>(q.size()));
      const Eigen::VectorXd ve = Eigen::Map<Eigen::VectorXd>(v.data(), nv);
      const Eigen::VectorXd a_ref = reference::forward_dynamics(inst.model, t, qe, ve);
      ASSERT_TRUE(forward_dynamics(*inst.compiled, inst.k(), t, q.data(), v.data(), inst.w, qdd.data()));
      const double scale = std::max(1.0, a_ref.cwiseAbs().maxCoeff());
      for (int i = 0; i < nv; ++i) EXPECT_NEAR(qdd[static_cast<size_t>(i)], a_ref[i], 1e-9 * scale);

      mass_matrix(*inst.compiled, inst.k(), q.data(), v.data(), inst.w, M.data());
      const Eigen::MatrixXd M_ref = reference::mass_matrix(inst.model, qe);
      for (int i = 0; i < nv; ++i)
        for (int j = 0; j < nv; ++j) EXPECT_NEAR(M[static_cast<size_t>(i * nv + j)], M_ref(i, j), 1e-10 * std::max(1.0, M_ref.norm()));

      // RNEA with zero acceleration gives the bias b; then M qdd + b must vanish (ABA and CRBA+RNEA agree).
      std::vector<double> zero(static_cast<size_t>(nv), 0.0), bias(static_cast<size_t>(nv));
      inverse_dynamics(*inst.compiled, inst.k(), t, q.data(), v.data(), zero.data(), inst.w, bias.data());
      for (int i = 0; i < nv; ++i) {
        double r = bias[static_cast<size_t>(i)];
        for (int j = 0; j < nv; ++j) r += M[static_cast<size_t>(i * nv + j)] * qdd[static_cast<size_t>(j)];
        EXPECT_NEAR(r, 0.0, 1e-9 * std::max(1.0, (M_ref * a_ref).cwiseAbs().maxCoeff()));
      }
    }
  }
}

TEST(FastPath, ChartRateMatchesReferenceCoordinateRate) {
  // Through the chart, dq/dt (finite difference of chart_to_q along x') equals the reference qdot.
  for (const std::string& file : shipped_models()) {
    SCOPED_TRACE(file);
    Instance inst(load_model_file(file));
    const CompiledModel& cm = *inst.compiled;
    std::mt19937_64 rng(5);
    std::vector<double> q, v;
    cli::random_state(inst.model, inst.q, rng, q, v);
    std::vector<double> base(static_cast<size_t>(cm.nq)), x(static_cast<size_t>(cm.nv)), xdot(static_cast<size_t>(cm.nv));
    chart_from_q(cm, q.data(), base.data(), x.data());
    // Move off the chart centre so the rotation-vector Jacobian is exercised.
    for (double& xi : x) xi += 0.05;
    std::vector<double> q_at(static_cast<size_t>(cm.nq));
    chart_to_q(cm, base.data(), x.data(), q_at.data());
    chart_rate(cm, x.data(), q_at.data(), v.data(), xdot.data());
    const double h = 1e-6;
    std::vector<double> xp = x, xm = x, qp(q_at.size()), qm(q_at.size());
    for (size_t i = 0; i < x.size(); ++i) {
      xp[i] += h * xdot[i];
      xm[i] -= h * xdot[i];
    }
    chart_to_q(cm, base.data(), xp.data(), qp.data());
    chart_to_q(cm, base.data(), xm.data(), qm.data());
    const Eigen::VectorXd qdot_ref = reference::qdot(inst.model, Eigen::Map<Eigen::VectorXd>(q_at.data(), cm.nq),
                                                     Eigen::Map<Eigen::VectorXd>(v.data(), cm.nv));
    for (int i = 0; i < cm.nq; ++i) EXPECT_NEAR((qp[static_cast<size_t>(i)] - qm[static_cast<size_t>(i)]) / (2 * h), qdot_ref[i], 1e-7);
  }
}

}  // namespace fast_path_vs_reference_test
}  // namespace myriad
