#pragma once
// An ensemble of one mechanism in absolute coordinates (absolute/absolute_dynamics.hpp, rp or re): every instance
// has its own model (masses, inertias, spring rates, drivers: what a study varies) and start, and is integrated on
// the index-3 DAE by one of seed 003's implicit methods (integrators/implicit_integrate.hpp; backward Euler is seed
// 002's), on worker threads, with its own InstanceStatus: a failure (Newton, a singular matrix, a non-finite value)
// stops that instance alone and leaves NaN in its positions from there on. Instance i's results depend on its
// inputs only, never on the thread count or the other instances.
//
// Host only, compile-time sizes (the absolute engine's). The cpu backend's Method::implicit runs the same methods
// on a model file's joint coordinates; a model file reaches this runner through absolute/model_mapping.hpp.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "absolute/absolute_dynamics.hpp"
#include "core/status.hpp"
#include "integrators/implicit_integrate.hpp"

namespace myriad {

struct AbsoluteEnsembleResult {
  int n_instances = 0, n_points = 0, n_coordinates = 0;  // points t0 + k dt, k = 0 .. steps
  std::vector<double> q;                                  // [(i n_points + k) n_coordinates + j]
  std::vector<InstanceStatus> status;
  std::vector<ImplicitStats> stats;
  double position(int instance, int point, int coordinate) const {
    return q[(static_cast<size_t>(instance) * n_points + point) * n_coordinates + coordinate];
  }
};

// models[i] and starts[i] (y = (q, q'), consistent) for every instance; `steps` steps of dt from t0. Throws
// std::invalid_argument when the two lists differ in length or a start has the wrong size. Cost: per instance, the
// method's points times their Newton iterations (one assembled Jacobian and an (NY + NZ)^3 LU each).
template <class Rep, int NB, int NC>
AbsoluteEnsembleResult run_absolute_ensemble(const std::vector<AbsoluteModel<NB, NC>>& models,
                                             const std::vector<std::vector<double>>& starts,
                                             const ImplicitScheme& scheme, double t0, double dt, long long steps,
                                             const ImplicitOptions& options, int threads) {
  using Dae = AbsoluteDae<Rep, NB, NC>;
  if (models.size() != starts.size())
    throw std::invalid_argument("run_absolute_ensemble: " + std::to_string(models.size()) + " models but " +
                                std::to_string(starts.size()) + " starts");
  for (size_t i = 0; i < starts.size(); ++i)
    if (starts[i].size() != static_cast<size_t>(Dae::NY))
      throw std::invalid_argument("run_absolute_ensemble: start " + std::to_string(i) + " has " +
                                  std::to_string(starts[i].size()) + " values, not " + std::to_string(Dae::NY));
  AbsoluteEnsembleResult result;
  result.n_instances = static_cast<int>(models.size());
  result.n_points = static_cast<int>(steps + 1);
  result.n_coordinates = Dae::NQ;
  result.q.assign(static_cast<size_t>(result.n_instances) * result.n_points * Dae::NQ, NAN);
  result.status.assign(models.size(), InstanceStatus::ok);
  result.stats.assign(models.size(), ImplicitStats());
  std::atomic<int> next{0};
  const auto worker = [&]() {
    std::vector<double> work(static_cast<size_t>(implicit_workspace_size(Dae::NY, Dae::NZ)));
    for (int i = next++; i < result.n_instances; i = next++) {
      Dae dae;
      dae.model = &models[static_cast<size_t>(i)];
      double* out = result.q.data() + static_cast<size_t>(i) * result.n_points * Dae::NQ;
      auto observer = [&](long long k, double, const double* y, const double*, const double*) {
        std::copy(y, y + Dae::NQ, out + k * Dae::NQ);
      };
      result.status[static_cast<size_t>(i)] =
          integrate_implicit(dae, scheme, t0, dt, steps, starts[static_cast<size_t>(i)].data(), work.data(),
                             options, result.stats[static_cast<size_t>(i)], observer);
    }
  };
  const int n_threads = std::max(1, std::min(threads, result.n_instances));
  std::vector<std::thread> pool;
  for (int k = 1; k < n_threads; ++k) pool.emplace_back(worker);
  worker();
  for (std::thread& thread : pool) thread.join();
  return result;
}

}  // namespace myriad
