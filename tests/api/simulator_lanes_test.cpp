// api::Simulator on the cpu backend with instances stepped in vector lanes (ensemble/lane_runner.hpp) against one
// at a time: every state after every advance and every observation the same bits, statuses included, for DOPRI5
// and RN4 (the quarter car, one instance whose bump overflows its tire force in the middle of a joint step) and RK4
// (the active suspension with inputs that differ per instance and per step), with instance counts no lane count
// divides.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "api/myriad/myriad.hpp"

namespace myriad {
namespace simulator_lanes_test {

std::string model_path(const std::string& name) { return std::string(MYRIAD_SOURCE_DIR) + "/models/" + name; }

struct Trajectory {
  std::vector<double> states, observations;
  std::vector<int> status;
};

// 30 advances of 20 ms (past the quarter car's bump at 0.5 s) of 13 instances, each with its own parameters and
// (where the model has inputs) its own input at each step; the full state and the signals after each.
Trajectory run(const std::string& file, const std::string& integrator, int lanes, const std::string& parameter,
               double failing_value) {
  const api::LoadedModel m = api::load_model(model_path(file));
  api::SimulatorOptions o;
  o.instances = 13;
  o.threads = 2;
  o.run.integrator = integrator;
  o.run.lanes = lanes;
  std::vector<double> values;
  for (int i = 0; i < 13; ++i) values.push_back(i == 7 && failing_value != 0.0 ? failing_value : 0.01 + 0.005 * i);
  if (!parameter.empty()) o.parameters = api::ParameterSet::from_array({parameter}, 13, values.data());
  api::Simulator sim(m, o);
  Trajectory t;
  std::vector<double> state(static_cast<std::size_t>(13 * sim.state_size()));
  std::vector<double> signals(static_cast<std::size_t>(13 * sim.n_signals()));
  std::vector<double> u(static_cast<std::size_t>(13 * sim.n_inputs()));
  for (int step = 0; step < 30; ++step) {
    for (std::size_t i = 0; i < u.size(); ++i) u[i] = 400.0 * std::sin(0.7 * static_cast<double>(i) + 0.3 * step);
    if (!u.empty()) sim.set_inputs(u.data());
    sim.advance(0.02);
    sim.get_state(state.data());
    sim.observe(signals.data());
    t.states.insert(t.states.end(), state.begin(), state.end());
    t.observations.insert(t.observations.end(), signals.begin(), signals.end());
  }
  t.status = sim.status();
  return t;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(SimulatorLanes, Dopri5StepsInLanesAreTheOneAtATimeStepsBitForBit) {
  // bump_height: 1 .. 7 cm bumps, instance 7's 1e300 m overflows.
  const Trajectory alone = run("quarter_car.json", "dopri5", 1, "bump_height", 1e300);
  ASSERT_NE(alone.status[7], 0);
  for (int i = 0; i < 13; ++i)
    if (i != 7) ASSERT_EQ(alone.status[static_cast<std::size_t>(i)], 0) << i;
  for (const int lanes : {2, 4, 8}) {
    const Trajectory together = run("quarter_car.json", "dopri5", lanes, "bump_height", 1e300);
    EXPECT_EQ(together.status, alone.status) << lanes;
    EXPECT_TRUE(same_bits(together.states, alone.states)) << lanes;
    EXPECT_TRUE(same_bits(together.observations, alone.observations)) << lanes;
  }
}

TEST(SimulatorLanes, Rn4StepsInLanesAreTheOneAtATimeStepsBitForBit) {
  // RN4's attempts and linearizations go to the lanes (IntegrationProgress::Handover); the failing instance's
  // overflow lands in one of them and sends its group back to the scalar code.
  const Trajectory alone = run("quarter_car.json", "rn4", 1, "bump_height", 1e300);
  ASSERT_NE(alone.status[7], 0);
  for (int i = 0; i < 13; ++i)
    if (i != 7) ASSERT_EQ(alone.status[static_cast<std::size_t>(i)], 0) << i;
  for (const int lanes : {2, 4, 8}) {
    const Trajectory together = run("quarter_car.json", "rn4", lanes, "bump_height", 1e300);
    EXPECT_EQ(together.status, alone.status) << lanes;
    EXPECT_TRUE(same_bits(together.states, alone.states)) << lanes;
    EXPECT_TRUE(same_bits(together.observations, alone.observations)) << lanes;
  }
}

TEST(SimulatorLanes, Rk4StepsWithPerInstanceInputsAreTheOneAtATimeStepsBitForBit) {
  const Trajectory alone = run("active_suspension.json", "rk4", 1, "", 0.0);
  for (const int lanes : {2, 4, 8}) {
    const Trajectory together = run("active_suspension.json", "rk4", lanes, "", 0.0);
    EXPECT_EQ(together.status, alone.status) << lanes;
    EXPECT_TRUE(same_bits(together.states, alone.states)) << lanes;
    EXPECT_TRUE(same_bits(together.observations, alone.observations)) << lanes;
  }
  // The inputs moved the instances apart: instance 0's and 1's first states differ.
  const std::size_t size = alone.states.size() / 30 / 13;
  EXPECT_NE(std::vector<double>(alone.states.begin(), alone.states.begin() + static_cast<long>(size)),
            std::vector<double>(alone.states.begin() + static_cast<long>(size),
                                alone.states.begin() + static_cast<long>(2 * size)));
}

}  // namespace simulator_lanes_test
}  // namespace myriad
