// Ensemble throughput on the CPU backend: wall time and instance-steps per second for growing N, on one thread
// and on all hardware threads. Usage: ensemble_throughput [MAX_N] [OUT.md]
// (defaults: 10000, bench/results/ensemble_throughput_cpu.md)
#include <chrono>
#include <iomanip>
#include <iostream>
#include <thread>

#include "bench_support.hpp"

using namespace myriad;

namespace {

struct Case {
  std::string file;
  Method method;
  double tol, h, t_end;
};

ParameterTable spread(const std::string& name, double base, int n) {
  ParameterTable t;
  t.source = "generated";
  t.names = {name};
  for (int i = 0; i < n; ++i) t.rows.push_back({base * (0.8 + 0.4 * (i % 1000) / 999.0)});
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const long long max_n = argc > 1 ? std::atoll(argv[1]) : 10000;
  const std::string out_path = argc > 2 ? argv[2] : bench::source_path("bench/results/ensemble_throughput_cpu.md");
  const int all = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const std::vector<std::pair<Case, std::string>> cases = {
      {{"models/quarter_car.json", Method::dopri5, 1e-6, 0, 2.0}, "k_s"},
      {{"models/quarter_car.json", Method::rk4, 0, 1e-3, 2.0}, "k_s"},
      {{"models/stiff_double_pendulum.json", Method::rn4, 1e-6, 0, 2.0}, "k2"},
      {{"models/spatial_chain.json", Method::dopri5, 1e-6, 0, 1.0}, ""}};
  std::ostringstream md;
  md << "# Ensemble throughput, CPU backend\n\nMachine: " << bench::machine_description() << "  \n"
     << "Command: `build/bench/ensemble_throughput " << max_n << "` (Release). Parameters spread over +-20% across\n"
     << "instances; output every 0.01 s. instance-steps/s = total accepted steps / wall time.\n\n"
     << "| model | method | N | threads | wall [s] | steps | instance-steps/s | speed-up vs 1 thread |\n"
     << "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const auto& [c, parameter] : cases) {
    const Model model = load_model_file(bench::source_path(c.file));
    const auto compiled = compile(model);
    RunSpec spec = bench::adaptive(c.method, c.tol, c.tol);
    spec.h = c.h;
    const std::vector<double> times = output_grid(0.0, c.t_end, 0.01);
    for (long long n = 1; n <= max_n; n *= 10) {
      ParameterTable table;
      if (!parameter.empty()) {
        double base = 0;
        for (const Parameter& p : model.parameters)
          if (p.name == parameter) base = p.value;
        table = spread(parameter, base, static_cast<int>(n));
      }
      const Ensemble e = build_ensemble(model, *compiled, parameter.empty() ? static_cast<int>(n) : 0,
                                        parameter.empty() ? nullptr : &table, {});
      double one_thread = 0;
      for (int threads : {1, all}) {
        if (threads == all && all == 1) break;
        const EnsembleResult r = run_ensemble_cpu(*compiled, e, spec, times, threads);
        long long steps = 0;
        for (const IntegratorStats& s : r.stats) steps += s.steps;
        if (threads == 1) one_thread = r.total_wall_seconds;
        md << "| " << model.name << " | " << bench::method_name(c.method) << " | " << n << " | " << threads << " | "
           << std::setprecision(4) << r.total_wall_seconds << " | " << steps << " | "
           << static_cast<double>(steps) / r.total_wall_seconds << " | " << one_thread / r.total_wall_seconds << " |\n";
        std::cerr << model.name << " N=" << n << " threads=" << threads << " " << r.total_wall_seconds << " s\n";
      }
    }
  }
  std::ofstream(out_path) << md.str();
  std::cout << md.str();
  return 0;
}
