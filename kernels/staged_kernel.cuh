#pragma once
// Kernel of the staged strategy (ensemble/staged_cadence.hpp): one launch advances every instance of a chunk to
// its next linear-algebra request (RK4, DOPRI5: by one step attempt) and points the next batched cuBLAS operation
// at its matrix and right-hand side (or at its own identity dummy when it does not take part), so that
// getrfBatched / getrsBatched run over a fixed batch and the whole cycle can be captured once in a CUDA graph.
// cuBLAS keeps the pivots of the whole batch in one array, which every factorization overwrites (dummies
// included); an instance's pivots therefore live in its own workspace (IntegrationProgress::factor_pivots): taken
// from cuBLAS's array after its factorization, put back into it before each of its solves.
#include <cuda_runtime.h>

#include "ensemble/run_spec.hpp"
#include "ensemble/staged_cadence.hpp"
#include "model/compiled_model.hpp"

namespace myriad::cuda {

struct StagedParams {
  const CompiledModel* model;  // device copy
  const double* constants;     // SoA [c * total + i]
  const double* initial_q;     // SoA [j * total + i]
  const double* initial_v;     // SoA [j * total + i]
  const double* output_times;
  int n_output_times;
  long long total, first, count;  // the ensemble, this chunk
  RunSpec spec;
  unsigned char* scratch;  // count slots of scratch_bytes
  unsigned long long scratch_bytes;
  double* outputs;         // count * n_output_times * n_outputs
  int* status;             // count: InstanceStatus once finished, kInstanceRunning (simulate_kernel.cuh) before
  IntegratorStats* stats;  // count, zeroed before the first launch
  bool first_launch;       // gathers the initial states and begins the instances
  LinearRequest served;    // the batched operation done just before this launch
  LinearRequest next;      // the one after it
  const int* lu_info;      // count: getrfBatched's info
  int* pivots;             // count * n: getrfBatched's / getrsBatched's pivots (1-based)
  int n;                   // the order of the iteration matrix (degrees of freedom)
  double** matrices;       // count: the batched operations' A pointers, written here
  double** vectors;        // count: getrsBatched's B pointers, written here
  double* dummy_matrices;  // count * n * n identities
  double* dummy_vectors;   // count * n
};

cudaError_t launch_staged_advance(const StagedParams& params, int threads_per_block, cudaStream_t stream);

// Fills the dummies: identity matrices and zero vectors.
cudaError_t launch_staged_dummies(double* dummy_matrices, double* dummy_vectors, int n, long long count,
                                  cudaStream_t stream);

}  // namespace myriad::cuda
