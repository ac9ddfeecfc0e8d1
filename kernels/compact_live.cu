// compact_live (simulate_kernel.cuh): the running instances' indices in increasing order, by a count per block, an
// exclusive scan of the counts on the host (a few thousand at most: 1e6 instances in blocks of 256), and a scatter
// in which each thread finds its place from its warp's ballot and the counts of the warps before it. Written here
// rather than with Thrust's copy_if, whose instantiation alone took 8 of the 23 s the kernel library's CI build
// (no device optimization) spent in nvcc (issue 19: the CUDA part of CI's build is to shrink).
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "simulate_kernel.cuh"

namespace myriad::cuda {

namespace {

constexpr int kCompactThreads = 256;  // a multiple of 32: every warp is whole
constexpr int kWarpSize = 32;

__device__ inline bool is_running(const int* status, long long count, long long i) {
  return i < count && status[i] == kInstanceRunning;
}

__global__ void count_running_kernel(const int* status, long long count, int* block_counts) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const int running = __syncthreads_count(is_running(status, count, i));
  if (threadIdx.x == 0) block_counts[blockIdx.x] = running;
}

// block_offsets: the exclusive scan of count_running_kernel's counts.
__global__ void scatter_running_kernel(const int* status, long long count, const int* block_offsets, int* live) {
  __shared__ int warp_counts[kCompactThreads / kWarpSize];
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const bool running = is_running(status, count, i);
  const unsigned ballot = __ballot_sync(0xffffffffu, running);
  const int lane = static_cast<int>(threadIdx.x) % kWarpSize, warp = static_cast<int>(threadIdx.x) / kWarpSize;
  if (lane == 0) warp_counts[warp] = __popc(ballot);
  __syncthreads();
  if (!running) return;
  int place = block_offsets[blockIdx.x] + __popc(ballot & ((1u << lane) - 1u));
  for (int w = 0; w < warp; ++w) place += warp_counts[w];
  live[place] = static_cast<int>(i);
}

void check_compaction(cudaError_t error, const char* what) {
  if (error != cudaSuccess)
    throw std::runtime_error(std::string("compaction of the live instances (") + what + "): " +
                             cudaGetErrorString(error));
}

}  // namespace

long long compact_live(const int* status, long long count, int* live, cudaStream_t stream) {
  if (count <= 0) return 0;
  const long long blocks = (count + kCompactThreads - 1) / kCompactThreads;
  int* block_counts = nullptr;
  check_compaction(cudaMallocAsync(&block_counts, sizeof(int) * static_cast<size_t>(blocks), stream), "cudaMallocAsync");
  count_running_kernel<<<static_cast<unsigned>(blocks), kCompactThreads, 0, stream>>>(status, count, block_counts);
  check_compaction(cudaGetLastError(), "count kernel");
  std::vector<int> offsets(static_cast<size_t>(blocks));
  check_compaction(cudaMemcpyAsync(offsets.data(), block_counts, sizeof(int) * offsets.size(), cudaMemcpyDeviceToHost,
                                   stream),
                   "counts");
  check_compaction(cudaStreamSynchronize(stream), "count kernel");
  long long total = 0;
  for (int& offset : offsets) {
    const int running = offset;
    offset = static_cast<int>(total);
    total += running;
  }
  check_compaction(cudaMemcpyAsync(block_counts, offsets.data(), sizeof(int) * offsets.size(), cudaMemcpyHostToDevice,
                                   stream),
                   "offsets");
  scatter_running_kernel<<<static_cast<unsigned>(blocks), kCompactThreads, 0, stream>>>(status, count, block_counts,
                                                                                        live);
  check_compaction(cudaGetLastError(), "scatter kernel");
  check_compaction(cudaFreeAsync(block_counts, stream), "cudaFreeAsync");
  check_compaction(cudaStreamSynchronize(stream), "scatter kernel");
  return total;
}

}  // namespace myriad::cuda
