#pragma once
// Ensembles of the built-in Lorenz model (ode/lorenz.hpp) on the CPU, with the cpu backend's thread hand-out
// (ensemble/instance_blocks.hpp); src/backends/lorenz_cuda.hpp runs the same per-instance function on the GPU.
#include <vector>

#include "core/status.hpp"
#include "ode/lorenz.hpp"

namespace myriad {

// What a Lorenz ensemble run produces: every instance's state at t_end and its status.
template <class Real>
struct LorenzRun {
  long long n = 0;
  std::vector<Real> final_state;       // structure of arrays: component j of instance i at [j * n + i]
  std::vector<InstanceStatus> status;  // per instance
  long long steps = 0;                 // RK4 steps of instance 0 (every instance takes the same)
  double compute_seconds = 0.0;        // the integration alone (CPU: threads' wall time; CUDA: the kernels)
  double total_seconds = 0.0;          // with set-up and transfers
  int threads = 1;                     // CPU threads used (CUDA: 0)
};

// The parameter column of an ensemble of n: rho of every instance, in the run's precision.
template <class Real>
std::vector<Real> lorenz_parameters(const LorenzSpec& spec, long long n);

// A run of n instances with nothing computed yet (states 0, statuses ok). Throws std::invalid_argument for n < 0
// or a spec without steps or with t_end <= t0, naming the field.
template <class Real>
LorenzRun<Real> empty_lorenz_run(const LorenzSpec& spec, long long n);

// threads <= 0: all hardware threads. Results do not depend on the thread count. O(n steps).
template <class Real>
LorenzRun<Real> run_lorenz_cpu(const LorenzSpec& spec, long long n, int threads);

extern template std::vector<float> lorenz_parameters<float>(const LorenzSpec&, long long);
extern template std::vector<double> lorenz_parameters<double>(const LorenzSpec&, long long);
extern template LorenzRun<float> empty_lorenz_run<float>(const LorenzSpec&, long long);
extern template LorenzRun<double> empty_lorenz_run<double>(const LorenzSpec&, long long);
extern template LorenzRun<float> run_lorenz_cpu<float>(const LorenzSpec&, long long, int);
extern template LorenzRun<double> run_lorenz_cpu<double>(const LorenzSpec&, long long, int);

}  // namespace myriad
