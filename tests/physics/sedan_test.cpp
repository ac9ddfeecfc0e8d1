// Seed 001's 15-DOF sedan (models/sedan.json, issue 20 item 3): its counts beside Tables 7-8, the straight run that
// its spring preloads, chassis attitude and wheel spins make steady for every rod mass, the slalom's physics (the
// chassis turns with the steer, the outer tires take the load, the lateral acceleration is the speed times the yaw
// rate), the cpu and reference backends, and the rod-inertia extrapolations on the slalom (the full Tables 4-6 are
// bench/rod_extrapolation.py's, docs/validation/rod-extrapolation.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "reference/reference_runner.hpp"
#include "support/cli_run.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace sedan_test {

using namespace testing;

Model sedan() { return load_model_file(model_path("sedan.json")); }

TEST(Sedan, CountsBesideSeed001Tables7And8) {
  const Model model = sedan();
  const auto compiled = compile(model);
  EXPECT_EQ(model.bodies.size(), 27u);
  EXPECT_EQ(model.joints.size(), 27u);
  EXPECT_EQ(model.loops.size(), 16u);
  EXPECT_EQ(compiled->constraints.n_rods, 12);  // Table 7: 12 removed rods
  EXPECT_EQ(compiled->nv, 35);
  EXPECT_EQ(compiled->constraints.m, 21);
  EXPECT_EQ(model.drivers.size(), 1u);  // the steering, a driving coordinate
  EXPECT_EQ(compiled->constraints.n_independent, 14);  // + the driven steering: the paper's 15
  const ReferenceCounts& paper = model.reference_counts;
  EXPECT_EQ(paper.bodies, 34);
  EXPECT_EQ(paper.joints, 35);
  EXPECT_EQ(paper.coordinates, 33);
  EXPECT_EQ(paper.constraints, 18);
  EXPECT_EQ(paper.degrees_of_freedom, 15);
  const test::CliRun info = test::run_cli("info " + model_path("sedan.json"));
  EXPECT_EQ(info.status, 0);
  EXPECT_NE(info.output.find("bodies: 27  joints: 27 (+16 loops)  coordinates: nq = 35, nv = 35  degrees of freedom: 14"),
            std::string::npos)
      << info.output;
  EXPECT_NE(info.output.find("as counted by seed 001 Tables 7-8 (semi-recursive relative coordinates):  bodies: 34  "
                          "joints: 35  coordinates: 33  constraint equations: 18  degrees of freedom: 15"),
            std::string::npos)
      << info.output;
}

// Without steering the car runs straight at its start attitude: the preloads, height and pitch that follow rod_scale
// hold it there (the tires' small conicity and ply steer drift it sideways, not up or down). Those lines and the
// wheel spins' are exact at rod_scale 0 and 1; at 3 they leave 0.3 mm and 0.35 mrad of settling (measured), where a
// wrong preload would sink the car by centimetres.
TEST(Sedan, RunsSteadilyStraightForEveryRodMass) {
  const Model model = sedan();
  const int z = output_index(model, "z"), pitch = output_index(model, "pitch"), roll = output_index(model, "roll");
  const int vx = output_index(model, "vx");
  for (double scale : {0.0, 1.0, 3.0}) {
    const double tolerance = scale == 3.0 ? 6e-4 : 2e-4;
    const EnsembleResult r =
        run_model(model, rk4(1e-3), output_grid(0.0, 1.0, 0.05), {{"rack_amplitude", 0.0}, {"rod_scale", scale}});
    ASSERT_EQ(r.status[0], InstanceStatus::ok) << scale;
    for (int k = 1; k < r.n_times; ++k) {
      EXPECT_NEAR(r.value(0, k, z), r.value(0, 0, z), tolerance) << "rod_scale " << scale << " t " << 0.05 * k;
      EXPECT_NEAR(r.value(0, k, pitch), r.value(0, 0, pitch), tolerance) << "rod_scale " << scale;
      EXPECT_LT(std::fabs(r.value(0, k, roll)), 1e-3) << "rod_scale " << scale;
      EXPECT_NEAR(r.value(0, k, vx), 30.0, 0.05) << "rod_scale " << scale;
    }
  }
}

TEST(Sedan, SlalomTurnsTheCarOnItsTiresAndLoadsTheOuterOnes) {
  const Model model = sedan();
  const EnsembleResult r = run_model(model, rk4(5e-4), output_grid(0.0, 4.0, 0.01));
  ASSERT_EQ(r.status[0], InstanceStatus::ok);
  const int ay = output_index(model, "lateral_acceleration"), yaw_rate = output_index(model, "yaw_rate");
  double peak_ay = 0.0, peak_r = 0.0;
  int at_peak = 0;
  for (int k = 0; k < r.n_times; ++k) {
    if (r.value(0, k, ay) > peak_ay) {
      peak_ay = r.value(0, k, ay);
      at_peak = k;
    }
    peak_r = std::max(peak_r, std::fabs(r.value(0, k, yaw_rate)));
    // Lifted-off tires would read 0: all four stay loaded through the slalom.
    for (const char* tire : {"front_left_tire_fz", "front_right_tire_fz", "rear_left_tire_fz", "rear_right_tire_fz"})
      EXPECT_GT(r.value(0, k, output_index(model, tire)), 1000.0) << tire << " at " << 0.01 * k;
  }
  // A passenger car's slalom at 30 m/s: a few m/s^2 and a yaw rate of about 0.1-0.2 rad/s.
  EXPECT_GT(peak_ay, 2.0);
  EXPECT_LT(peak_ay, 8.0);
  // Newton's second law for the whole car at the peak: its lateral acceleration is the tires' lateral forces over its
  // mass (the contact frames turn by the yaw and steer angles, under 0.1 rad: cos > 0.995; the unsprung parts'
  // motion relative to the chassis is small beside it).
  double mass = 0.0;
  for (const Body& b : model.bodies) mass += b.mass.value;
  for (const Loop& l : model.loops) mass += l.type == LoopType::rod ? l.mass.value : 0.0;
  double lateral_force = 0.0;
  for (const char* tire : {"front_left_tire_fy", "front_right_tire_fy", "rear_left_tire_fy", "rear_right_tire_fy"})
    lateral_force += r.value(0, at_peak, output_index(model, tire));
  EXPECT_NEAR(peak_ay, lateral_force / mass, 0.05 * peak_ay);
  EXPECT_GT(peak_r, 0.05);
  // Turning to the left (positive y acceleration) loads the right-hand (outer) tires.
  EXPECT_GT(r.value(0, at_peak, output_index(model, "front_right_tire_fz")),
            r.value(0, at_peak, output_index(model, "front_left_tire_fz")) + 300.0);
  EXPECT_GT(r.value(0, at_peak, output_index(model, "rear_right_tire_fz")),
            r.value(0, at_peak, output_index(model, "rear_left_tire_fz")) + 300.0);
  // The front tires' lateral forces push the car the way it accelerates.
  EXPECT_GT(r.value(0, at_peak, output_index(model, "front_left_tire_fy")) +
                r.value(0, at_peak, output_index(model, "front_right_tire_fy")),
            0.0);
}

TEST(Sedan, CpuAndReferenceBackendsAgreeOnTheSlalom) {
  for (RodInertia method : {RodInertia::exact, RodInertia::quadratic}) {
    Model model = sedan();
    model.rod_inertia = method;
    const auto compiled = compile(model);
    const Ensemble e = build_ensemble(model, *compiled, 1, nullptr, {{"rack_amplitude", 0.02}});
    const std::vector<double> times = output_grid(0.0, 0.1, 0.01);
    const EnsembleResult cpu = run_ensemble_cpu(*compiled, e, rk4(1e-3), times, 1);
    const EnsembleResult ref = run_ensemble_reference(model, *compiled, e, rk4(1e-3), times, 1);
    ASSERT_EQ(cpu.status[0], InstanceStatus::ok);
    ASSERT_EQ(ref.status[0], InstanceStatus::ok);
    for (int s = 0; s < static_cast<int>(model.outputs.size()); ++s)
      for (int k = 0; k < cpu.n_times; ++k)
        EXPECT_NEAR(cpu.value(0, k, s), ref.value(0, k, s), 1e-8 * std::max(1.0, std::fabs(ref.value(0, k, s))))
            << model.outputs[static_cast<size_t>(s)].name << " at " << times[k] << ", method "
            << static_cast<int>(method);
  }
}

// Seed 001 Table 4's ordering on its own manoeuvre: over 0.5 s of the slalom the extrapolations' difference from the
// exact rods in every relative acceleration falls from point to linear to quadratic.
TEST(Sedan, RodExtrapolationsApproachTheExactRodsWithTheirOrder) {
  Model model = sedan();
  std::vector<Output> accelerations;
  const auto compiled_exact = compile(model);
  for (size_t j = 0; j < model.joints.size(); ++j)
    for (int i = 0; i < compiled_exact->joints[j].nv; ++i) {
      Output o;
      o.name = model.joints[j].name + "_acc" + std::to_string(i);
      o.kind = OutputKind::joint_acceleration;
      o.joint = static_cast<int>(j);
      o.index = i;
      accelerations.push_back(o);
    }
  model.outputs = accelerations;
  std::vector<double> difference;
  const std::vector<double> times = output_grid(0.0, 0.5, 0.005);
  const EnsembleResult exact = run_model(model, rk4(5e-4), times);
  for (RodInertia method : {RodInertia::point, RodInertia::linear, RodInertia::quadratic}) {
    model.rod_inertia = method;
    const EnsembleResult r = run_model(model, rk4(5e-4), times);
    ASSERT_EQ(r.status[0], InstanceStatus::ok);
    double worst = 0.0;
    for (int s = 0; s < static_cast<int>(model.outputs.size()); ++s)
      for (int k = 0; k < r.n_times; ++k) worst = std::max(worst, std::fabs(r.value(0, k, s) - exact.value(0, k, s)));
    difference.push_back(worst);
  }
  EXPECT_GT(difference[0], 0.0);
  EXPECT_LT(difference[1], 0.5 * difference[0]);
  EXPECT_LT(difference[2], 0.5 * difference[1]);
  EXPECT_LT(difference[0], 1e-2);
}

}  // namespace sedan_test
}  // namespace myriad
