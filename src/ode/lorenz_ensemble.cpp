#include "ode/lorenz_ensemble.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

#include "ensemble/instance_blocks.hpp"

namespace myriad {

template <class Real>
std::vector<Real> lorenz_parameters(const LorenzSpec& spec, long long n) {
  std::vector<Real> rho(static_cast<size_t>(n));
  for (long long i = 0; i < n; ++i) rho[static_cast<size_t>(i)] = static_cast<Real>(lorenz_rho(spec, i, n));
  return rho;
}

template <class Real>
LorenzRun<Real> empty_lorenz_run(const LorenzSpec& spec, long long n) {
  if (n < 0) throw std::invalid_argument("lorenz ensemble: instance count " + std::to_string(n) + " is negative");
  if (spec.steps <= 0 || !(spec.t_end > spec.t0))
    throw std::invalid_argument("lorenz ensemble: field steps must be > 0 and t_end > t0 (steps " + std::to_string(spec.steps) + ", t0 " + std::to_string(spec.t0) + ", t_end " + std::to_string(spec.t_end) + ")");
  LorenzRun<Real> run;
  run.n = n;
  run.final_state.assign(static_cast<size_t>(3 * n), Real(0));
  run.status.assign(static_cast<size_t>(n), InstanceStatus::ok);
  return run;
}

template <class Real>
LorenzRun<Real> run_lorenz_cpu(const LorenzSpec& spec, long long n, int threads) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  LorenzRun<Real> run = empty_lorenz_run<Real>(spec, n);
  const std::vector<Real> rho = lorenz_parameters<Real>(spec, n);
  run.threads = resolve_thread_count(threads, n);
  InstanceBlocks blocks(n, ensemble_block_size(n, run.threads));
  const auto compute_start = Clock::now();
  run_on_threads(run.threads, [&] {
    Real work[15];  // rk4_workspace_size(3)
    Real state[3];
    long long begin = 0, end = 0;
    while (blocks.claim(begin, end)) {
      for (long long i = begin; i < end; ++i) {
        IntegratorStats stats;
        const size_t index = static_cast<size_t>(i);
        run.status[index] = simulate_lorenz_instance(spec, rho[index], state, work, stats);
        for (int j = 0; j < 3; ++j) run.final_state[static_cast<size_t>(j * n + i)] = state[j];
        if (i == 0) run.steps = stats.steps;
      }
    }
  });
  const auto finish = Clock::now();
  run.compute_seconds = std::chrono::duration<double>(finish - compute_start).count();
  run.total_seconds = std::chrono::duration<double>(finish - start).count();
  return run;
}

template std::vector<float> lorenz_parameters<float>(const LorenzSpec&, long long);
template std::vector<double> lorenz_parameters<double>(const LorenzSpec&, long long);
template LorenzRun<float> empty_lorenz_run<float>(const LorenzSpec&, long long);
template LorenzRun<double> empty_lorenz_run<double>(const LorenzSpec&, long long);
template LorenzRun<float> run_lorenz_cpu<float>(const LorenzSpec&, long long, int);
template LorenzRun<double> run_lorenz_cpu<double>(const LorenzSpec&, long long, int);

}  // namespace myriad
