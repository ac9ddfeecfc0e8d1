// Cost of one call of the tree algorithms on the fast path (issue 19: "CRBA within 1.0x of Pinocchio's, ABA
// no slower than today"): forward dynamics by the articulated-body algorithm (kinematics, applied forces,
// ABA) and the mass matrix by the composite-rigid-body algorithm, each on 256 random states of the model, one
// thread. bench/peers/tree_dynamics_peers.py runs this beside Pinocchio's aba and crba on the same models.
//
//   tree_dynamics_per_call MODEL.json [--repeats R]
//
// Prints one line per algorithm: "aba_ns <best mean ns a call>" and "crba_ns <...>", the best of R repeats (a
// repeat calls every state 200 times), then a checksum line so the calls cannot be optimized away; and the
// model's initial state with its qdd and M ("q ...", "v ...", "qdd ...", "M ..." lines, 17 digits), by which
// the peer script checks that its Pinocchio model is the same model.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "dynamics/articulated_body.hpp"
#include "dynamics/mass_matrix.hpp"
#include "per_call_timing.hpp"
#include "random_state.hpp"

using namespace myriad;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODEL.json [--repeats R]\n", argv[0]);
    return 2;
  }
  int repeats = 7;
  for (int a = 2; a + 1 < argc; ++a)
    if (std::strcmp(argv[a], "--repeats") == 0) repeats = std::max(1, std::atoi(argv[a + 1]));

  const Model model =
      apply_parameters(load_model_file(argv[1]), default_parameter_values(load_model_file(argv[1])));
  const std::unique_ptr<CompiledModel> compiled = compile(model);
  std::vector<double> constants(static_cast<size_t>(compiled->n_constants));
  pack_constants(*compiled, model, constants.data());
  std::vector<double> q0(static_cast<size_t>(compiled->nq)), v0(static_cast<size_t>(compiled->nv));
  initial_state(model, q0.data(), v0.data());
  std::vector<unsigned char> buffer(tree_workspace_bytes<double>(*compiled));
  TreeWorkspace<double> w = carve_tree_workspace<double>(*compiled, buffer.data(), nullptr);

  constexpr int kStates = 256;
  const int nq = compiled->nq, nv = compiled->nv;
  std::vector<double> qs, vs;
  std::mt19937_64 rng(19);
  for (int s = 0; s < kStates; ++s) {
    std::vector<double> q, v;
    cli::random_state(model, q0, rng, q, v);
    qs.insert(qs.end(), q.begin(), q.end());
    vs.insert(vs.end(), v.begin(), v.end());
  }
  std::vector<double> qdd(static_cast<size_t>(nv)), M(static_cast<size_t>(nv * nv));
  double checksum = 0.0;
  const double* k = constants.data();
  const auto print_row = [](const char* name, const std::vector<double>& values) {
    std::printf("%s", name);
    for (double x : values) std::printf(" %.17g", x);
    std::printf("\n");
  };
  if (!forward_dynamics(*compiled, k, 0.0, q0.data(), v0.data(), w, qdd.data())) {
    std::fprintf(stderr, "%s: forward dynamics failed at the initial state\n", argv[1]);
    return 1;
  }
  mass_matrix(*compiled, k, q0.data(), v0.data(), w, M.data());
  print_row("q", q0);
  print_row("v", v0);
  print_row("qdd", qdd);
  print_row("M", M);

  const double aba = bench::best_ns_per_call(repeats, kStates, [&](int s) {
    forward_dynamics(*compiled, k, 0.0, &qs[static_cast<size_t>(s * nq)], &vs[static_cast<size_t>(s * nv)], w,
                     qdd.data());
    checksum += qdd[0];
  });
  const double crba = bench::best_ns_per_call(repeats, kStates, [&](int s) {
    mass_matrix(*compiled, k, &qs[static_cast<size_t>(s * nq)], &vs[static_cast<size_t>(s * nv)], w,
                M.data());
    checksum += M[0];
  });
  std::printf("model %s bodies %d nv %d\n", model.name.c_str(), compiled->n_bodies, nv);
  std::printf("machine %s\n", bench::machine_description().c_str());
  std::printf("aba_ns %.1f\n", aba);
  std::printf("crba_ns %.1f\n", crba);
  std::printf("checksum %.17g\n", checksum);
  return 0;
}
