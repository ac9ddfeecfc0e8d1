#pragma once
// The warp strategy's instance loop: a group of lanes (a CUDA warp) shares one instance. Its leader runs the
// integration (dynamics, Jacobians, error control, outputs: advance_instance, the same code as every other
// path) with the linear algebra left to the caller (IntegrationProgress::external_lu); at each factorization of
// the iteration matrix and each stage solve the whole group takes part, one row of the matrix per lane and a
// group-wide reduction for the pivot search (linalg/lane_lu.hpp), then the leader goes on. The factorization is
// the O(n^3) part of a Rosenbrock step: spread over 32 lanes it stops dominating once n is in the tens, where a
// thread per instance runs out of registers and bandwidth; below that the idle lanes make the thread-per-instance
// kernel the faster one (bench/gpu_strategy_crossover measures where).
//
// A Group provides: bool leader(); int broadcast(int leader_value) (the leader's value, on every lane);
// void sync() (every lane's memory writes visible to the group); bool factor(int n, double* A, double* pivots)
// and void solve(int n, const double* LU, const double* pivots, double* b) (cooperative, bit for bit lu_factor
// and lu_solve). The CUDA warp is one (kernels/warp_kernel.cu); ensemble/warp_runner.cpp is the CPU twin, a
// single thread standing in for the group with the lane-by-lane emulation of the same LU.
#include "ensemble/simulate_instance.hpp"

namespace myriad {

// Advances one instance (begin_instance_external_lu before its first call) by at most `budget` step attempts
// (< 0: to the end), serving its factorizations and solves with the group. Every lane of the group calls this
// with the same arguments; only the leader's stats and outputs are written. Returns true (on every lane) once
// the instance has finished. The results equal advance_instance's bit for bit.
template <class Group, class K>
MYRIAD_HD bool cooperative_advance_instance(Group& group, const CompiledModel& model, const K& k,
                                            const double* q_init, const double* v_init, const RunSpec& spec,
                                            const double* output_times, int n_output_times, void* scratch,
                                            double* outputs, IntegratorStats& stats, long long budget,
                                            double* kpi_state = nullptr) {
  using Request = IntegrationProgress::LinearRequest;
  const int n = iteration_matrix_order(model);
  IntegrationProgress& integration = instance_progress(scratch).integration;
  for (;;) {
    int request = static_cast<int>(Request::none);
    int finished = 0;
    if (group.leader()) {
      finished = advance_instance(model, k, q_init, v_init, spec, output_times, n_output_times, scratch, outputs,
                                  stats, budget, kpi_state)
                     ? 1
                     : 0;
      budget = integration.budget;  // what is left of this call's budget after the attempts begun so far
      if (!finished) request = static_cast<int>(integration.request);
    }
    request = group.broadcast(request);
    finished = group.broadcast(finished);
    if (request == static_cast<int>(Request::none)) return finished != 0;
    group.sync();  // the leader's matrix or right-hand side, and the pointers to them, visible to every lane
    if (request == static_cast<int>(Request::factor)) {
      const bool factored = group.factor(n, integration.factor_matrix, integration.factor_pivots);
      group.sync();
      if (group.leader()) integration.lu_info = factored ? 0 : 1;
    } else {
      group.solve(n, integration.factor_matrix, integration.factor_pivots, integration.solve_vector);
    }
    group.sync();
  }
}

}  // namespace myriad
