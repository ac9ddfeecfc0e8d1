#pragma once
// The cpu backend with several instances per thread in lockstep (issue 19 item 3): each thread keeps W instances
// in the lanes of core/lanes.hpp and takes their integration steps together, so one core's vector units and its
// per-body loop overheads serve W instances at a time. Everything but the step itself (step control, outputs,
// input breakpoints, chart rebases, failures) is each instance's own scalar code (IntegrationProgress's
// external_step), so the results are run_ensemble_cpu's one-at-a-time results, bit for bit. RN4 hands over its
// attempts' stages and its linearizations instead of a step (IntegrationProgress::Handover); the runner takes each
// kind together (dynamics/lane_tree_second_order.hpp).
#include <memory>
#include <vector>

#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_progress.hpp"
#include "ensemble/run_spec.hpp"

namespace myriad {

// The lane counts there are (1: one instance at a time, the scalar path).
bool valid_lane_count(int lanes);

// The vector instructions this build's lane runner was compiled for ("AVX2" or "SSE2"; CMake MYRIAD_LANES_AVX2).
const char* lane_instruction_set();

// Whether the lane runner takes this run: DOPRI5, RK4 or RN4 on a tree model whose force elements all have a lane
// form (not bushings or tires). Others run one instance at a time.
bool lanes_supported(const CompiledModel& model, const RunSpec& spec);

// run_ensemble_cpu's contract, with `lanes` (2, 4 or 8) instances in flight on each thread; requires
// lanes_supported. An instance's wall time is from its start to its end, with its lane mates' work inside.
EnsembleResult run_ensemble_lanes(const CompiledModel& model, const Ensemble& ensemble, const RunSpec& spec,
                                  const std::vector<double>& output_times, int threads, int lanes,
                                  RunProgress* progress = nullptr, bool keep_series = true);

// A worker's lanes for step_instances_in_lanes (its lane group, scratch and per-lane settings), made once and kept
// between calls: an env step should not allocate them again. For a model and method that lanes_supported takes.
struct LaneStepWorkspace;
struct LaneStepWorkspaceDeleter {
  void operator()(LaneStepWorkspace* workspace) const;
};
using LaneStepWorkspacePtr = std::unique_ptr<LaneStepWorkspace, LaneStepWorkspaceDeleter>;
// `lanes`: 2, 4 or 8. The model must outlive the workspace.
LaneStepWorkspacePtr make_lane_step_workspace(const CompiledModel& model, const RunSpec& spec, int lanes);

// api::Simulator::advance on the cpu backend for instances [begin, end) with the workspace's lanes in flight: each
// instance i whose status[i] is 0 goes from (t[i], q_i, v_i) to t[i] + dt with its constants (row i of an
// N x n_constants table) as step_instance takes it, and gets its status; the same bits as step_instance. t (N),
// q (N x nq), v (N x nv), status (N).
void step_instances_in_lanes(LaneStepWorkspace& workspace, double dt, long long begin, long long end,
                             const double* constants, int n_constants, double* t, double* q, double* v,
                             int* status);

}  // namespace myriad
