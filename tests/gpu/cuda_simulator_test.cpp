// api::Simulator on the cuda backend (the step kernel, kernels/step_kernel.cuh) against the same Simulator on the
// cpu backend: the same instances, parameters, inputs and advances (tree models: the cuda stepper refuses loop
// models, which is checked too). RK4 takes the same substeps on both, so the
// device's contracted multiply-adds are all that part them (1e-10 relative); the adaptive methods restart their
// step-size control at every advance on both and are held to 10 x rtol. Also on the device: save and restore
// continue bit for bit, a masked reset leaves the other instances' bits alone, an RL loop (new inputs, advance,
// observe, resets) with the state kept on the device follows the cpu backend, and observe_in_place leaves the
// signals in device memory. Without a device every test skips saying why; the kernels' bodies run on the CPU in
// tests/api/step_twin_test.cpp and tests/api/device_instances_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "api/myriad/myriad.hpp"
#include "backends/cuda_runner.hpp"

#ifdef MYRIAD_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace myriad {
namespace cuda_simulator_test {

api::SimulatorOptions options(long long n, const std::string& backend, const std::string& integrator) {
  api::SimulatorOptions o;
  o.instances = n;
  o.backend = backend;
  o.run.integrator = integrator;
  o.run.rtol = 1e-6;
  o.run.atol = 1e-8;
  return o;
}

// The first parameter of every instance spread over x0.8 .. x1.2, inputs over +-1 kN: the same on both simulators.
void spread(api::Simulator& sim) {
  const long long n = sim.size();
  const int P = sim.n_parameters(), A = sim.n_inputs();
  std::vector<double> p(static_cast<size_t>(n * P));
  sim.get_parameters(p.data());
  for (long long i = 0; i < n; ++i)
    if (P > 0) p[static_cast<size_t>(i * P)] *= 0.8 + 0.4 * static_cast<double>(i) / static_cast<double>(n - 1);
  sim.set_parameters(p.data());
  if (A == 0) return;
  std::vector<double> u(static_cast<size_t>(n * A));
  for (long long i = 0; i < n; ++i)
    for (int a = 0; a < A; ++a) u[static_cast<size_t>(i * A + a)] = 1000.0 * std::sin(0.37 * static_cast<double>(i + a));
  sim.set_inputs(u.data());
}

// The largest difference between two N x S signal tables, each signal relative to its range over the instances
// in `a` (at least 1).
double signal_difference(const std::vector<double>& a, const std::vector<double>& b, long long n, int S) {
  double worst = 0.0;
  for (int k = 0; k < S; ++k) {
    double lo = a[static_cast<size_t>(k)], hi = lo;
    for (long long i = 0; i < n; ++i) {
      lo = std::min(lo, a[static_cast<size_t>(i * S + k)]);
      hi = std::max(hi, a[static_cast<size_t>(i * S + k)]);
    }
    for (long long i = 0; i < n; ++i)
      worst = std::max(worst, std::abs(a[static_cast<size_t>(i * S + k)] - b[static_cast<size_t>(i * S + k)]) /
                                  std::max(1.0, hi - lo));
  }
  return worst;
}

TEST(CudaSimulator, StepsAgreeWithTheCpuBackendOnEveryMethod) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  struct Case {
    const char* file;
    const char* integrator;
  };
  for (const Case& c : {Case{"active_suspension.json", "rk4"}, Case{"active_suspension.json", "dopri5"},
                        Case{"active_suspension.json", "rn4"}, Case{"stiff_double_pendulum.json", "rn4"},
                        Case{"stiff_double_pendulum.json", "ros2w"}, Case{"spatial_chain.json", "dopri5"}}) {
    SCOPED_TRACE(std::string(c.file) + " " + c.integrator);
    const api::LoadedModel m = api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/" + c.file);
    const long long n = 1000;  // several blocks and a partial one
    api::Simulator cpu(m, options(n, "cpu", c.integrator)), gpu(m, options(n, "cuda", c.integrator));
    spread(cpu);
    spread(gpu);
    const bool rk = std::string(c.integrator) == "rk4";
    const double bound = rk ? 1e-10 : 1e-5;
    const int S = cpu.n_signals(), size = cpu.state_size();
    std::vector<double> a(static_cast<size_t>(n * S)), b(a.size()), sa(static_cast<size_t>(n * size)), sb(sa.size());
    for (int step = 0; step < 20; ++step) {
      cpu.advance(0.005);
      gpu.advance(0.005);
    }
    cpu.get_state(sa.data());
    gpu.get_state(sb.data());
    cpu.observe(a.data());
    gpu.observe(b.data());
    double worst = 0.0;
    for (long long i = 0; i < n; ++i) {
      ASSERT_EQ(cpu.status()[static_cast<size_t>(i)], 0) << "instance " << i << " failed on the cpu";
      ASSERT_EQ(gpu.status()[static_cast<size_t>(i)], 0) << "instance " << i << " failed on the device";
      ASSERT_EQ(sa[static_cast<size_t>(i * size)], sb[static_cast<size_t>(i * size)]) << "t of instance " << i;
      for (int j = 1; j < size; ++j) {  // q, v, inputs, parameters: state-like, pointwise
        const double x = sa[static_cast<size_t>(i * size + j)], y = sb[static_cast<size_t>(i * size + j)];
        worst = std::max(worst, std::abs(x - y) / std::max(1.0, std::abs(x)));
      }
    }
    EXPECT_LE(worst, bound) << "largest relative state difference";
    // The observations (the cpu backend's on the host, the cuda backend's by the observe kernel) against each
    // signal's range over the instances: forces and accelerations multiply state differences by stiffnesses.
    const double worst_signal = signal_difference(a, b, n, S);
    EXPECT_LE(worst_signal, bound) << "largest signal difference relative to its range";
    std::printf("[ cuda ] %-28s %-7s N=%lld, 20 advances: states %.2e, signals %.2e of range (bound %.0e)\n", c.file,
                c.integrator, n, worst, worst_signal, bound);
  }
}

TEST(CudaSimulator, RefusesALoopModelSayingWhy) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  const api::LoadedModel m = api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/loops/four_bar.json");
  try {
    api::Simulator sim(m, options(4, "cuda", "rn4"));
    ADD_FAILURE() << "a loop model was accepted for stepping on the device";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("closed loops"), std::string::npos) << e.what();
  }
}

TEST(CudaSimulator, SaveRestoreAndMaskedResetKeepTheBitsOnTheDevice) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  const api::LoadedModel m =
      api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/active_suspension.json");
  const long long n = 300;
  api::Simulator sim(m, options(n, "cuda", "rn4"));
  spread(sim);
  for (int step = 0; step < 5; ++step) sim.advance(0.01);
  const int size = sim.state_size();
  std::vector<double> saved(static_cast<size_t>(n * size)), first(saved.size()), second(saved.size());
  sim.get_state(saved.data());
  for (int step = 0; step < 5; ++step) sim.advance(0.01);
  sim.get_state(first.data());
  sim.set_state(saved.data());
  for (int step = 0; step < 5; ++step) sim.advance(0.01);
  sim.get_state(second.data());
  EXPECT_EQ(std::memcmp(first.data(), second.data(), sizeof(double) * first.size()), 0)
      << "a restored state did not continue bit for bit";

  // Reset the even instances: the odd ones keep their bits, the even ones start again at t = 0.
  std::vector<std::uint8_t> mask(static_cast<size_t>(n));
  for (long long i = 0; i < n; ++i) mask[static_cast<size_t>(i)] = i % 2 == 0;
  sim.reset(mask.data());
  std::vector<double> after(saved.size());
  sim.get_state(after.data());
  for (long long i = 0; i < n; ++i) {
    if (i % 2 == 0) {
      EXPECT_EQ(after[static_cast<size_t>(i * size)], 0.0) << "instance " << i;
    } else {
      EXPECT_EQ(std::memcmp(after.data() + i * size, second.data() + i * size, sizeof(double) * size), 0)
          << "instance " << i << " changed by a reset that masked it out";
    }
  }
  sim.advance(0.01);
  for (long long i = 0; i < n; ++i) EXPECT_EQ(sim.status()[static_cast<size_t>(i)], 0) << "instance " << i;
}

// What an RL loop does with the state on the device: every env step new inputs (set_inputs: one copy of u and the
// input kernel), an advance and an observe (the observe kernel); every tenth step the status (alone from the
// device), the times (the whole state) and a masked reset (the host's copy changed and sent again). RK4, so the cpu backend takes the same
// substeps and only the device's contracted multiply-adds part them.
TEST(CudaSimulator, AnRlLoopWithTheStateOnTheDeviceFollowsTheCpuBackend) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
  const api::LoadedModel m = api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/active_suspension.json");
  const long long n = 517;
  api::Simulator cpu(m, options(n, "cpu", "rk4")), gpu(m, options(n, "cuda", "rk4"));
  spread(cpu);
  spread(gpu);
  const int A = cpu.n_inputs(), S = cpu.n_signals(), size = cpu.state_size();
  ASSERT_GT(A, 0);
  std::vector<double> u(static_cast<size_t>(n * A)), a(static_cast<size_t>(n * S)), b(a.size());
  std::vector<double> sa(static_cast<size_t>(n * size)), sb(sa.size());
  std::vector<std::uint8_t> mask(static_cast<size_t>(n));
  double worst_state = 0.0, worst_signal = 0.0;
  for (int step = 0; step < 60; ++step) {
    for (long long i = 0; i < n; ++i)
      for (int k = 0; k < A; ++k)
        u[static_cast<size_t>(i * A + k)] = 800.0 * std::sin(0.11 * static_cast<double>(step) + 0.7 * static_cast<double>(i + k));
    cpu.set_inputs(u.data());
    gpu.set_inputs(u.data());
    cpu.advance(0.01);
    gpu.advance(0.01);
    cpu.observe(a.data());
    gpu.observe(b.data());
    worst_signal = std::max(worst_signal, signal_difference(a, b, n, S));
    if (step % 10 == 9) {
      for (long long i = 0; i < n; ++i) mask[static_cast<size_t>(i)] = (i + step) % 3 == 0;
      // The status alone first (N ints from the device), then the times (the whole state), then the reset.
      for (long long i = 0; i < n; ++i)
        ASSERT_EQ(gpu.status()[static_cast<size_t>(i)], 0) << "instance " << i << " failed on the device";
      for (long long i = 0; i < n; ++i)
        ASSERT_EQ(cpu.times()[static_cast<size_t>(i)], gpu.times()[static_cast<size_t>(i)]) << "t of instance " << i;
      cpu.reset(mask.data());
      gpu.reset(mask.data());
    }
  }
  cpu.get_state(sa.data());
  gpu.get_state(sb.data());
  for (long long i = 0; i < n; ++i) {
    ASSERT_EQ(sa[static_cast<size_t>(i * size)], sb[static_cast<size_t>(i * size)]) << "t of instance " << i;
    for (int j = 1; j < size; ++j) {
      const double x = sa[static_cast<size_t>(i * size + j)], y = sb[static_cast<size_t>(i * size + j)];
      worst_state = std::max(worst_state, std::abs(x - y) / std::max(1.0, std::abs(x)));
    }
  }
  EXPECT_LE(worst_state, 1e-10) << "largest relative state difference after 60 env steps";
  EXPECT_LE(worst_signal, 1e-10) << "largest signal difference relative to its range";
  std::printf("[ cuda ] RL loop, active suspension RK4, N=%lld, 60 env steps, 6 masked resets: states %.2e, "
              "signals %.2e of range\n", n, worst_state, worst_signal);
}

// observe_in_place on the cuda backend: the signals stay in device memory the Simulator owns (what a DLPack
// consumer on the GPU imports), hold the bits observe() copies to the host, and agree with the cpu backend's.
TEST(CudaSimulator, ObserveInPlaceLeavesTheSignalsInDeviceMemory) {
  std::string device;
  if (!cuda_device_available(&device)) GTEST_SKIP() << "no GPU: " << device;
#ifdef MYRIAD_HAVE_CUDA
  const api::LoadedModel m = api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/stiff_double_pendulum.json");
  const long long n = 300;
  api::Simulator cpu(m, options(n, "cpu", "rn4")), gpu(m, options(n, "cuda", "rn4"));
  spread(cpu);
  spread(gpu);
  for (int step = 0; step < 4; ++step) {
    cpu.advance(0.01);
    gpu.advance(0.01);
  }
  const api::ObservationView host_view = cpu.observe_in_place();
  EXPECT_FALSE(host_view.on_device);
  const api::ObservationView view = gpu.observe_in_place();
  ASSERT_TRUE(view.on_device);
  ASSERT_EQ(view.rows, n);
  ASSERT_EQ(view.columns, gpu.n_signals());
  int current = -1;
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(view.device, current);
  cudaPointerAttributes attributes{};
  ASSERT_EQ(cudaPointerGetAttributes(&attributes, view.data), cudaSuccess);
  EXPECT_EQ(attributes.type, cudaMemoryTypeDevice) << "observe_in_place's data is not device memory";
  const int S = gpu.n_signals();
  std::vector<double> in_place(static_cast<size_t>(n * S)), copied(in_place.size());
  ASSERT_EQ(cudaMemcpy(in_place.data(), view.data, sizeof(double) * in_place.size(), cudaMemcpyDeviceToHost),
            cudaSuccess);
  gpu.observe(copied.data());
  EXPECT_EQ(std::memcmp(in_place.data(), copied.data(), sizeof(double) * in_place.size()), 0)
      << "observe_in_place and observe gave different bits for the same state";
  const std::vector<double> on_cpu(host_view.data, host_view.data + n * S);
  const double worst = signal_difference(on_cpu, in_place, n, S);
  EXPECT_LE(worst, 1e-5) << "largest signal difference relative to its range (RN4, rtol 1e-6)";
  std::printf("[ cuda ] observe_in_place: device memory on device %d, %lld x %d, %.2e of range from the cpu backend\n",
              view.device, view.rows, view.columns, worst);
#endif
}

}  // namespace cuda_simulator_test
}  // namespace myriad
