#pragma once
// MYRIAD_HD marks the per-instance mathematics that the CPU fast path and the CUDA kernels share: it is
// __host__ __device__ under nvcc and nothing under a host compiler, so one definition serves both.
#if defined(__CUDACC__)
#define MYRIAD_HD __host__ __device__
#define MYRIAD_HD_INLINE __host__ __device__ __forceinline__
#else
#define MYRIAD_HD
#define MYRIAD_HD_INLINE inline
#endif
