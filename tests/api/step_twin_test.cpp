// The cuda backend's step kernel, run on the CPU: every thread of kernels/step_kernel.cuh calls
// step_strided_instance on the device's layout (constants in the structure-of-arrays table, t, q, v and status
// row-major). Here that same body runs instance by instance on the host, from the layout built independently of
// the Simulator (build_ensemble's table, the inputs' gains from input_slots), and must give what api::Simulator on
// the cpu backend gives, bit for bit: every method, a tree model with inputs and a loop model, instances with
// their own parameters and inputs, a stopped instance left alone, one scratch reused across instances as a
// kernel's global slots are reused across launches. The same for the backend's two small kernels
// (kernels/observe_kernel.cuh): the inputs written into the table by scatter_strided_inputs, and the signals by
// the tree observation the device runs (observe_tree_instance), both against the Simulator's observe. The device's
// own run is tests/gpu/cuda_simulator_test.cpp.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "api/model_impl.hpp"
#include "api/myriad/myriad.hpp"
#include "api/run_options.hpp"
#include "ensemble/device_instances.hpp"
#include "ensemble/ensemble.hpp"
#include "ensemble/parameter_table.hpp"
#include "ensemble/step_instance.hpp"
#include "model/compile.hpp"

namespace myriad {
namespace step_twin_test {

struct Case {
  std::string file, integrator;
};

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void check_twin(const Case& c) {
  SCOPED_TRACE(c.file + " " + c.integrator);
  const api::LoadedModel m = api::load_model(std::string(MYRIAD_SOURCE_DIR) + "/models/" + c.file);
  const Model& model = m.impl->model;
  const CompiledModel& compiled = *m.impl->compiled;
  const long long n = 37;  // a warp and a part of one
  api::SimulatorOptions o;
  o.instances = n;
  o.threads = 2;
  o.run.integrator = c.integrator;
  api::Simulator sim(m, o);
  const int P = sim.n_parameters(), A = sim.n_inputs(), nq = compiled.nq, nv = compiled.nv;

  // Each instance its own parameters (every parameter x 0.9 .. 1.1; a zero default stays 0) and inputs.
  std::vector<double> p(static_cast<size_t>(n * P));
  sim.get_parameters(p.data());
  for (long long i = 0; i < n; ++i)
    for (int j = 0; j < P; ++j) p[static_cast<size_t>(i * P + j)] *= 0.9 + 0.2 * static_cast<double>(i) / (n - 1);
  sim.set_parameters(p.data());
  std::vector<double> u(static_cast<size_t>(n * A));
  for (long long i = 0; i < n; ++i)
    for (int a = 0; a < A; ++a) {
      const Input& in = model.inputs[static_cast<size_t>(a)];
      u[static_cast<size_t>(i * A + a)] = in.min + (in.max - in.min) * static_cast<double>((i * 7 + a) % n) / n;
    }
  if (A > 0) sim.set_inputs(u.data());
  // Instance 5 stopped (a failure code), as after a failed step.
  const int size = sim.state_size();
  std::vector<double> state(static_cast<size_t>(n * size));
  sim.get_state(state.data());
  state[static_cast<size_t>(5 * size + size - 1)] = static_cast<double>(InstanceStatus::non_finite);
  sim.set_state(state.data());

  // The kernel's layout, built from the parameters and inputs alone.
  ParameterTable table;
  table.source = "twin";
  table.names = m.impl->parameter_names;
  for (long long i = 0; i < n; ++i) table.rows.emplace_back(p.begin() + i * P, p.begin() + (i + 1) * P);
  Ensemble e = build_ensemble(model, compiled, P > 0 ? 0 : static_cast<int>(n), P > 0 ? &table : nullptr, {});
  // The inputs as the cuda backend's input kernel writes them, thread by thread.
  const std::vector<std::vector<InputSlot>> slots = input_slots(model, compiled);
  std::vector<FlatInputSlot> flat;
  for (int a = 0; a < A; ++a)
    for (const InputSlot& s : slots[static_cast<size_t>(a)]) flat.push_back({a, s.constant, s.gain});
  for (long long i = 0; i < n; ++i)
    scatter_strided_inputs(flat.data(), static_cast<int>(flat.size()), u.data(), A, n, i, e.constants.data());
  std::vector<double> t(static_cast<size_t>(n)), q(static_cast<size_t>(n * nq)), v(static_cast<size_t>(n * nv));
  std::vector<int> status(static_cast<size_t>(n));
  for (long long i = 0; i < n; ++i) {
    const double* x = state.data() + i * size;
    t[static_cast<size_t>(i)] = x[0];
    std::copy(x + 1, x + 1 + nq, q.begin() + i * nq);
    std::copy(x + 1 + nq, x + 1 + nq + nv, v.begin() + i * nv);
    status[static_cast<size_t>(i)] = static_cast<int>(x[size - 1]);
  }
  const RunSpec spec = api::resolve_integration(o.run, model).spec;
  std::vector<double> scratch((step_scratch_bytes(compiled, spec.method) + 7) / 8);

  const double dt = 0.01;
  for (int step = 0; step < 4; ++step) {
    sim.advance(dt);
    for (long long i = 0; i < n; ++i)
      step_strided_instance(compiled, e.constants.data(), n, i, spec, dt, t.data(), q.data(), v.data(),
                            status.data(), scratch.data());
    sim.get_state(state.data());
    for (long long i = 0; i < n; ++i) {
      const double* x = state.data() + i * size;
      ASSERT_EQ(static_cast<int>(x[size - 1]), status[static_cast<size_t>(i)]) << "instance " << i;
      ASSERT_TRUE(same_bits(x[0], t[static_cast<size_t>(i)])) << "instance " << i << " step " << step;
      for (int j = 0; j < nq; ++j)
        ASSERT_TRUE(same_bits(x[1 + j], q[static_cast<size_t>(i * nq + j)]))
            << "instance " << i << " q[" << j << "] step " << step << ": " << x[1 + j] << " vs "
            << q[static_cast<size_t>(i * nq + j)];
      for (int j = 0; j < nv; ++j)
        ASSERT_TRUE(same_bits(x[1 + nq + j], v[static_cast<size_t>(i * nv + j)]))
            << "instance " << i << " v[" << j << "] step " << step;
    }
  }
  // The signals: the observe kernel's body on the host (the loop solve for a loop model) and, for a tree model, the
  // tree observation the device compiles, each against the Simulator's, bit for bit.
  const int S = sim.n_signals();
  std::vector<double> expected(static_cast<size_t>(n * S)), strided(expected.size()), tree(static_cast<size_t>(S));
  sim.observe(expected.data());
  for (long long i = 0; i < n; ++i) {
    observe_strided_instance(compiled, e.constants.data(), n, i, spec.method, t.data(), q.data(), v.data(),
                             scratch.data(), strided.data());
    for (int k = 0; k < S; ++k)
      ASSERT_TRUE(same_bits(expected[static_cast<size_t>(i * S + k)], strided[static_cast<size_t>(i * S + k)]))
          << "instance " << i << " signal " << k;
    if (compiled.constraints.m > 0) continue;
    const StridedConstants k{e.constants.data() + i, n};
    ASSERT_TRUE(observe_tree_instance(compiled, k, spec.method, t[static_cast<size_t>(i)], q.data() + i * nq,
                                      v.data() + i * nv, scratch.data(), tree.data()));
    for (int j = 0; j < S; ++j)
      ASSERT_TRUE(same_bits(expected[static_cast<size_t>(i * S + j)], tree[static_cast<size_t>(j)]))
          << "instance " << i << " signal " << j << " (tree observation)";
  }
  // The stopped instance stayed where it was; the others moved on.
  EXPECT_EQ(t[5], 0.0);
  EXPECT_EQ(status[5], static_cast<int>(InstanceStatus::non_finite));
  EXPECT_NEAR(t[0], 4 * dt, 1e-15);
  for (long long i = 0; i < n; ++i)
    if (i != 5) EXPECT_EQ(status[static_cast<size_t>(i)], 0) << "instance " << i;
}

TEST(StepKernelTwin, GivesTheCpuSimulatorsStatesBitForBitOnEveryMethod) {
  for (const Case& c : {Case{"active_suspension.json", "rk4"}, Case{"active_suspension.json", "dopri5"},
                        Case{"active_suspension.json", "rn4"}, Case{"stiff_double_pendulum.json", "ros2w"},
                        Case{"loops/four_bar.json", "rn4"}, Case{"loops/four_bar.json", "dopri5"}})
    check_twin(c);
}

}  // namespace step_twin_test
}  // namespace myriad
