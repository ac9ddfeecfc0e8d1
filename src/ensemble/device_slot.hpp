#pragma once
// An instance's slot on the GPU: its scratch (instance_scratch_layout) followed by its initial q and v. The
// cuda backend lays slots one after another in global memory, or, for an instance that runs to its end in one
// launch, holds the slot in the thread's local memory when it fits kThreadLocalSlotBytes
// (kernels/simulate_kernel.cuh says why). Host code plans with these; the kernels size their arrays with
// them.
#include <cstddef>

#include "ensemble/run_spec.hpp"
#include "ensemble/simulate_instance.hpp"
#include "model/compiled_model.hpp"

namespace myriad {

// The local-memory slot is part of the kernel's stack frame, which the driver reserves for every thread the
// device can hold (on an H100: (24 KB + the frame of the code it calls) x 2048 threads x 132 multiprocessors,
// about 9 GB), hence one modest size that the small models of large ensembles fit (stiff double pendulum,
// RN4: 12.1 KB; quarter car, DOPRI5: 2.9 KB; a slot does not grow with the number of output times).
constexpr std::size_t kThreadLocalSlotBytes = 24 * 1024;

// Bytes of one instance's slot (a multiple of 16). O(n).
inline std::size_t device_slot_bytes(const CompiledModel& model, Method method) {
  const std::size_t bytes = instance_scratch_layout(model, method).bytes +
                            sizeof(double) * static_cast<std::size_t>(model.nq + model.nv);
  return (bytes + 15) / 16 * 16;
}

}  // namespace myriad
