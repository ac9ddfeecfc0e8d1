#pragma once
// Test support for comparing two backends on the same ensembles (reference vs cpu, cuda vs cpu): the shipped
// models by name, randomized ensembles of them, how long and with which steps each model is run, and the
// largest differences between two results.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ensemble/cpu_runner.hpp"
#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_spec.hpp"
#include "model/compile.hpp"
#include "model/model_loader.hpp"
#include "support/model_fixture.hpp"
#include "support/run_model.hpp"

namespace myriad::testing {

// The tree models in models/ by name (file name without .json), sorted.
inline std::vector<std::string> shipped_model_names() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(MYRIAD_SOURCE_DIR) + "/models"))
    if (entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

// The loop models the backend comparisons run, by name relative to models/.
inline constexpr const char* kLoopModels[] = {"loops/four_bar",  "loops/slider_crank",
                                              "loops/four_link", "loops/andrews_squeezer",
                                              "loops/five_bar",  "loops/ladder/ladder_L4"};

// A uniform double in [0, 1) from the top 53 bits (the same on every standard library, unlike
// std::uniform_real_distribution).
inline double unit_uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// n instances of `model`: every parameter (l0_*, initial coordinates, bump times and thetas alike) scaled by
// its own factor in [0.9, 1.1] from a fixed seed, through a parameter table, so build_ensemble validates each
// instance. A model without parameters gets its initial velocities shifted by up to +-0.2 instead, so that
// its instances differ too.
inline Ensemble randomized_ensemble(const Model& model, const CompiledModel& compiled, int n,
                                    std::uint64_t seed, double spread = 0.1) {
  std::mt19937_64 rng(seed);
  if (model.parameters.empty()) {
    Ensemble e = build_ensemble(model, compiled, n, nullptr, {});
    for (double& v : e.initial_v) v += 0.4 * unit_uniform(rng) - 0.2;
    return e;
  }
  ParameterTable table;
  table.source = "randomized";
  for (const Parameter& p : model.parameters) table.names.push_back(p.name);
  for (int i = 0; i < n; ++i) {
    std::vector<double> row;
    for (const Parameter& p : model.parameters)
      row.push_back(p.value * (1.0 - spread + 2.0 * spread * unit_uniform(rng)));
    table.rows.push_back(row);
  }
  return build_ensemble(model, compiled, 0, &table, {});
}

struct Loaded {
  Model model;
  std::unique_ptr<CompiledModel> compiled;
};

inline Loaded load(const std::string& name) {
  Loaded l;
  l.model = load_model_file(testing::model_path(name + ".json"));
  l.compiled = compile(l.model);
  return l;
}

// An adaptive method at rtol = atol = tol (fixed steps: run_model.hpp's rk4).
inline RunSpec adaptive(Method method, double tol) {
  RunSpec spec;
  spec.method = method;
  spec.control.rtol = tol;
  spec.control.atol = tol;
  return spec;
}

inline const char* method_name(Method m) {
  switch (m) {
    case Method::rk4:
      return "rk4";
    case Method::dopri5:
      return "dopri5";
    case Method::rn4:
      return "rn4";
    case Method::ros2w:
      return "ros2w";
    case Method::implicit:
      return "implicit";
  }
  return "?";
}

// Largest differences of `a` from `b` over every instance, time and signal: pointwise relative to max(1, |b|)
// (the measure), the same over the state-like signals only (all but spring, damper, bushing and tire
// forces, joint accelerations and potential and total energy, which multiply state differences by stiffness and
// damping: a 200 kN/m tire's k (l - l0)^2 / 2 inside a total of a few hundred J), and signalwise relative to
// max(1, max over the instance's times of |b|).
struct Differences {
  double pointwise = 0.0, state_pointwise = 0.0, signalwise = 0.0;
};

inline bool stiffness_weighted(OutputKind kind) {
  return kind == OutputKind::spring_force || kind == OutputKind::damper_force || kind == OutputKind::bushing_force ||
         kind == OutputKind::tire_force ||
         kind == OutputKind::joint_acceleration || kind == OutputKind::potential_energy ||
         kind == OutputKind::total_energy;
}

inline Differences max_differences(const Model& model, const EnsembleResult& a, const EnsembleResult& b) {
  Differences d;
  auto worst = [](double current, double value) {
    return std::isnan(value) ? HUGE_VAL : std::max(current, value);
  };
  for (int i = 0; i < b.n_instances; ++i)
    for (int s = 0; s < b.n_signals; ++s) {
      const bool state_like = !stiffness_weighted(model.outputs[static_cast<size_t>(s)].kind);
      double magnitude = 1.0;
      for (int k = 0; k < b.n_times; ++k) magnitude = std::max(magnitude, std::abs(b.value(i, k, s)));
      for (int k = 0; k < b.n_times; ++k) {
        const double difference = std::abs(a.value(i, k, s) - b.value(i, k, s));
        const double relative = difference / std::max(1.0, std::abs(b.value(i, k, s)));
        d.pointwise = worst(d.pointwise, relative);
        if (state_like) d.state_pointwise = worst(d.state_pointwise, relative);
        d.signalwise = worst(d.signalwise, difference / magnitude);
      }
    }
  return d;
}

// The cpu backend's own error on an adaptive run: its outputs against the same run at tolerance 1e-12
// (max_differences). Two backends' runs differ by rounding in every step (the GPU contracts multiply-adds);
// where that parts their step sequences (a step accepted on one and rejected on the other) the runs differ by
// a tolerance-sized state difference, which stiff springs and dampers multiply in the forces and accelerations.
// Such outputs are then held to this: the backends agree within what either run can claim. Measured on
// quarter_car_road (ISO 8608 road, one-sided 200 kN/m tire) under DOPRI5 at 1e-8: the cuda backend (H200) and
// cpu differ by 1.5e-6 pointwise in a_b (state-like outputs 9.2e-9); perturbing rtol by 1e-12 moves the cpu's
// own a_b by 1.1e-6; the cpu's error against 1e-12 is 6.8e-6 in a_b and 3.8e-5 in the tire force
// (tests: CudaBackend.MatchesCpuOnEveryShippedModelWithRandomizedParameters,
// ReferenceBackend.RoundingPartsDopri5StepsWithinTheRunsOwnError).
inline Differences own_error(const Loaded& l, const Ensemble& e, const RunSpec& spec,
                             const std::vector<double>& times) {
  RunSpec tight = spec;
  tight.control.rtol = tight.control.atol = 1e-12;
  return max_differences(l.model, run_ensemble_cpu(*l.compiled, e, spec, times, 0),
                         run_ensemble_cpu(*l.compiled, e, tight, times, 0));
}

// How each model is exercised. RK4: a step it is stable and accurate at, over a horizon of a few hundred
// steps (the stiff models' stable steps are tiny). DOPRI5: the quarter car over its bump, so that the runs
// are integrated piecewise between the input breakpoints; the stiff models only for 5 ms. DOPRI5 runs at its
// stability limit on them: once an instance's step sequences part (a rejection on one backend only), the
// stiff modes carry different tolerance-sized noise in the velocities, which stiff damping (c_b = 1e5 N s/m)
// turns into force and acceleration differences of ~1e-7 relative (measured at 10 ms: bushing force 1.1e-7,
// sprung acceleration 1.7e-7, positions still 1e-14) -- the size of each backend's own error in those outputs
// is 6e-6 and 9e-4 there. The stiff models' long runs over the bump are compared with the Rosenbrock methods
// below.
struct ModelPlan {
  double rk4_h, rk4_t_end, dopri5_t_end;
  // RK4's pointwise bound on every output, forces and accelerations included. The template corners' stiff tires
  // (200-326 kN/m), springs and 19 kN s/m dampers turn the loop solves' 1e-11 relative position differences
  // between the paths into force differences of up to 1.7e-9 relative (measured: double_wishbone_corner 2.0e-10,
  // five_link_corner 2.2e-10, rod_corner's accelerations 6.2e-10, full_car 1.7e-9; their state-like outputs
  // 2.7e-11, 1.8e-11), so there the
  // state-like outputs keep 1e-10 and the forces get 1e-8.
  double rk4_force_pointwise = 1e-10;
  // Instances of the every-model comparisons: the reference path runs dense Newton each evaluation, so the loop
  // vehicles and the template corners run few, to keep the suite's time in bounds: at 256 corners, 64 half cars and
  // 16 full cars the reference took 16-45 s per corner, 14-31 s and 8-11 s per method (2-core CI machine,
  // 2026-11-27); now 32, 16 and 8 (full car horizon 0.1 s).
  int instances = 256;
  // DOPRI5's pointwise bound (tol 1e-8) on the stiffness-weighted outputs, the state-like ones keeping 10 x tol. A
  // tire's longitudinal force is K_x kappa with K_x about 67 kN per unit slip and kappa = (omega R_e - V_x) / V_ref,
  // which turns the paths' 1e-11 relative difference in the wheel speed into up to 1e-6 N of Fx (measured on
  // driven_wheel, reference vs cpu, near zero slip where max(1, |Fx|) = 1 N; the tire's forces run to kN): there
  // 1e-5. The paths' DOPRI5 step sizes differ by rounding, so this moves with any change of arithmetic: 1.98e-7 N
  // (state-like 4.9e-12) at 35e6257, 1.05e-6 N (1.5e-11) once revolute placements were folded into constants.
  double dopri5_force_pointwise = 1e-7;
};

inline ModelPlan plan_for(const std::string& name) {
  // Andrews' squeezer reaches 1000 rad/s within 0.03 s.
  // Loop models: 50 RK4 steps (the reference runs Newton with dense Jacobians each evaluation).
  if (name == "loops/andrews_squeezer") return {1e-5, 5e-4, 3e-3};
  if (name.rfind("loops/", 0) == 0) return {1e-3, 0.05, 0.1};
  if (name == "stiff_double_pendulum") return {5e-6, 2e-3, 5e-3};
  if (name == "stiff_quarter_car") return {2e-5, 4e-3, 5e-3};
  if (name == "quarter_car") return {1e-3, 0.2, 0.7};
  if (name == "spatial_chain") return {1e-3, 0.1, 0.1};
  if (name == "double_wishbone_corner" || name == "macpherson_corner" || name == "five_link_corner" ||
      name == "rod_corner")
    return {1e-3, 0.2, 0.2, 1e-8, 32};
  if (name == "half_car") return {1e-3, 0.2, 0.2, 1e-8, 16};
  if (name == "full_car") return {1e-3, 0.1, 0.1, 1e-8, 8};
  // Seed 001's sedan: 35 coordinates, the reference 7 ms a step (dense Newton); Magic Formula tires at 30 m/s, whose
  // slips multiply rounding as driven_wheel's do.
  // RK4's largest force difference 1.9e-8 relative (measured, the tires' forces at randomized parameters): 1e-7.
  if (name == "sedan") return {1e-3, 0.1, 0.1, 1e-7, 4, 1e-5};
  // Stiff by design (dominant eigenvalue -1.76e5): RK4 below its stability limit 1.6e-5, short horizons, 4 instances.
  // Its bushings' 2e6 N s/m turn the paths' 1e-13 differences in the arms' rates into 2.4e-7 N (DOPRI5, measured;
  // the state-like outputs 7.7e-13): 1e-6 there.
  if (name == "hmmwv") return {1e-5, 5e-4, 2e-3, 1e-8, 4, 1e-6};
  // The tire's slip kappa = (omega R_e - V_x) / V_ref is a difference of nearly equal speeds near free rolling,
  // which multiplies rounding by V_x / (omega R_e - V_x) (1e5 at kappa = 1e-5), and Fx = K_x kappa there: RK4's
  // forces 2.7e-11 apart (reference vs cpu); 1e-9 leaves room for the GPU's contracted multiply-adds.
  if (name == "driven_wheel") return {1e-3, 0.2, 0.2, 1e-9, 256, 1e-5};
  return {1e-3, 0.2, 0.2};
}

}  // namespace myriad::testing
