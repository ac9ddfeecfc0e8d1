// Which GPU strategy is faster for which number of degrees of freedom: RN4 on a stiff planar chain of n links
// (revolute joints about z, every joint with a rotational spring-damper, every other one stiff as in the stiff
// double pendulum of seed 000), n = 2 .. 64, through the cuda backend's fused strategy with a thread per instance
// (one launch with the scratch thread-local where it fits and in global memory, and with a step budget and
// compaction between launches), with a warp per instance (the LU and solves shared by 32 lanes) and thread per
// instance with the warp doing each lane's LU in turn (shared LU), and its staged strategy (cuBLAS batched LU,
// CUDA graph), with the cpu backend on all threads for scale. Without a device only the cpu column is measured.
// Usage: gpu_strategy_crossover [--instances N] [--min-n N] [--max-n N] [--out FILE.md]
// (--min-n: start the ladder there, for a device session whose earlier run recorded the smaller chains)
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <utility>
#include <vector>

#include "bench_support.hpp"
#include "backends/cuda_runner.hpp"
#include "ensemble/device_slot.hpp"
#include "ensemble/instance_blocks.hpp"

using namespace myriad;

namespace {

// The n-link chain as model text: 1 m links of 1 kg (slender rods), joint i at the end of link i - 1.
std::string chain_model(int n) {
  std::ostringstream m;
  m << "{\"format\": \"myriad-model\", \"version\": 1, \"name\": \"stiff_chain_" << n << "\", \"gravity\": [0, -9.81, 0],"
    << "\"parameters\": {\"k_stiff\": {\"value\": 3e5}}, \"bodies\": [";
  for (int i = 0; i < n; ++i)
    m << (i ? "," : "") << "{\"name\": \"link" << i << "\", \"mass\": 1, \"center_of_mass\": [0.5, 0, 0],"
      << "\"inertia\": {\"ixx\": 0.001, \"iyy\": 0.0833, \"izz\": 0.0833}}";
  m << "], \"joints\": [";
  for (int i = 0; i < n; ++i)
    m << (i ? "," : "") << "{\"name\": \"joint" << i << "\", \"type\": \"revolute\", \"parent\": \""
      << (i ? "link" + std::to_string(i - 1) : std::string("ground")) << "\", \"child\": \"link" << i << "\","
      << "\"parent_frame\": {\"origin\": [" << (i ? 1 : 0) << ", 0, 0]}, \"child_frame\": {\"origin\": [0, 0, 0]},"
      << "\"axis\": [0, 0, 1], \"position\": [" << (i ? 0.1 : -1.2) << "], \"velocity\": [0]}";
  m << "], \"forces\": [";
  for (int i = 0; i < n; ++i)
    m << (i ? "," : "") << "{\"name\": \"rsda" << i << "\", \"type\": \"rsda\", \"joint\": \"joint" << i << "\","
      << "\"stiffness\": " << (i % 2 ? "\"$k_stiff\"" : "400") << ", \"damping\": " << (i % 2 ? "5e4" : "15")
      << ", \"zero_angle\": 0}";
  m << "], \"outputs\": [{\"name\": \"theta0\", \"type\": \"joint_coordinate\", \"joint\": \"joint0\"}],"
    << "\"simulation\": {\"t_end\": 1, \"dt_out\": 0.1, \"integrator\": \"rn4\", \"rtol\": 1e-6, \"atol\": 1e-8}}";
  return m.str();
}

}  // namespace

int main(int argc, char** argv) {
  int instances = 100000, min_n = 2, max_n = 64;
  std::string out_path = bench::source_path("bench/results/gpu_strategy_crossover.md");
  std::ostringstream command;
  command << "build/bench/gpu_strategy_crossover";
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string arg = argv[a], value = argv[a + 1];
    command << " " << arg << " " << value;
    if (arg == "--instances") instances = std::atoi(value.c_str());
    else if (arg == "--min-n") min_n = std::atoi(value.c_str());
    else if (arg == "--max-n") max_n = std::atoi(value.c_str());
    else if (arg == "--out") out_path = value;
    else {
      std::cerr << "gpu_strategy_crossover: unknown option " << arg << "\n";
      return 2;
    }
  }
  std::string device;
  const bool gpu = cuda_device_available(&device);
  const int threads = resolve_thread_count(0, 1LL << 30);
  std::ostringstream md;
  md << "# GPU strategy crossover (RN4, stiff planar chain of n links, t in [0, 0.2], rtol 1e-6, atol 1e-8)\n\n"
     << "Host: " << bench::machine_description() << "  \n"
     << "Device: " << (gpu ? device : "none (" + device + "): GPU columns owed to a run on a device") << "  \n"
     << "Command: `" << command.str() << "` (Release)\n\n"
     << "Wall seconds for the whole ensemble (the cpu column: a sample of N / 100 instances, at least four per\n"
     << "thread, scaled to N). Stiffness of every other joint spread +-20% over the instances.\n\n"
     << "Slot: an instance's scratch and initial state on the device; the fused kernel keeps it in the thread's local\n"
     << "memory (interleaved across the warp) when it fits, else in global memory (the global-scratch column forces\n"
     << "that).\n\n"
     << "| n (ndof) | N | slot [KB] | cpu " << threads << " thr | cuda fused | cuda fused, global scratch "
     << "| cuda fused, budget 256 + compaction | cuda warp | cuda shared LU | cuda staged | fastest GPU strategy |\n"
     << "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (int n : {2, 4, 8, 16, 32, 48, 64}) {
    if (n < min_n) continue;
    if (n > max_n) break;
    const Model model = load_model_text(chain_model(n), "stiff_chain_" + std::to_string(n) + ".json");
    const auto compiled = compile(model);
    // Fewer instances for the larger chains (the work per instance grows like n^3): N x 64 / n^2 above n = 8.
    const int rows = n <= 8 ? instances
                            : std::min(instances, std::max(1000, static_cast<int>(instances * 64LL / (n * n))));
    ParameterTable table;
    table.source = "generated";
    table.names = {"k_stiff"};
    for (int i = 0; i < rows; ++i) table.rows.push_back({3e5 * (0.8 + 0.4 * (i % 1000) / 999.0)});
    const Ensemble e = build_ensemble(model, *compiled, 0, &table, {});
    RunSpec spec = bench::adaptive(Method::rn4, 1e-6, 1e-8);
    const std::vector<double> times = output_grid(0.0, 0.2, 0.02);
    // The cpu column on a sample of N / 100 instances, at least four per thread, evenly spaced over the stiffness
    // spread: the whole of 1000 chains of 64 links would take minutes of a device session's few.
    const int sample = std::min(rows, std::max(rows / 100, 4 * threads));
    ParameterTable sample_table = table;
    sample_table.rows.clear();
    for (int s = 0; s < sample; ++s)
      sample_table.rows.push_back(table.rows[static_cast<size_t>(static_cast<long long>(s) * rows / sample)]);
    const Ensemble sampled = build_ensemble(model, *compiled, 0, &sample_table, {});
    const EnsembleResult cpu = run_ensemble_cpu(*compiled, sampled, spec, times, threads);
    const double cpu_seconds = cpu.total_wall_seconds * static_cast<double>(rows) / sample;
    md << "| " << n << " | " << rows << " | " << std::setprecision(3)
       << static_cast<double>(device_slot_bytes(*compiled, spec.method)) / 1024.0
       << (plan_cuda_run(*compiled, spec.method, {}).thread_local_scratch ? " (thread-local)" : " (global)")
       << " | " << std::setprecision(4) << cpu_seconds << " | ";
    std::cerr << "n = " << n << ": cpu " << cpu_seconds << " s\n";
    if (gpu) {
      CudaRunOptions fused, global, compacted, warp, shared, staged;
      global.scratch = CudaRunOptions::Scratch::global;
      compacted.step_budget = 256;
      warp.strategy = GpuStrategy::warp;
      shared.strategy = GpuStrategy::shared_lu;
      staged.strategy = GpuStrategy::staged;
      const std::vector<std::pair<const char*, CudaRunOptions>> columns = {
          {"fused", fused},       {"global scratch", global}, {"compacted", compacted},
          {"warp", warp},         {"shared LU", shared},      {"staged", staged}};
      std::vector<double> t;
      const std::string row_start = md.str();
      for (const auto& [label, options] : columns) {
        t.push_back(run_ensemble_cuda(*compiled, e, spec, times, options).total_wall_seconds);
        // Each column as it ends, in the log and in the file (the columns still to run as "..."): a device
        // session's time limit that cuts a row keeps what it measured (n = 8 outran 95 s and 148 s twice).
        std::cerr << "  n = " << n << " " << label << ": " << t.back() << " s\n";
        std::ostringstream partial;
        partial << std::setprecision(4);
        for (size_t c = 0; c < columns.size(); ++c) {
          if (c < t.size())
            partial << t[c];
          else
            partial << "...";
          partial << " | ";
        }
        std::ofstream(out_path) << row_start << partial.str() << "(row incomplete) |\n";
      }
      const double t_thread = std::min({t[0], t[1], t[2]});
      const double fastest = std::min({t_thread, t[3], t[4], t[5]});
      for (double seconds : t) md << seconds << " | ";
      md << (fastest == t_thread ? "fused (thread)"
             : fastest == t[3]   ? "fused (warp)"
             : fastest == t[4]   ? "fused (shared LU)"
                                 : "staged")
         << " |\n";
    } else {
      md << "- | - | - | - | - | - | - |\n";
    }
    std::ofstream(out_path) << md.str();  // row by row, so that a run cut off at a device's time limit keeps its rows
  }
  std::ofstream(out_path) << md.str();
  std::cout << md.str();
  return 0;
}
