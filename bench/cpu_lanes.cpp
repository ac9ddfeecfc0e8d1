// The cpu backend with instances in vector lanes (ensemble/lane_runner.hpp, issue 19 item 3) against one instance
// at a time: seconds and nanoseconds per instance-step of DOPRI5 ensembles on one core and on every core, lanes
// 1 (the scalar path), 2, 4 and 8, on the quarter car (with its own outputs every 5 ms, whose recording stays one
// instance at a time, and with outputs at the two ends alone: the integration itself), the stiff double
// pendulum, the free body (quaternion charts, mapped lane by lane) and the spatial chain; and RK4 (h = 1 ms) on
// the active suspension, as its Gymnasium environment integrates it; RN4 on the stiff double pendulum (the
// settings of bench/peers/stiff_pendulum_diffrax.py: k2 +-20%, rtol = atol = 1e-6, 2 s), the quarter car and the
// spatial chain (its quaternion charts mapped lane by lane).
// Each row checks that its values are the one-at-a-time run's bit for bit. Best of three runs.
// Usage: cpu_lanes [--instances N] [--cases TEXT] [--out FILE.md]   (defaults 2000, every case,
// bench/results/cpu_lanes.md; --cases keeps the cases whose label contains TEXT)
#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>

#include "bench_support.hpp"
#include "ensemble/lane_runner.hpp"

using namespace myriad;

namespace {

struct Case {
  std::string label, file, parameter;
  double rtol, atol, t_end, dt_out;  // dt_out 0: outputs at t0 and t_end alone
  int instance_divisor;              // the 16-DOF chain runs N / 10 instances
  Method method = Method::dopri5;    // rk4: h = 1 ms
};

struct Timing {
  double seconds = 0.0;
  long long steps = 0;
  bool same_bits = true;
};

Timing time_run(const CompiledModel& compiled, const Ensemble& ensemble, const RunSpec& spec,
                const std::vector<double>& times, int threads, int lanes, const EnsembleResult* baseline,
                EnsembleResult* keep) {
  Timing best;
  for (int repeat = 0; repeat < 3; ++repeat) {
    const auto start = std::chrono::steady_clock::now();
    EnsembleResult r = run_ensemble_cpu(compiled, ensemble, spec, times, threads, nullptr, true, lanes);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (repeat == 0 || seconds < best.seconds) best.seconds = seconds;
    best.steps = 0;
    for (const IntegratorStats& s : r.stats) best.steps += s.steps + s.rejected;
    if (baseline)
      best.same_bits = best.same_bits && r.values.size() == baseline->values.size() &&
                       std::memcmp(r.values.data(), baseline->values.data(), r.values.size() * sizeof(double)) == 0 &&
                       r.status == baseline->status;
    if (keep && repeat == 0) *keep = std::move(r);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  long long instances = 2000;
  std::string only;
  std::string out = bench::source_path("bench/results/cpu_lanes.md");
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--instances") instances = std::stoll(argv[i + 1]);
    else if (flag == "--cases") only = argv[i + 1];
    else if (flag == "--out") out = argv[i + 1];
    else {
      std::cerr << "usage: cpu_lanes [--instances N] [--cases TEXT] [--out FILE.md]\n";
      return 2;
    }
  }
  const std::vector<Case> cases = {
      {"quarter car, its outputs every 5 ms", "models/quarter_car.json", "k_s", 1e-7, 1e-9, 3.0, 0.005, 1},
      {"quarter car, outputs at the ends", "models/quarter_car.json", "k_s", 1e-7, 1e-9, 3.0, 0.0, 1},
      {"stiff double pendulum, outputs at the ends", "models/stiff_double_pendulum.json", "k1", 1e-6, 1e-8, 0.02,
       0.0, 1},
      {"free body, outputs at the ends", "models/free_body.json", "m", 1e-8, 1e-10, 2.0, 0.0, 1},
      {"spatial chain (9 bodies, 16 DOF), outputs at the ends", "models/spatial_chain.json", "k_slide", 1e-6, 1e-8, 1.0,
       0.0, 10},
      {"active suspension, RK4 h = 1 ms, outputs at the ends", "models/active_suspension.json", "k_s", 0.0, 0.0, 1.0,
       0.0, 1, Method::rk4},
      {"stiff double pendulum, RN4, k2 +-20%, outputs at the ends", "models/stiff_double_pendulum.json", "k2", 1e-6,
       1e-6, 2.0, 0.0, 1, Method::rn4},
      {"stiff double pendulum, RN4, k2 +-20%, outputs every 10 ms", "models/stiff_double_pendulum.json", "k2", 1e-6,
       1e-6, 2.0, 0.01, 1, Method::rn4},
      {"quarter car, RN4, outputs at the ends", "models/quarter_car.json", "k_s", 1e-6, 1e-8, 3.0, 0.0, 1,
       Method::rn4},
      {"spatial chain (9 bodies, 16 DOF), RN4, outputs at the ends", "models/spatial_chain.json", "k_slide", 1e-6,
       1e-8, 0.5, 0.0, 10, Method::rn4},
  };
  const int all_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::ostringstream table;
  table << "| case | N | threads | lanes | seconds | ns per instance-step | speed-up over lanes 1 | same bits |\n"
        << "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n";
  for (const Case& c : cases) {
    if (c.label.find(only) == std::string::npos) continue;
    const Model model = load_model_file(bench::source_path(c.file));
    const auto compiled = compile(model);
    const long long n = std::max<long long>(1, instances / c.instance_divisor);
    ParameterTable t;
    t.source = "generated";
    const Ensemble ensemble = [&] {
      if (c.parameter.empty()) return build_ensemble(model, *compiled, static_cast<int>(n), nullptr, {});
      double base = 0.0;
      for (const auto& p : model.parameters)
        if (p.name == c.parameter) base = p.value;
      t.names = {c.parameter};
      for (long long i = 0; i < n; ++i) t.rows.push_back({base * (0.8 + 0.4 * static_cast<double>(i % 1000) / 999.0)});
      return build_ensemble(model, *compiled, static_cast<int>(n), &t, {});
    }();
    const std::vector<double> times = c.dt_out > 0.0 ? output_grid(0.0, c.t_end, c.dt_out)
                                                     : std::vector<double>{0.0, c.t_end};
    RunSpec spec = bench::adaptive(c.method, c.rtol, c.atol);
    spec.h = 1e-3;
    if (!lanes_supported(*compiled, spec)) throw std::logic_error(c.file + ": not taken by the lane runner");
    for (const int threads : {1, all_threads}) {
      if (threads == all_threads && all_threads == 1) continue;
      EnsembleResult baseline;
      const Timing alone = time_run(*compiled, ensemble, spec, times, threads, 1, nullptr, &baseline);
      for (const int lanes : {1, 2, 4, 8}) {
        const Timing r = lanes == 1 ? alone : time_run(*compiled, ensemble, spec, times, threads, lanes, &baseline,
                                                       nullptr);
        table << "| " << c.label << " | " << n << " | " << threads << " | " << lanes << " | " << std::fixed
              << std::setprecision(3) << r.seconds << " | " << std::setprecision(0)
              << 1e9 * r.seconds * threads / static_cast<double>(r.steps) << " | " << std::setprecision(2)
              << alone.seconds / r.seconds << "x | " << (r.same_bits ? "yes" : "NO") << " |\n";
        std::cerr << c.label << " threads " << threads << " lanes " << lanes << ": " << r.seconds << " s\n";
      }
    }
  }
  std::ostringstream doc;
  doc << "# The cpu backend with instances in vector lanes\n\n"
      << "Issue 19 item 3. Written by `bench/cpu_lanes.cpp` (its header says what each row runs). DOPRI5 unless "
         "the case says RK4 or RN4; an instance-step is a step attempt (accepted or rejected); ns per instance-step counts "
         "thread time (seconds "
         "x threads); \"same bits\" compares every value and status with the one-at-a-time run's.\n\n"
      << "Machine: " << bench::machine_description() << "; lane runner compiled for " << lane_instruction_set()
      << "; command: `build/bench/cpu_lanes --instances " << instances
      << (only.empty() ? std::string() : " --cases '" + only + "'") << "`\n\n"
      << table.str();
  std::ofstream file(out);
  file << doc.str();
  std::cout << doc.str();
  return 0;
}
