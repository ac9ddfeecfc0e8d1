// api::Simulator (the stepping API) against independent computations: a batch run of the same model (bit for bit
// for RK4 on a shared step grid, to the tolerance for DOPRI5, which restarts at every advance), the closed form of
// a constant force on a free mass, its own saved states, the same instances in other company, order and thread
// counts, and a loop model's constraint residual.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "api/model_impl.hpp"
#include "api/myriad/myriad.hpp"
#include "backends/cuda_runner.hpp"
#include "constraints/constraint_equations.hpp"
#include "ensemble/cpu_runner.hpp"
#include "ensemble/ensemble.hpp"
#include "model/model.hpp"

namespace myriad {
namespace simulator_test {

std::string model_path(const std::string& name) { return std::string(MYRIAD_SOURCE_DIR) + "/models/" + name; }

api::SimulatorOptions options(long long n, const std::string& integrator, double h = 1e-3, int threads = 1) {
  api::SimulatorOptions o;
  o.instances = n;
  o.threads = threads;
  o.run.integrator = integrator;
  o.run.h = h;
  return o;
}

// The batch run of the model's default instance: signals at t = dt, 2 dt, ..., K dt (row-major K x S).
std::vector<double> batch_signals(const api::LoadedModel& m, const std::string& integrator, double h, double dt,
                                  int steps) {
  const Model& model = m.impl->model;
  const CompiledModel& compiled = *m.impl->compiled;
  const Ensemble e = build_ensemble(model, compiled, 1, nullptr, {});
  RunSpec spec;
  spec.method = integrator == "rk4" ? Method::rk4 : Method::dopri5;
  spec.h = h;
  spec.control.rtol = model.simulation.rtol;
  spec.control.atol = model.simulation.atol;
  std::vector<double> times;
  for (int j = 0; j <= steps; ++j) times.push_back(j * dt);
  const EnsembleResult r = run_ensemble_cpu(compiled, e, spec, times, 1);
  const int S = compiled.n_outputs;
  std::vector<double> out;
  for (int j = 1; j <= steps; ++j)
    for (int s = 0; s < S; ++s) out.push_back(r.value(0, j, s));
  return out;
}

std::vector<double> stepped_signals(api::Simulator& sim, double dt, int steps) {
  std::vector<double> out, obs(static_cast<size_t>(sim.size() * sim.n_signals()));
  for (int j = 0; j < steps; ++j) {
    sim.advance(dt);
    sim.observe(obs.data());
    out.insert(out.end(), obs.begin(), obs.begin() + sim.n_signals());
  }
  return out;
}

// dt = 1/64 and h = 1/1024 are binary fractions: the stepped run's substeps lie on the batch run's grid exactly,
// and every RK4 step is the same arithmetic on the same numbers (the quarter car's chart is its coordinates).
TEST(Simulator, Rk4StepsOfTheQuarterCarEqualTheBatchRunBitForBit) {
  const api::LoadedModel m = api::load_model(model_path("quarter_car.json"));
  const double dt = 1.0 / 64, h = 1.0 / 1024;
  const int steps = 64;  // through the bump at 0.5 .. 0.6 s
  api::Simulator sim(m, options(1, "rk4", h));
  const std::vector<double> stepped = stepped_signals(sim, dt, steps);
  const std::vector<double> batch = batch_signals(m, "rk4", h, dt, steps);
  ASSERT_EQ(stepped.size(), batch.size());
  for (size_t j = 0; j < batch.size(); ++j) ASSERT_EQ(stepped[j], batch[j]) << "entry " << j;
  EXPECT_EQ(sim.times()[0], 1.0);
}

// DOPRI5 restarts at every advance (a fresh first step), the batch run integrates on: both are within the
// tolerance's reach of the solution, so they agree to a small multiple of it (rtol 1e-7 on lengths of ~0.6 m).
TEST(Simulator, Dopri5StepsOfTheQuarterCarAgreeWithTheBatchRunToTheTolerance) {
  const api::LoadedModel m = api::load_model(model_path("quarter_car.json"));
  const double dt = 0.01;
  const int steps = 100;
  api::Simulator sim(m, options(1, "dopri5"));
  const std::vector<double> stepped = stepped_signals(sim, dt, steps);
  const std::vector<double> batch = batch_signals(m, "dopri5", 1e-3, dt, steps);
  const int S = sim.n_signals();
  const std::vector<std::string>& names = m.signal_names();
  double worst = 0.0;
  for (int j = 0; j < steps; ++j)
    for (int s = 0; s < S; ++s) {
      if (names[static_cast<size_t>(s)] != "z_s" && names[static_cast<size_t>(s)] != "z_u") continue;
      worst = std::max(worst, std::fabs(stepped[static_cast<size_t>(j * S + s)] - batch[static_cast<size_t>(j * S + s)]));
    }
  EXPECT_LT(worst, 1e-6);
  EXPECT_GT(worst, 0.0);  // the two integrations do differ: the comparison is not vacuous
  EXPECT_NEAR(sim.times()[0], 1.0, 1e-13);
}

// Per-instance parameters: instance i gets k_s and c_s from its id, so instances differ.
api::ParameterSet parameters_for(const std::vector<int>& ids) {
  std::vector<double> values;
  for (int id : ids) {
    values.push_back(20000.0 + 1000.0 * (id % 11));
    values.push_back(1000.0 + 50.0 * (id % 13));
    values.push_back(0.02 + 0.005 * (id % 5));
  }
  return api::ParameterSet::from_array({"k_s", "c_s", "bump_height"}, static_cast<long long>(ids.size()),
                                       values.data());
}

// Trajectory (full states after each advance) of the instances `ids`, run together with `threads` threads.
std::vector<std::vector<double>> run_ids(const api::LoadedModel& m, const std::vector<int>& ids, int threads,
                                         const std::string& integrator, int steps) {
  api::SimulatorOptions o = options(static_cast<long long>(ids.size()), integrator, 1e-3, threads);
  o.parameters = parameters_for(ids);
  api::Simulator sim(m, o);
  const int size = sim.state_size();
  std::vector<std::vector<double>> states(ids.size());
  std::vector<double> all(ids.size() * static_cast<size_t>(size));
  for (int j = 0; j < steps; ++j) {
    sim.advance(0.02);
    sim.get_state(all.data());
    for (size_t i = 0; i < ids.size(); ++i)
      states[i].insert(states[i].end(), all.begin() + static_cast<long>(i * size),
                       all.begin() + static_cast<long>((i + 1) * size));
  }
  return states;
}

TEST(Simulator, AnInstanceIsBitIdenticalWhatever1_7Or1024RunBesideItInAnyOrderOnAnyThreads) {
  const api::LoadedModel m = api::load_model(model_path("quarter_car.json"));
  for (const std::string integrator : {"dopri5", "rn4"}) {
    const int steps = 40;  // 0.8 s: through the bump
    std::vector<int> seven = {0, 1, 2, 3, 4, 5, 6};
    const auto together = run_ids(m, seven, 1, integrator, steps);
    std::vector<int> permuted = {5, 2, 6, 0, 3, 1, 4};
    const auto shuffled = run_ids(m, permuted, 3, integrator, steps);
    std::vector<int> many(1024);
    for (int i = 0; i < 1024; ++i) many[static_cast<size_t>(i)] = 1023 - i;
    const auto crowd = run_ids(m, many, 2, integrator, steps);
    for (int id : seven) {
      const auto alone = run_ids(m, {id}, 1, integrator, steps);
      EXPECT_EQ(alone[0], together[static_cast<size_t>(id)]) << integrator << " id " << id;
      const size_t at = static_cast<size_t>(std::find(permuted.begin(), permuted.end(), id) - permuted.begin());
      EXPECT_EQ(alone[0], shuffled[at]) << integrator << " id " << id;
      EXPECT_EQ(alone[0], crowd[static_cast<size_t>(1023 - id)]) << integrator << " id " << id;
    }
    EXPECT_NE(together[0], together[1]);  // the instances differ
  }
}

TEST(Simulator, SaveAndRestoreContinueBitForBit) {
  const api::LoadedModel m = api::load_model(model_path("quarter_car.json"));
  for (const std::string integrator : {"rk4", "dopri5", "ros2w"}) {
    api::SimulatorOptions o = options(5, integrator, 1e-3, 2);
    o.parameters = parameters_for({0, 1, 2, 3, 4});
    api::Simulator a(m, o);
    for (int j = 0; j < 20; ++j) a.advance(0.03);
    std::vector<double> saved(static_cast<size_t>(a.size() * a.state_size()));
    a.get_state(saved.data());
    // A second simulator with other parameters and state takes the saved one.
    api::Simulator b(m, options(5, integrator, 1e-3, 1));
    b.advance(0.07);
    b.set_state(saved.data());
    std::vector<double> obs_a(static_cast<size_t>(5 * a.n_signals())), obs_b(obs_a.size());
    for (int j = 0; j < 20; ++j) {
      a.advance(0.03);
      b.advance(0.03);
      a.observe(obs_a.data());
      b.observe(obs_b.data());
      ASSERT_EQ(obs_a, obs_b) << integrator << " step " << j;
    }
    std::vector<double> end_a(saved.size()), end_b(saved.size());
    a.get_state(end_a.data());
    b.get_state(end_b.data());
    EXPECT_EQ(end_a, end_b) << integrator;
    // Restoring into the same simulator rewinds it.
    a.set_state(saved.data());
    for (int j = 0; j < 20; ++j) a.advance(0.03);
    a.get_state(end_b.data());
    EXPECT_EQ(end_a, end_b) << integrator;
  }
}

// A joint_actuator driven by input u on a free 2 kg mass: x = x0 + u t^2 / (2 m) exactly (polynomial of degree 2,
// which every method integrates to round-off). Instance i has u_i; an input outside [-3, 3] is clipped.
const char* const kPushedMass = R"({"format": "myriad-model", "version": 1, "gravity": [0, 0, -9.81],
  "inputs": {"u": {"default": 0, "min": -3, "max": 3, "unit": "N"}},
  "bodies": [{"name": "m", "mass": 2, "inertia": {"ixx": 1, "iyy": 1, "izz": 1}}],
  "joints": [{"name": "x", "type": "prismatic", "parent": "ground", "child": "m", "axis": [1, 0, 0],
              "position": [0.5], "velocity": [0]}],
  "forces": [{"name": "push", "type": "joint_actuator", "joint": "x", "function": {"type": "input", "input": "u"}}],
  "outputs": [{"name": "x", "type": "joint_coordinate", "joint": "x"},
              {"name": "a", "type": "joint_acceleration", "joint": "x"}]})";

TEST(Simulator, AConstantInputOnAFreeMassGivesUTSquaredOverTwoM) {
  const api::LoadedModel m = api::load_model_string(kPushedMass, "pushed_mass");
  for (const std::string integrator : {"rk4", "dopri5", "rn4", "ros2w"}) {
    api::Simulator sim(m, options(4, integrator, 0.01, 2));
    ASSERT_EQ(sim.n_inputs(), 1);
    const double u[4] = {1.0, -2.5, 7.0, -100.0};  // the last two are clipped to 3 and -3
    const double applied[4] = {1.0, -2.5, 3.0, -3.0};
    sim.set_inputs(u);
    std::vector<double> obs(8);
    for (int j = 1; j <= 5; ++j) {
      sim.advance(0.1);
      sim.observe(obs.data());
      const double t = 0.1 * j;
      for (int i = 0; i < 4; ++i) {
        EXPECT_NEAR(obs[static_cast<size_t>(2 * i)], 0.5 + applied[i] * t * t / 4.0, 1e-10) << integrator << " " << i;
        EXPECT_NEAR(obs[static_cast<size_t>(2 * i + 1)], applied[i] / 2.0, 1e-12);
      }
    }
    std::vector<double> state(static_cast<size_t>(4 * sim.state_size()));
    sim.get_state(state.data());
    EXPECT_EQ(state[static_cast<size_t>(2 * sim.state_size() + 3)], 3.0);  // t, q, v, then the clipped u
    EXPECT_EQ(state[static_cast<size_t>(3 * sim.state_size() + 3)], -3.0);
  }
}

// Reset with a mask restarts the masked instances (t = 0, the model's initial state or the given one, inputs at
// their defaults) and leaves the others exactly as they were.
TEST(Simulator, ResetWithAMaskLeavesTheOthersUntouched) {
  const api::LoadedModel m = api::load_model_string(kPushedMass, "pushed_mass");
  api::Simulator sim(m, options(3, "dopri5"));
  const double u[3] = {1.0, 2.0, 3.0};
  sim.set_inputs(u);
  sim.advance(0.2);
  const int size = sim.state_size();
  std::vector<double> before(static_cast<size_t>(3 * size)), after(before.size());
  sim.get_state(before.data());
  const std::uint8_t mask[3] = {0, 1, 0};
  const double states[6] = {0, 0, 4.0, 1.0, 0, 0};  // instance 1: q = 4, v = 1
  sim.reset(mask, nullptr, states);
  sim.get_state(after.data());
  for (int j = 0; j < size; ++j) {
    EXPECT_EQ(after[static_cast<size_t>(j)], before[static_cast<size_t>(j)]);
    EXPECT_EQ(after[static_cast<size_t>(2 * size + j)], before[static_cast<size_t>(2 * size + j)]);
  }
  EXPECT_EQ(after[static_cast<size_t>(size)], 0.0);      // t
  EXPECT_EQ(after[static_cast<size_t>(size + 1)], 4.0);  // q
  EXPECT_EQ(after[static_cast<size_t>(size + 2)], 1.0);  // v
  EXPECT_EQ(after[static_cast<size_t>(size + 3)], 0.0);  // u back at its default
  sim.reset(mask);  // the model's initial state
  sim.get_state(after.data());
  EXPECT_EQ(after[static_cast<size_t>(size + 1)], 0.5);
  EXPECT_EQ(after[static_cast<size_t>(size + 2)], 0.0);
  sim.advance(0.2);
  std::vector<double> obs(6);
  sim.observe(obs.data());
  EXPECT_NEAR(obs[0], 0.5 + 1.0 * 0.16 / 4.0, 1e-12);  // instance 0 continued to t = 0.4
  EXPECT_NEAR(obs[2], 0.5, 1e-15);                      // instance 1 restarted with u = 0
  EXPECT_NEAR(sim.times()[1], 0.2, 1e-15);
}

// A four-bar linkage stepped 200 times: every state stays on the constraints (the reference path's residual of
// the loop equations) and the motion agrees with the batch run.
TEST(Simulator, AFourBarStepsAndStaysOnItsConstraints) {
  const api::LoadedModel m = api::load_model(model_path("loops/four_bar.json"));
  ASSERT_TRUE(m.has_loops());
  for (const std::string integrator : {"dopri5", "rn4"}) {
    api::SimulatorOptions o = options(2, integrator);
    o.run.rtol = 1e-8;
    o.run.atol = 1e-10;
    api::Simulator sim(m, o);
    std::vector<double> state(static_cast<size_t>(2 * sim.state_size()));
    double worst = 0.0;
    for (int j = 0; j < 200; ++j) {
      sim.advance(0.01);
      ASSERT_EQ(sim.status()[0], 0) << integrator << " step " << j;
      sim.get_state(state.data());
      Eigen::VectorXd q(m.nq());
      for (int c = 0; c < m.nq(); ++c) q[c] = state[static_cast<size_t>(1 + c)];
      worst = std::max(worst, constraints::constraint_residual(m.impl->model, sim.times()[0], q).cwiseAbs().maxCoeff());
    }
    EXPECT_LT(worst, 1e-10) << integrator;
    EXPECT_NEAR(sim.times()[0], 2.0, 1e-12);
  }
}

TEST(Simulator, RefusesBadSettingsAndValues) {
  const api::LoadedModel m = api::load_model_string(kPushedMass, "pushed_mass");
  api::SimulatorOptions o = options(2, "dopri5");
  o.backend = "gpu";
  EXPECT_THROW(api::Simulator(m, o), api::SettingError);
  o.backend = "cuda";
  std::string device;
  if (!cuda_device_available(&device)) {
    // Without a device (or a CUDA build) the refusal names why, as cuda_device_available does.
    try {
      api::Simulator refused(m, o);
      ADD_FAILURE() << "backend cuda accepted without a device";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(device), std::string::npos) << e.what();
    }
  }
  o = options(0, "dopri5");
  EXPECT_THROW(api::Simulator(m, o), api::SettingError);
  api::Simulator sim(m, options(2, "dopri5"));
  EXPECT_THROW(sim.advance(0.0), std::invalid_argument);
  EXPECT_THROW(sim.advance(std::nan("")), std::invalid_argument);
  const double nan_u[2] = {std::nan(""), 0.0};
  EXPECT_THROW(sim.set_inputs(nan_u), std::invalid_argument);
}

}  // namespace simulator_test
}  // namespace myriad
