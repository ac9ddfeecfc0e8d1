// Cost of one derivative evaluation of seed 004's spatial ladder (models/loops/ladder/ladder_L*.json) against
// the number of loops L: recursive coordinate reduction, the standard O(n) treatment with constraint forces
// (seed 004 sec. 2.5) and the dense reference augmented system (seed 000 eq. 3), with least-squares growth
// exponents between L = 8 and L = 256 (seed 004 Fig. 11). One evaluation = what the integrators call: Newton
// on the dependent coordinates from the previous solution, dependent velocities, constrained accelerations.
//
//   build-dev/bench/loop_ladder_scaling [max_L] [reference_max_L] > bench/results/loop_ladder_scaling.md
#include <Eigen/Dense>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "loops/loop_ode.hpp"
#include "loops/loop_structure.hpp"
#include "reference/reference_constrained.hpp"

namespace myriad::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Seconds per call of `f`, repeated until at least `budget` seconds have passed (at least one call).
template <class F>
double seconds_per_call(F&& f, double budget = 0.3) {
  int calls = 0;
  const auto start = Clock::now();
  double elapsed = 0.0;
  do {
    f();
    ++calls;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < budget);
  return elapsed / calls;
}

double growth_exponent(const std::vector<double>& L, const std::vector<double>& t) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int n = 0;
  for (size_t i = 0; i < L.size(); ++i) {
    if (L[i] < 8 || !(t[i] > 0)) continue;
    const double x = std::log(L[i]), y = std::log(t[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
    ++n;
  }
  return n < 2 ? NAN : (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace
}  // namespace myriad::bench

int main(int argc, char** argv) {
  using namespace myriad;
  using namespace myriad::bench;
  const int max_L = argc > 1 ? std::atoi(argv[1]) : 256;
  const int reference_max_L = argc > 2 ? std::atoi(argv[2]) : 128;
  std::printf("# Spatial ladder: cost of one derivative evaluation against the number of loops L\n\n");
  std::printf("Machine: %s. One thread.\n", machine_description().c_str());
  std::printf("Command: `build-dev/bench/loop_ladder_scaling %d %d` (Release build).\n\n", max_L, reference_max_L);
  std::printf("| L | bodies | n | m | ndof | blocks (largest) | RCR us | standard O(n) us | reference us |\n");
  std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  std::vector<double> Ls, rcr, standard, reference;
  for (int L = 1; L <= max_L; L *= 2) {
    const Model loaded = load_model_file(source_path("models/loops/ladder/ladder_L" + std::to_string(L) + ".json"));
    const Model model = apply_parameters(loaded, default_parameter_values(loaded));
    auto compiled = compile(model);
    compiled->constraints.method = kLoopMethodStandard;  // carve both methods' scratch
    std::vector<double> k(static_cast<size_t>(compiled->n_constants));
    pack_constants(*compiled, model, k.data());
    const int nv = compiled->nv, ndof = compiled->constraints.n_independent;
    std::vector<unsigned char> buffer(loop_scratch_bytes<double>(*compiled));
    LoopOde<const double*> ode{compiled.get(), k.data(), carve_loop_scratch<double>(*compiled, buffer.data(), nullptr),
                               LoopFailure::none, 0.0, 0};
    std::vector<double> q(static_cast<size_t>(nv)), v(static_cast<size_t>(nv)), y(static_cast<size_t>(2 * ndof + 1));
    initial_state(model, q.data(), v.data());
    if (!ode.initialize(0.0, q.data(), v.data(), y.data())) {
      std::fprintf(stderr, "L = %d does not assemble\n", L);
      return 1;
    }
    const auto evaluate = [&](int method) {
      if (loop_accelerations(*compiled, k.data(), 0.0, ode.s, true, method, static_cast<double*>(nullptr)) !=
          LoopFailure::none)
        std::abort();
    };
    const double t_rcr = seconds_per_call([&] { evaluate(kLoopMethodReduction); });
    const double t_standard = seconds_per_call([&] { evaluate(kLoopMethodStandard); });
    double t_reference = NAN;
    if (L <= reference_max_L) {
      const Eigen::VectorXd qe = Eigen::Map<const Eigen::VectorXd>(ode.s.q, nv);
      const Eigen::VectorXd ve = Eigen::Map<const Eigen::VectorXd>(ode.s.v, nv);
      t_reference = seconds_per_call([&] { (void)reference::constrained_forward_dynamics(model, 0.0, qe, ve); });
    }
    Ls.push_back(L);
    rcr.push_back(t_rcr);
    standard.push_back(t_standard);
    reference.push_back(t_reference);
    char reference_cell[32] = "not run";
    if (!std::isnan(t_reference)) std::snprintf(reference_cell, sizeof reference_cell, "%.3g", t_reference * 1e6);
    std::printf("| %d | %d | %d | %d | %d | %d (%d) | %.3g | %.3g | %s |\n", L, compiled->n_bodies, nv,
                compiled->constraints.m, ndof, compiled->constraints.n_blocks, compiled->constraints.largest_block,
                t_rcr * 1e6, t_standard * 1e6, reference_cell);
    std::fflush(stdout);
  }
  std::printf("\nLeast-squares growth exponents of time against L over L = 8 .. %d:\n\n", max_L);
  std::printf("* recursive coordinate reduction: %.3f\n", growth_exponent(Ls, rcr));
  std::printf("* standard O(n) with constraint forces: %.3f\n", growth_exponent(Ls, standard));
  std::printf("* reference augmented system (L <= %d): %.3f\n", reference_max_L, growth_exponent(Ls, reference));
  return 0;
}
