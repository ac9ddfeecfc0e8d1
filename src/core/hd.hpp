#pragma once
// MYRIAD_HD marks the per-instance mathematics that the CPU fast path and the CUDA kernels share: it is
// __host__ __device__ under nvcc and nothing under a host compiler, so one definition serves both.
// MYRIAD_HD_ALWAYS_INLINE is MYRIAD_HD_INLINE that the host compiler must honour too: for a loop body shared
// by two hot loops, which GCC would otherwise keep as a call (place_body: CRBA 340 against 365 ns on a
// 7-body chain, bench/tree_dynamics_per_call). MYRIAD_HD_HOST_OUTLINE is MYRIAD_HD_INLINE on the device and a
// real call on the host: for a mid-sized routine whose inlining into a hot loop made GCC's code slower
// (inertia_to_a in the articulated-body backward pass: 10%). MYRIAD_HD_OUTLINE keeps a large routine a real
// call on the device, so that a kernel that reaches it from many places (every integrator stage, plain and
// Dual) compiles it once instead of inlining copies of it.
#if defined(__CUDACC__)
#define MYRIAD_HD __host__ __device__
#define MYRIAD_HD_INLINE __host__ __device__ __forceinline__
#define MYRIAD_HD_ALWAYS_INLINE __host__ __device__ __forceinline__
#define MYRIAD_HD_HOST_OUTLINE __host__ __device__ __forceinline__
#define MYRIAD_HD_OUTLINE __host__ __device__ __noinline__
#elif defined(__GNUC__)
#define MYRIAD_HD
#define MYRIAD_HD_INLINE inline
#define MYRIAD_HD_ALWAYS_INLINE inline __attribute__((always_inline))
#define MYRIAD_HD_HOST_OUTLINE inline __attribute__((noinline))
#define MYRIAD_HD_OUTLINE
#else
#define MYRIAD_HD
#define MYRIAD_HD_INLINE inline
#define MYRIAD_HD_ALWAYS_INLINE inline
#define MYRIAD_HD_HOST_OUTLINE inline
#define MYRIAD_HD_OUTLINE
#endif

// MYRIAD_UNROLL before a loop over the model's bodies or force elements: in a kernel compiled on one model
// (kernels/model_kernels.cu), whose counts are then constants, the loop is unrolled whole, so each pass reads its
// joint's or element's fields as literals and the joint-type branches of the other passes fold away; elsewhere
// the count is not a constant and the pragma leaves the loop as it is (nvcc unrolls only a constant trip count
// when none is given). In both model kernels: no spills at 255 registers (before: up to 128 B a function), and
// ptxas' time for the file 34 -> 22 s (bench/results/kernel_call_spills.md).
#if defined(__CUDA_ARCH__)
#define MYRIAD_UNROLL _Pragma("unroll")
#else
#define MYRIAD_UNROLL
#endif
