#pragma once
// An instance's slot: its scratch (advance_instance's progress and workspaces) followed by its initial q and
// v, gathered there from the ensemble's SoA tables on its first launch. The slot lies in a chunk's scratch in
// global memory (one instance's slot after another; kept across launches), or in the thread's own local
// memory for an instance that runs to its end in one launch (simulate_kernel.cu).
#include "ensemble/strided_constants.hpp"
#include "model/compiled_model.hpp"

namespace myriad::cuda {

struct InstanceSlot {
  unsigned char* scratch;
  double* q;  // nq
  double* v;  // nv
};

// Slot `local` of `slot_bytes` in `chunk_scratch`; with `gather` its q and v are filled from the SoA tables.
__device__ inline InstanceSlot instance_slot(const CompiledModel& model, unsigned char* chunk_scratch,
                                             unsigned long long slot_bytes, long long local, long long instance,
                                             long long total, const double* initial_q, const double* initial_v,
                                             bool gather) {
  unsigned char* scratch = chunk_scratch + local * slot_bytes;
  double* q = reinterpret_cast<double*>(scratch + slot_bytes) - (model.nq + model.nv);
  double* v = q + model.nq;
  if (gather) {
    for (int j = 0; j < model.nq; ++j) q[j] = initial_q[j * total + instance];
    for (int j = 0; j < model.nv; ++j) v[j] = initial_v[j * total + instance];
  }
  return {scratch, q, v};
}

}  // namespace myriad::cuda
