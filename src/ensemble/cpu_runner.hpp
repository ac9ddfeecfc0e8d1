#pragma once
// Runs an ensemble on the CPU with the fast-path (host+device) per-instance code, instances split over threads.
#include <functional>
#include <vector>

#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_progress.hpp"
#include "ensemble/run_spec.hpp"

namespace myriad {

// threads <= 0: all hardware threads. Each instance runs independently: a failing one records its status and the
// others go on. Results do not depend on the thread count. Instances go to threads in blocks from one shared
// counter (ensemble/instance_blocks.hpp). `progress` (optional) counts the instances as they finish; once its
// cancel flag is set no further block is handed out (the instances not run keep make_ensemble_result's NaN values
// and zero counters: the caller discards the result). The result's
// `threads` is the number that ran: fewer than asked when the system refuses to create more (worker_threads.hpp).
// keep_series false: no time series is kept (result.values empty), only the named KPIs, computed on line.
// lanes: instances each thread integrates in lockstep where the model and method allow (ensemble/lane_runner.hpp;
// 1, 2, 4 or 8); the results are the same whatever it is.
constexpr int kDefaultCpuLanes = 4;
EnsembleResult run_ensemble_cpu(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                const std::vector<double>& output_times, int threads,
                                RunProgress* progress = nullptr, bool keep_series = true,
                                int lanes = kDefaultCpuLanes);

// How one instance is run to the end: its constants k, initial q and v, its scratch (instance_scratch_layout
// bytes, not initialized), its outputs, work counters and KPI state (null when the model names no KPIs); returns
// its status.
using InstanceRun = std::function<InstanceStatus(const double* k, const double* q, const double* v, double* scratch,
                                                 double* outputs, IntegratorStats& stats, double* kpi_state)>;

// run_ensemble_cpu with another way of running an instance (the warp strategy's twin): the same hand-out of
// instances to threads, scratch per thread, per-instance wall times.
EnsembleResult run_ensemble_instances(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                      const std::vector<double>& output_times, int threads, const InstanceRun& run,
                                      RunProgress* progress = nullptr, bool keep_series = true);

class InstanceBlocks;

// The frame the cpu runners share: the result allocated (make_ensemble_result and the KPI state), the thread count
// resolved, `worker` run on each thread with the one counter that hands out blocks of instances, then the wall
// time and the KPIs finished.
using EnsembleWorker = std::function<void(InstanceBlocks& blocks, EnsembleResult& result)>;
EnsembleResult run_ensemble_on_threads(const CompiledModel& model, int n_instances,
                                       const std::vector<double>& output_times, int threads, bool keep_series,
                                       const EnsembleWorker& worker);

}  // namespace myriad
