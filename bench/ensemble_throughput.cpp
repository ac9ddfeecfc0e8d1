// Ensemble throughput: wall time and instance-steps per second for N = 1, 1e2, ..., 1e6 on the quarter car, the
// stiff double pendulum, a closed-loop model (four-bar) and the spatial ladder with L = 16, on every backend this
// machine has: reference, cpu on one thread and on all threads, cuda fused (thread per instance, by the kernel
// compiled for the method on trees where the model has no loops and, at every N, the generic interpreter to compare;
// one launch with the scratch thread-local where it fits and, to compare, in global memory; a step budget per
// launch with compaction), cuda warp per instance and shared LU (Rosenbrock rows), cuda staged.
// For the Rosenbrock rows the share of the time spent factoring Pi is estimated (see lu_seconds below). With a
// device, a closing section sets every cuda row against the all-thread cpu row of the same N (the stiff
// pendulum's cpu rows reach N = 1e5 with --cpu-max-n 100000; one-thread rows stop at 1e4).
// Usage: ensemble_throughput [--cpu-max-n N] [--reference-max-n N] [--gpu-max-n N] [--one-thread-max-n N]
//                            [--variants-max-n N] [--models STEM,STEM] [--methods M,M] [--min-n N] [--repeat-below S]
//                            [--out FILE.md]
// (defaults 1e4, 100, 1e6, 1e4, the GPU maximum, every model, bench/results/ensemble_throughput_cpu.md or _gpu.md
// when a device is present). --variants-max-n bounds the cuda rows other than plain fused (global scratch, budget,
// warp, shared LU, staged); --models keeps the cases of those model files (e.g. stiff_double_pendulum), so that a
// device session can take the stiff pendulum's figure to N = 1e6 on every core within its minutes; --methods keeps
// the cases of those methods (e.g. dopri5,rn4: the two model kernels of kernels/model_kernels.cu); --min-n skips
// the rows below N (a session that owes only the 1e6 row); --repeat-below S (default 20) runs a row three times
// when its first run took under S seconds (a device machine of its own needs fewer repeats than a shared one).
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <random>

#include "backends/backend.hpp"
#include "bench_support.hpp"
#include "backends/cuda_runner.hpp"
#include "ensemble/instance_blocks.hpp"
#include "ensemble/simulate_instance.hpp"
#include "linalg/dense_lu.hpp"

using namespace myriad;

namespace {

struct Case {
  std::string file, parameter;  // parameter spread over +-20% (absolute +-0.2 where its default is 0)
  Method method;
  double tol, h, t_end;
  long long cpu_max_n;  // the slowest models stop earlier on the CPU (a minute a row at most on 2 cores)
};

ParameterTable spread(const std::string& name, double base, long long n) {
  ParameterTable t;
  t.source = "generated";
  t.names = {name};
  for (long long i = 0; i < n; ++i) {
    const double u = -0.2 + 0.4 * static_cast<double>(i % 1000) / 999.0;
    t.rows.push_back({base != 0.0 ? base * (1.0 + u) : u});
  }
  return t;
}

// Mean seconds of one lu_factor plus the four lu_solve calls of an RN4 attempt on n x n matrices like Pi (well
// conditioned, dense). Multiplied by an ensemble's factorization count and divided by its summed per-instance
// time this estimates the share of Pi's factorization; the integrators themselves carry no timers (a timer per
// LU would cost more than the LU for small n).
double lu_seconds(int n) {
  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int count = 256;
  std::vector<double> matrices(static_cast<size_t>(count * n * n)), work(static_cast<size_t>(n * n)), b(static_cast<size_t>(n));
  for (int m = 0; m < count; ++m)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        matrices[static_cast<size_t>((m * n + i) * n + j)] = (i == j ? 3.0 * n : 0.0) + 0.3 * u(random);
  std::vector<int> pivots(static_cast<size_t>(n));
  volatile double sink = 0.0;  // keeps the loop from being optimized away
  const int reps = std::max(1, 20000 / (n * n));
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r)
    for (int m = 0; m < count; ++m) {
      std::copy(matrices.begin() + m * n * n, matrices.begin() + (m + 1) * n * n, work.begin());
      lu_factor(n, work.data(), pivots.data());
      for (int s = 0; s < 4; ++s) {
        std::fill(b.begin(), b.end(), 1.0 + s);
        lu_solve(n, work.data(), pivots.data(), b.data());
        sink = sink + b[0];
      }
    }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return seconds / (static_cast<double>(reps) * count);
}

// Rows shorter than repeat_below_seconds (--repeat-below) are run three times and the run of median wall time is
// kept: on a shared 2-core machine a single short run can lose a quarter of its speed to a neighbour, which would
// decide the 1-vs-2-thread ratio alone. Every run computes the same steps; only the wall time varies.
double repeat_below_seconds = 20.0;

template <class RunOnce>
EnsembleResult median_run(const RunOnce& run_once, const std::string& label) {
  std::vector<EnsembleResult> runs;
  // Each run's time as it ends: a device session's time limit that cuts a row between its runs keeps them.
  const auto timed = [&] {
    runs.push_back(run_once());
    std::cerr << "  " << label << ": run " << runs.size() << " " << runs.back().total_wall_seconds << " s\n";
  };
  timed();
  if (runs.front().total_wall_seconds < repeat_below_seconds)
    for (int extra = 0; extra < 2; ++extra) timed();
  std::sort(runs.begin(), runs.end(), [](const EnsembleResult& a, const EnsembleResult& b) {
    return a.total_wall_seconds < b.total_wall_seconds;
  });
  return std::move(runs[runs.size() / 2]);
}


}  // namespace

int main(int argc, char** argv) {
  long long cpu_max_n = 10000, reference_max_n = 100, gpu_max_n = 1000000, variants_max_n = -1;
  // Largest N with a one-thread cpu row (the 2-core speed-up is judged at 1e4; a one-thread run of 1e5 stiff
  // pendulums takes minutes).
  long long one_thread_max_n = 10000, min_n = 1;
  std::string out_path, models, methods;
  std::ostringstream command;
  command << "build/bench/ensemble_throughput";
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (a + 1 >= argc) {
      std::cerr << "usage: ensemble_throughput [--cpu-max-n N] [--reference-max-n N] [--gpu-max-n N] "
                   "[--one-thread-max-n N] [--variants-max-n N] [--models STEM,STEM] [--methods M,M] [--min-n N] "
                   "[--repeat-below S] [--out F]\n";
      return 2;
    }
    const std::string value = argv[++a];
    command << " " << arg << " " << value;
    if (arg == "--cpu-max-n") cpu_max_n = std::atoll(value.c_str());
    else if (arg == "--reference-max-n") reference_max_n = std::atoll(value.c_str());
    else if (arg == "--gpu-max-n") gpu_max_n = std::atoll(value.c_str());
    else if (arg == "--one-thread-max-n") one_thread_max_n = std::atoll(value.c_str());
    else if (arg == "--variants-max-n") variants_max_n = std::atoll(value.c_str());
    else if (arg == "--models") models = value;
    else if (arg == "--methods") methods = value;
    else if (arg == "--min-n") min_n = std::atoll(value.c_str());
    else if (arg == "--repeat-below") repeat_below_seconds = std::atof(value.c_str());
    else if (arg == "--out") out_path = value;
    else {
      std::cerr << "ensemble_throughput: unknown option " << arg << "\n";
      return 2;
    }
  }
  std::string device;
  const bool gpu = cuda_device_available(&device);
  if (out_path.empty())
    out_path = bench::source_path(gpu ? "bench/results/ensemble_throughput_gpu.md" : "bench/results/ensemble_throughput_cpu.md");
  const int all = resolve_thread_count(0, 1LL << 30);
  const std::vector<Case> cases = {
      // To 1e6 on the cpu given --cpu-max-n: the quarter car's own kernel against every core (issue 19, item 4).
      {"models/quarter_car.json", "k_s", Method::dopri5, 1e-6, 0, 2.0, 1000000},
      {"models/quarter_car.json", "k_s", Method::rk4, 0, 1e-3, 2.0, 10000},
      // To 1e5 on the cpu (all threads; given --cpu-max-n 100000): the fused-GPU-vs-all-cores figure is taken there.
      {"models/stiff_double_pendulum.json", "k2", Method::rn4, 1e-6, 0, 2.0, 1000000},
      {"models/spatial_chain.json", "", Method::dopri5, 1e-6, 0, 1.0, 10000},
      {"models/loops/four_bar.json", "crank_angle", Method::rn4, 1e-6, 0, 2.0, 10000},
      {"models/loops/ladder/ladder_L16.json", "q1", Method::dopri5, 1e-6, 0, 2.0, 1000}};
  std::ostringstream md, versus;  // versus: each cuda row against the all-thread cpu row of the same N
  md << "# Ensemble throughput\n\nHost: " << bench::machine_description() << "  \n"
     << "Device: " << (gpu ? device : "none (" + device + ")") << "  \n"
     << "Command: `" << command.str() << "` (Release). One parameter spread over +-20% across instances (absolute\n"
     << "+-0.2 rad for an initial angle); output every 0.01 s; rtol = atol as listed. instance-steps/s = total\n"
     << "accepted steps / wall time; a row whose first run took under " << repeat_below_seconds
     << " s shows the median of three\nruns. LU share (Rosenbrock rows): factorizations x measured time of one "
     << "lu_factor\n"
     << "and four lu_solve of that size / summed per-instance time (an estimate; cpu rows only).\n\n"
     << "| model | method | ndof | N | backend | wall [s] | steps | instance-steps/s | speed-up vs 1 thread | LU share |\n"
     << "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  if (variants_max_n < 0) variants_max_n = gpu_max_n;
  for (const Case& c : cases) {
    const std::string stem = c.file.substr(c.file.rfind('/') + 1, c.file.size() - c.file.rfind('/') - 6);
    // A comma-separated list keeps only what it names; an empty one keeps everything.
    const auto kept = [](const std::string& list, const std::string& name) {
      return list.empty() || ("," + list + ",").find("," + name + ",") != std::string::npos;
    };
    if (!kept(models, stem) || !kept(methods, bench::method_name(c.method))) continue;
    const Model model = load_model_file(bench::source_path(c.file));
    const auto compiled = compile(model);
    const int ndof = iteration_matrix_order(*compiled);
    RunSpec spec = bench::adaptive(c.method, c.tol, c.tol);
    spec.h = c.h;
    const std::vector<double> times = output_grid(0.0, c.t_end, 0.01);
    const double lu_time = (c.method == Method::rn4 || c.method == Method::ros2w) ? lu_seconds(ndof) : 0.0;
    for (long long n = 1; n <= std::max(gpu ? gpu_max_n : 0LL, std::min(cpu_max_n, c.cpu_max_n)); n *= (n == 1 ? 100 : 10)) {
      if (n < min_n) continue;
      ParameterTable table;
      if (!c.parameter.empty()) {
        double base = 0;
        for (const Parameter& p : model.parameters)
          if (p.name == c.parameter) base = p.value;
        table = spread(c.parameter, base, n);
      }
      const Ensemble e = build_ensemble(model, *compiled, c.parameter.empty() ? static_cast<int>(n) : 0,
                                        c.parameter.empty() ? nullptr : &table, {});
      struct Run {
        std::string backend;
        int threads;
        CudaRunOptions cuda{};
        std::string label;
      };
      std::vector<Run> runs;
      if (n <= reference_max_n) runs.push_back({"reference", all});
      if (n <= std::min(cpu_max_n, c.cpu_max_n)) {
        if (n <= one_thread_max_n) runs.push_back({"cpu", 1});
        if (all > 1 && n > 1) runs.push_back({"cpu", all});
      }
      if (gpu && n <= gpu_max_n) {
        CudaRunOptions compacted, global, generic, without_model, warp, shared, staged;
        global.scratch = CudaRunOptions::Scratch::global;
        generic.kernel = CudaRunOptions::Kernel::generic;
        without_model.kernel = CudaRunOptions::Kernel::without_model;
        compacted.step_budget = 256;
        warp.strategy = GpuStrategy::warp;
        shared.strategy = GpuStrategy::shared_lu;
        staged.strategy = GpuStrategy::staged;
        const bool trees = compiled->constraints.m == 0;
        const bool model_kernel = plan_cuda_run(*compiled, c.method, {}).model_kernel != ModelKernel::none;
        runs.push_back({"cuda", 0, {},
                        model_kernel ? "cuda fused (kernel compiled on the model, kernels/model_kernels.cu)"
                        : trees      ? "cuda fused (kernel for the method on trees)"
                                     : "cuda fused"});
        // The model's own kernel against the method's and class's (issue 19, item 4).
        if (model_kernel) runs.push_back({"cuda", 0, without_model, "cuda fused, kernel for the method on trees"});
        // The generic interpreter on every N: the specialized kernel's gain at scale (issue 19, item 4).
        if (trees) runs.push_back({"cuda", 0, generic, "cuda fused, generic kernel"});
        if (n <= variants_max_n) {
          runs.push_back({"cuda", 0, global, "cuda fused, global scratch"});
          runs.push_back({"cuda", 0, compacted, "cuda fused, budget 256 + compaction"});
          if (c.method == Method::rn4 || c.method == Method::ros2w) {
            runs.push_back({"cuda", 0, warp, "cuda warp"});
            runs.push_back({"cuda", 0, shared, "cuda shared LU"});
          }
          runs.push_back({"cuda", 0, staged, "cuda staged"});
        }
      }
      double one_thread = 0.0, all_threads = 0.0;
      for (const Run& run : runs) {
        Backend backend = choose_backend(run.backend, run.threads);
        backend.cuda = run.cuda;
        const std::string run_label = model.name + " N=" + std::to_string(n) + " " +
                                      (run.backend == "cuda" ? run.label
                                                             : run.backend + ", " + std::to_string(run.threads) + " thr");
        const EnsembleResult r = median_run(
            [&] { return run_on_backend(backend, model, *compiled, e, spec, times, run.threads); }, run_label);
        long long steps = 0, factorizations = 0, failed = 0;
        double instance_seconds = 0.0;
        for (size_t i = 0; i < r.stats.size(); ++i) {
          steps += r.stats[i].steps;
          factorizations += r.stats[i].lu_factorizations;
          instance_seconds += r.wall_seconds[i];
          failed += r.status[i] != InstanceStatus::ok;
        }
        const std::string label = run.backend == "cuda" ? run.label : run.backend + ", " + std::to_string(r.threads) + " thr";
        if (run.backend == "cpu" && run.threads == 1) one_thread = r.total_wall_seconds;
        if (run.backend == "cpu" && run.threads == all) all_threads = r.total_wall_seconds;
        if (run.backend == "cuda" && all_threads > 0.0)
          versus << "* " << model.name << " " << bench::method_name(c.method) << ", N = " << n << ": " << label
                 << " " << std::setprecision(3) << all_threads / r.total_wall_seconds << "x the cpu backend on "
                 << all << " threads (" << all_threads << " s vs " << r.total_wall_seconds << " s)\n";
        md << "| " << model.name << " | " << bench::method_name(c.method) << " | " << ndof << " | " << n << " | " << label
           << " | " << std::setprecision(4) << r.total_wall_seconds << " | " << steps << " | "
           << static_cast<double>(steps) / r.total_wall_seconds << " | ";
        if (run.backend != "reference" && one_thread > 0.0)
          md << one_thread / r.total_wall_seconds;
        else
          md << "-";
        md << " | ";
        if (lu_time > 0.0 && run.backend == "cpu" && instance_seconds > 0.0)
          md << std::setprecision(2) << 100.0 * lu_time * static_cast<double>(factorizations) / instance_seconds << "%";
        else
          md << "-";
        md << (failed ? " (" + std::to_string(failed) + " failed)" : "") << " |\n";
        std::cerr << model.name << " " << bench::method_name(c.method) << " N=" << n << " " << label << " "
                  << r.total_wall_seconds << " s\n";
        std::ofstream(out_path) << md.str();  // row by row: a run cut off at a device's time limit keeps its rows
      }
    }
  }
  if (!versus.str().empty()) md << "\n## cuda against the cpu backend on all threads, same N\n\n" << versus.str();
  std::ofstream(out_path) << md.str();
  std::cout << md.str();
  return 0;
}
