#pragma once
// Which integrators and which model class one compiled copy of advance_instance's step loops holds. The generic
// copy (AnyStepLoops) takes every method on trees and loop models alike and chooses at run time; a copy for one
// method on tree models (TreeStepLoops<M>) leaves the other integrators, the loop solver and, for RK4 and DOPRI5,
// the second-order system and its Jacobians out of the code. Results are the same either way: the same functions
// run; only the branches a run never takes are not compiled.
//
// Why: on the GPU one kernel is one register allocation over all the code it can reach. The generic kernel sits at
// the 255-register cap with an 8.5 KB stack per thread (bench/results/kernel_resources.md), so a quarter car on
// DOPRI5 pays for the Rosenbrock Jacobians and the loop solver it never calls (issue 19, item 4).
#include "core/hd.hpp"
#include "ensemble/run_spec.hpp"

namespace myriad {

MYRIAD_HD_INLINE constexpr unsigned method_bit(Method method) { return 1u << static_cast<unsigned>(method); }

template <unsigned MethodBits, bool Loops>
struct StepLoops {
  static constexpr bool takes(Method method) { return (MethodBits & method_bit(method)) != 0u; }
  static constexpr bool rosenbrock = takes(Method::rn4) || takes(Method::ros2w);
  // The methods that integrate the second-order form (dynamics/tree_second_order.hpp) and need its Jacobians.
  static constexpr bool second_order = rosenbrock || takes(Method::implicit);
  static constexpr bool loops = Loops;  // models with closed loops (CompiledModel::constraints.m > 0)
};

// The implicit methods are in the generic copy, but compiled for the device only where MYRIAD_DEVICE_IMPLICIT is
// defined (ensemble/simulate_instance.hpp): no kernel runs them yet, and the cuda backends refuse them.
using AnyStepLoops = StepLoops<method_bit(Method::rk4) | method_bit(Method::dopri5) | method_bit(Method::rn4) |
                                   method_bit(Method::ros2w) | method_bit(Method::implicit),
                               true>;

template <Method M>
using TreeStepLoops = StepLoops<method_bit(M), false>;

}  // namespace myriad
