// Pinocchio's articulated-body (aba) and composite-rigid-body (crba) algorithms, timed per call in C++ as a
// C++ user of Pinocchio calls them: the peer side of bench/peers/tree_dynamics_peers.py, which builds the
// model from a Myriad model file (with Pinocchio's Python bindings), checks it against Myriad's dynamics and
// saves it as text. Compiled by that script against the Pinocchio wheel in the peer environment; not part of
// Myriad's build.
//
//   pinocchio_tree_dynamics MODEL.txt [--repeats R]
//
// Prints "aba_ns <best mean ns a call>" and "crba_ns <...>" over the same 256-state x 200-pass loop as
// bench/tree_dynamics_per_call.cpp.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/joint-configuration.hpp>
#include <pinocchio/multibody.hpp>
#include <pinocchio/serialization.hpp>
#include <random>
#include <vector>

#include "per_call_timing.hpp"  // bench/, on the include path the peer script gives

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODEL.txt [--repeats R]\n", argv[0]);
    return 2;
  }
  int repeats = 7;
  for (int a = 2; a + 1 < argc; ++a)
    if (std::strcmp(argv[a], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[a + 1]));
  pinocchio::Model model;
  model.loadFromText(argv[1]);
  pinocchio::Data data(model);

  constexpr int kStates = 256;
  std::mt19937_64 rng(19);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<Eigen::VectorXd> qs, vs, taus;
  for (int s = 0; s < kStates; ++s) {
    Eigen::VectorXd dq(model.nv), v(model.nv), tau(model.nv);
    for (int i = 0; i < model.nv; ++i) {
      dq[i] = 0.5 * normal(rng);
      v[i] = normal(rng);
      tau[i] = 0.0;
    }
    qs.push_back(pinocchio::integrate(model, pinocchio::neutral(model), dq));
    vs.push_back(v);
    taus.push_back(tau);
  }
  double checksum = 0.0;
  const double aba = myriad::bench::best_ns_per_call(repeats, kStates, [&](int s) {
    pinocchio::aba(model, data, qs[s], vs[s], taus[s]);
    checksum += data.ddq[0];
  });
  const double crba = myriad::bench::best_ns_per_call(repeats, kStates, [&](int s) {
    pinocchio::crba(model, data, qs[s]);
    checksum += data.M(0, 0);
  });
  std::printf("aba_ns %.1f\n", aba);
  std::printf("crba_ns %.1f\n", crba);
  std::printf("checksum %.17g\n", checksum);
  return 0;
}
