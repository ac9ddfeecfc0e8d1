// Env-steps per second of the stepping API (api::Simulator) in C++, as an RL loop drives it: per env step
// set_inputs (an open-loop actuator force per environment), advance(0.01) (RK4, h = 1 ms: 10 substeps, the
// model's defaults) and observe, on the active-suspension quarter car (models/active_suspension.json), for
// N = 1, 64, 1024, 16384, 65536, 262144 environments (up to --max-n) on the cpu backend (one thread up to
// --one-thread-max-n, all threads) and, where a device is present, the cuda backend (backends/cuda_stepper.hpp:
// the state stays on the device; an env step copies u there, runs the input, step and observe kernels, and copies
// the observations back), and the cuda backend as a consumer on the GPU uses it (observe_in_place: the
// observations stay on the device too). The Python environment's figures, with MuJoCo's beside them, are
// bench/python/bench_env_steps.py's; this is the same loop without Python, on every backend. Each row also gives
// the largest relative difference of the cuda backend's observations from the cpu backend's after 5 env steps
// from the same start (the same inputs on both).
// --lanes L sets the cpu backend's instances per thread in lockstep (RunOptions::lanes; 1: one at a time).
// Usage: step_throughput [--max-n N] [--one-thread-max-n N] [--seconds S] [--lanes L] [--out FILE.md]
//        (defaults 16384, 16384, 1, 4, bench/results/step_throughput.md)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "backends/cuda_runner.hpp"
#include "myriad/myriad.hpp"

using namespace myriad;

namespace {

struct Row {
  long long steps = 0;
  double seconds = 0.0;
  std::vector<double> observed;  // N x S after the timed steps
};

// Steps `sim` until `seconds` have passed (at least 5 env steps after 2 untimed ones), the same inputs for every
// backend: step k gives environment i the force 1 kN sin(0.37 i + 0.11 k). in_place: observe_in_place (the
// observations left where the backend computed them) instead of observe into a host array.
Row time_steps(api::Simulator& sim, double seconds, long long fixed_steps, bool in_place = false) {
  const long long n = sim.size();
  const int A = sim.n_inputs(), S = sim.n_signals();
  std::vector<double> u(static_cast<size_t>(n * A)), out(static_cast<size_t>(n * S));
  const auto step = [&](long long k) {
    for (long long i = 0; i < n; ++i)
      for (int a = 0; a < A; ++a)
        u[static_cast<size_t>(i * A + a)] = 1000.0 * std::sin(0.37 * static_cast<double>(i + a) + 0.11 * static_cast<double>(k));
    sim.set_inputs(u.data());
    sim.advance(0.01);
    if (in_place)
      sim.observe_in_place();
    else
      sim.observe(out.data());
  };
  step(0);
  step(1);
  Row r;
  const auto t0 = std::chrono::steady_clock::now();
  for (long long k = 2;; ++k) {
    step(k);
    ++r.steps;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (fixed_steps > 0 ? r.steps >= fixed_steps : (r.steps >= 5 && r.seconds >= seconds)) break;
  }
  r.observed = out;
  return r;
}

std::string rate(const Row& r, long long n) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(0) << static_cast<double>(r.steps * n) / r.seconds;
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  long long max_n = 16384, one_thread_max_n = 16384;
  double seconds = 1.0;
  int lanes = 4;
  std::string out_path = bench::source_path("bench/results/step_throughput.md");
  std::ostringstream command;
  command << "build/bench/step_throughput";
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string arg = argv[a], value = argv[a + 1];
    command << " " << arg << " " << value;
    if (arg == "--max-n") max_n = std::atoll(value.c_str());
    else if (arg == "--one-thread-max-n") one_thread_max_n = std::atoll(value.c_str());
    else if (arg == "--seconds") seconds = std::atof(value.c_str());
    else if (arg == "--lanes") lanes = std::atoi(value.c_str());
    else if (arg == "--out") out_path = value;
    else {
      std::cerr << "step_throughput: unknown option " << arg << "\n";
      return 2;
    }
  }
  std::string device;
  const bool gpu = cuda_device_available(&device);
  const api::LoadedModel model = api::load_model(bench::source_path("models/active_suspension.json"));
  std::ostringstream md;
  md << "# Env-steps per second of the stepping API in C++ (active-suspension quarter car, RK4 h = 1 ms, "
     << "an env step = advance(0.01))\n\n"
     << "Host: " << bench::machine_description() << "  \n"
     << "Device: " << (gpu ? device : "none (" + device + "): no cuda column") << "  \n"
     << "Command: `" << command.str() << "` (Release)\n\n"
     << "env steps per second (environments x timed steps / wall seconds; each env step: set_inputs, advance, "
     << "observe), timed for at least " << seconds << " s a cell; the cpu backend with " << lanes
     << " instance(s) per thread in lockstep (lanes). cuda: the state on the device, the observations "
     << "copied to a host array; cuda, in place: observe_in_place, the observations left in device memory (what a "
     << "consumer on the GPU imports through DLPack). cuda vs cpu: the largest difference of the cuda backend's "
     << "observations from the all-thread cpu backend's after 5 env steps from the same start, relative to "
     << "max(1, |cpu|).\n\n"
     << "| N | cpu 1 thread | cpu all threads | cuda | cuda, in place | cuda vs cpu |\n"
     << "| ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (long long n : {1LL, 64LL, 1024LL, 16384LL, 65536LL, 262144LL}) {
    if (n > max_n) break;
    api::SimulatorOptions o;
    o.instances = n;
    o.run.lanes = lanes;
    md << "| " << n << " | ";
    if (n <= one_thread_max_n) {
      o.threads = 1;
      api::Simulator one(model, o);
      md << rate(time_steps(one, seconds, 0), n) << " | ";
    } else {
      md << "- | ";
    }
    o.threads = 0;
    {
      api::Simulator all(model, o);
      md << rate(time_steps(all, seconds, 0), n) << " | ";
    }
    if (gpu) {
      api::SimulatorOptions c = o;
      c.backend = "cuda";
      {
        api::Simulator cuda(model, c);
        md << rate(time_steps(cuda, seconds, 0), n) << " | ";
      }
      {
        api::Simulator cuda(model, c);
        md << rate(time_steps(cuda, seconds, 0, true), n) << " | ";
      }
      api::Simulator cuda(model, c), cpu(model, o);
      const Row rc = time_steps(cuda, 0.0, 5), rs = time_steps(cpu, 0.0, 5);
      double worst = 0.0;
      for (size_t k = 0; k < rc.observed.size(); ++k)
        worst = std::max(worst, std::abs(rc.observed[k] - rs.observed[k]) / std::max(1.0, std::abs(rs.observed[k])));
      std::ostringstream w;
      w << std::scientific << std::setprecision(1) << worst;
      md << w.str() << " |\n";
    } else {
      md << "- | - | - |\n";
    }
    std::cerr << "N = " << n << " done\n";
    std::ofstream(out_path) << md.str();  // row by row: a run cut at a device session's limit keeps its rows
  }
  std::ofstream(out_path) << md.str();
  std::cout << md.str();
  return 0;
}
