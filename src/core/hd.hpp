#pragma once
// MYRIAD_HD marks the per-instance mathematics that the CPU fast path and the CUDA kernels share: it is
// __host__ __device__ under nvcc and nothing under a host compiler, so one definition serves both.
// MYRIAD_HD_OUTLINE keeps a large routine a real call on the device, so that a kernel that reaches it from many
// places (every integrator stage, plain and Dual) compiles it once instead of inlining copies of it.
#if defined(__CUDACC__)
#define MYRIAD_HD __host__ __device__
#define MYRIAD_HD_INLINE __host__ __device__ __forceinline__
#define MYRIAD_HD_OUTLINE __host__ __device__ __noinline__
#else
#define MYRIAD_HD
#define MYRIAD_HD_INLINE inline
#define MYRIAD_HD_OUTLINE
#endif
