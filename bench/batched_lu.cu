// Batched LU factor + solve of small dense matrices on the GPU: the project's own lu_factor/lu_solve called
// from a kernel with one thread per matrix (what the fused integrator kernel does with its iteration matrix),
// the same algorithm on an interleaved layout, the lane LU with a warp per matrix (what the warp strategy does:
// kernels/warp_lu.cuh), and cuBLAS getrfBatched + getrsBatched; a single-thread CPU column for scale. Usage: batched_lu [--min-n N] [--max-n N] [--reps R]   (defaults 2, 64 and 5)
//
// Matrices are A = D + 0.3 R (R uniform in [-1, 1], D diagonal uniform in [2, 4] sqrt(n)), like a Rosenbrock
// iteration matrix I - h gamma J with a moderate step: well conditioned, so every method should reach a
// relative residual of order 1e-16 and none should report a singular matrix.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "linalg/dense_lu.hpp"
#include "warp_lu.cuh"

namespace {

constexpr int kThreadsPerBlock = 128;
constexpr int kResidualSample = 256;  // matrices per method whose residual is checked on the host
constexpr int kCpuMaxMatrices = 65536;

// ---- error checking: a benchmark stops at the first failed call, naming it ----

void check_cuda(cudaError_t status, const char* call, int line) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "batched_lu.cu:%d: %s failed: %s\n", line, call, cudaGetErrorString(status));
  std::exit(1);
}
void check_cublas(cublasStatus_t status, const char* call, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "batched_lu.cu:%d: %s failed: %s\n", line, call, cublasGetStatusString(status));
  std::exit(1);
}
#define CUDA_CHECK(call) check_cuda((call), #call, __LINE__)
#define CUBLAS_CHECK(call) check_cublas((call), #call, __LINE__)

// Device memory freed at the end of each n, so the next (larger-matrix) case starts from an empty device.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(size_t count) : count_(count) {
    CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)));
  }
  ~DeviceArray() { CUDA_CHECK(cudaFree(data_)); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return data_; }
  void upload(const std::vector<T>& host) {
    CUDA_CHECK(cudaMemcpy(data_, host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    CUDA_CHECK(cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  void copy_from(const DeviceArray& source) {
    CUDA_CHECK(cudaMemcpy(data_, source.data_, count_ * sizeof(T), cudaMemcpyDeviceToDevice));
  }

 private:
  size_t count_;
  T* data_ = nullptr;
};

// ---- kernels ----

// Matrix i contiguous and row-major at A + i n^2, as in the product's per-instance scratch; b is overwritten
// by the solution. failed[i] (batch) is 1 where lu_factor reported a singular or non-finite matrix.
__global__ void factor_solve_thread_per_matrix(int n, int batch, double* A, int* pivots, double* b,
                                               int* failed) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= batch) return;
  double* matrix = A + static_cast<size_t>(i) * n * n;
  int* matrix_pivots = pivots + static_cast<size_t>(i) * n;
  double* rhs = b + static_cast<size_t>(i) * n;
  const bool factored = myriad::lu_factor(n, matrix, matrix_pivots);
  failed[i] = factored ? 0 : 1;
  if (factored) myriad::lu_solve(n, matrix, matrix_pivots, rhs);
}

// A warp per matrix (the warp strategy's LU, kernels/warp_lu.cuh): same layout as above, pivots as doubles.
__global__ void factor_solve_warp_per_matrix(int n, int batch, double* A, double* pivots, double* b, int* failed) {
  const long long i = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / myriad::cuda::kWarpLanes;
  const int lane = static_cast<int>(threadIdx.x % myriad::cuda::kWarpLanes);
  if (i >= batch) return;  // the whole warp: blockDim.x is a multiple of 32
  double* matrix = A + static_cast<size_t>(i) * n * n;
  double* matrix_pivots = pivots + static_cast<size_t>(i) * n;
  double* rhs = b + static_cast<size_t>(i) * n;
  const bool factored = myriad::cuda::warp_lu_factor(n, matrix, matrix_pivots, lane);
  if (lane == 0) failed[i] = factored ? 0 : 1;
  if (factored) myriad::cuda::warp_lu_solve(n, matrix, matrix_pivots, rhs, lane);
}

// The algorithm of linalg/dense_lu.hpp (same pivoting, same singularity test), with entry (r, c) of matrix i
// at A[(r n + c) batch + i], pivot k at pivots[k batch + i] and b_r at b[r batch + i], so that a warp's loads
// coalesce. It exists only to measure what that layout is worth: the product's scratch is contiguous per
// instance and goes through lu_factor/lu_solve, which take no stride.
__global__ void factor_solve_interleaved(int n, int batch, double* A, int* pivots, double* b, int* failed) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= batch) return;
  const size_t stride = static_cast<size_t>(batch);
  double* a = A + i;
  double* x = b + i;
  auto at = [&](int r, int c) -> double& { return a[static_cast<size_t>(r * n + c) * stride]; };
  failed[i] = 1;
  double max_entry = 0.0;
  for (int k = 0; k < n * n; ++k) {
    const double magnitude = fabs(a[static_cast<size_t>(k) * stride]);
    if (!myriad::is_finite(magnitude)) return;
    max_entry = fmax(max_entry, magnitude);
  }
  const double threshold = myriad::kLuSingularityFactor * n * 2.220446049250313e-16 * max_entry;
  for (int k = 0; k < n; ++k) {
    int pivot_row = k;
    double pivot_magnitude = fabs(at(k, k));
    for (int r = k + 1; r < n; ++r) {
      const double magnitude = fabs(at(r, k));
      if (magnitude > pivot_magnitude) {
        pivot_magnitude = magnitude;
        pivot_row = r;
      }
    }
    pivots[static_cast<size_t>(k) * stride + i] = pivot_row;
    if (!(pivot_magnitude > threshold)) return;
    if (pivot_row != k) {
      for (int c = 0; c < n; ++c) {
        const double swap = at(k, c);
        at(k, c) = at(pivot_row, c);
        at(pivot_row, c) = swap;
      }
    }
    const double inverse_pivot = 1.0 / at(k, k);
    for (int r = k + 1; r < n; ++r) {
      const double multiplier = at(r, k) * inverse_pivot;
      at(r, k) = multiplier;
      if (multiplier == 0.0) continue;
      for (int c = k + 1; c < n; ++c) at(r, c) -= multiplier * at(k, c);
    }
  }
  failed[i] = 0;
  for (int k = 0; k < n; ++k) {
    const int pivot_row = pivots[static_cast<size_t>(k) * stride + i];
    if (pivot_row != k) {
      const double swap = x[k * stride];
      x[k * stride] = x[pivot_row * stride];
      x[pivot_row * stride] = swap;
    }
  }
  for (int r = 1; r < n; ++r) {
    double sum = x[r * stride];
    for (int c = 0; c < r; ++c) sum -= at(r, c) * x[c * stride];
    x[r * stride] = sum;
  }
  for (int r = n - 1; r >= 0; --r) {
    double sum = x[r * stride];
    for (int c = r + 1; c < n; ++c) sum -= at(r, c) * x[c * stride];
    x[r * stride] = sum / at(r, r);
  }
}

// ---- host side ----

struct Problems {
  int n = 0, count = 0;
  std::vector<double> A;  // count row-major n x n matrices, matrix i at i n^2
  std::vector<double> b;  // count right-hand sides, b_i at i n
};

// Drawn matrix by matrix (A_i, then b_i), so that any prefix of a batch is the same whatever its size: the
// CPU column factors a prefix of the GPU batch. One seed per n, so --max-n does not change the smaller cases.
Problems make_problems(int n, int count) {
  Problems p;
  p.n = n;
  p.count = count;
  p.A.resize(static_cast<size_t>(count) * n * n);
  p.b.resize(static_cast<size_t>(count) * n);
  std::mt19937_64 rng(0x4d797269ad1u + static_cast<uint64_t>(n));
  std::uniform_real_distribution<double> unit(-1.0, 1.0), diagonal(2.0, 4.0);
  const double diagonal_scale = std::sqrt(static_cast<double>(n));
  for (int i = 0; i < count; ++i) {
    double* a = p.A.data() + static_cast<size_t>(i) * n * n;
    for (int k = 0; k < n * n; ++k) a[k] = 0.3 * unit(rng);
    for (int k = 0; k < n; ++k) a[k * n + k] += diagonal_scale * diagonal(rng);
    for (int k = 0; k < n; ++k) p.b[static_cast<size_t>(i) * n + k] = unit(rng);
  }
  return p;
}

// max over an evenly spread sample of matrices of ||A x - b||_inf / (||A||_inf ||x||_inf), in double, with
// x_r of matrix i read through solution(i, r) (each method has its own layout). NaN if any sample is NaN.
double max_relative_residual(const Problems& p, int batch, const std::function<double(int, int)>& solution) {
  const int n = p.n;
  const int samples = std::min(kResidualSample, batch);
  double worst = 0.0;
  for (int s = 0; s < samples; ++s) {
    const int i = static_cast<int>(static_cast<int64_t>(s) * batch / samples);
    const double* a = p.A.data() + static_cast<size_t>(i) * n * n;
    double residual_norm = 0.0, a_norm = 0.0, x_norm = 0.0;
    for (int r = 0; r < n; ++r) {
      double residual = -p.b[static_cast<size_t>(i) * n + r], row_sum = 0.0;
      for (int c = 0; c < n; ++c) {
        residual += a[r * n + c] * solution(i, c);
        row_sum += std::fabs(a[r * n + c]);
      }
      residual_norm = std::max(residual_norm, std::fabs(residual));
      a_norm = std::max(a_norm, row_sum);
      x_norm = std::max(x_norm, std::fabs(solution(i, r)));
    }
    const double relative = residual_norm / (a_norm * x_norm);
    if (std::isnan(relative)) return relative;
    worst = std::max(worst, relative);
  }
  return worst;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t m = values.size() / 2;
  return values.size() % 2 ? values[m] : 0.5 * (values[m - 1] + values[m]);
}

struct Outcome {
  std::vector<double> stage_ms;  // median per timed stage (one, or getrf and getrs for cuBLAS)
  double total_ms = 0.0;         // median over reps of the summed stages
  double residual = 0.0;
  int failed = 0;
};

// Times stages run back to back on the default stream with an event between each: reset() (the
// device-to-device re-copy of the original data) runs before every rep and outside the events; one untimed
// warm-up run first. The work buffers hold the last rep's results afterwards.
Outcome time_stages(int reps, const std::function<void()>& reset,
                    const std::vector<std::function<void()>>& stages) {
  std::vector<cudaEvent_t> events(stages.size() + 1);
  for (cudaEvent_t& e : events) CUDA_CHECK(cudaEventCreate(&e));
  reset();
  for (const auto& stage : stages) stage();
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<std::vector<double>> ms(stages.size(), std::vector<double>(reps));
  std::vector<double> total(reps, 0.0);
  for (int rep = 0; rep < reps; ++rep) {
    reset();
    CUDA_CHECK(cudaEventRecord(events[0]));
    for (size_t s = 0; s < stages.size(); ++s) {
      stages[s]();
      CUDA_CHECK(cudaEventRecord(events[s + 1]));
    }
    CUDA_CHECK(cudaEventSynchronize(events.back()));
    for (size_t s = 0; s < stages.size(); ++s) {
      float elapsed = 0.0f;
      CUDA_CHECK(cudaEventElapsedTime(&elapsed, events[s], events[s + 1]));
      ms[s][rep] = elapsed;
      total[rep] += elapsed;
    }
  }
  for (cudaEvent_t& e : events) CUDA_CHECK(cudaEventDestroy(e));
  Outcome outcome;
  for (const auto& stage_ms : ms) outcome.stage_ms.push_back(median(stage_ms));
  outcome.total_ms = median(total);
  return outcome;
}

int count_nonzero(const std::vector<int>& flags) {
  return static_cast<int>(std::count_if(flags.begin(), flags.end(), [](int f) { return f != 0; }));
}

struct GpuRow {
  Outcome thread_per_matrix, warp_per_matrix, interleaved, cublas;
};

GpuRow run_gpu(const Problems& p, int reps, cublasHandle_t handle) {
  const int n = p.n, batch = p.count;
  const size_t matrix_entries = static_cast<size_t>(batch) * n * n,
               vector_entries = static_cast<size_t>(batch) * n;
  // Originals in the three layouts (re-copied into the work buffers before every rep) and the work buffers.
  DeviceArray<double> rows(matrix_entries), interleaved(matrix_entries), columns(matrix_entries);
  DeviceArray<double> matrices(matrix_entries);  // factored in place by the method being timed
  DeviceArray<double> rhs(vector_entries), rhs_interleaved(vector_entries);
  DeviceArray<double> solutions(vector_entries);        // b in, x out, written by the method being timed
  DeviceArray<int> pivots(vector_entries);              // n per matrix, written by every method
  DeviceArray<double> double_pivots(vector_entries);    // the warp LU's (row indices as doubles)
  DeviceArray<int> failed(static_cast<size_t>(batch));  // 1 = factorization failed (cuBLAS: its info array)
  DeviceArray<double*> matrix_pointers(static_cast<size_t>(batch)),
      solution_pointers(static_cast<size_t>(batch));

  rows.upload(p.A);
  {
    std::vector<double> staging(matrix_entries);
    for (int i = 0; i < batch; ++i)
      for (int k = 0; k < n * n; ++k)
        staging[static_cast<size_t>(k) * batch + i] = p.A[static_cast<size_t>(i) * n * n + k];
    interleaved.upload(staging);
    // cuBLAS is column-major: upload the transpose and solve with CUBLAS_OP_N.
    for (int i = 0; i < batch; ++i)
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
          staging[static_cast<size_t>(i) * n * n + c * n + r] =
              p.A[static_cast<size_t>(i) * n * n + r * n + c];
    columns.upload(staging);
  }
  rhs.upload(p.b);
  {
    std::vector<double> staging(vector_entries);
    for (int i = 0; i < batch; ++i)
      for (int r = 0; r < n; ++r)
        staging[static_cast<size_t>(r) * batch + i] = p.b[static_cast<size_t>(i) * n + r];
    rhs_interleaved.upload(staging);
    std::vector<double*> pointers(batch);
    for (int i = 0; i < batch; ++i) pointers[i] = matrices.get() + static_cast<size_t>(i) * n * n;
    matrix_pointers.upload(pointers);
    for (int i = 0; i < batch; ++i) pointers[i] = solutions.get() + static_cast<size_t>(i) * n;
    solution_pointers.upload(pointers);
  }
  const int blocks = (batch + kThreadsPerBlock - 1) / kThreadsPerBlock;
  GpuRow row;
  auto contiguous_solution = [n](const std::vector<double>& solution) {
    const double* x = solution.data();
    return [x, n](int i, int r) { return x[static_cast<size_t>(i) * n + r]; };
  };

  row.thread_per_matrix =
      time_stages(reps,
                  [&] {
                    matrices.copy_from(rows);
                    solutions.copy_from(rhs);
                  },
                  {[&] {
                    factor_solve_thread_per_matrix<<<blocks, kThreadsPerBlock>>>(
                        n, batch, matrices.get(), pivots.get(), solutions.get(), failed.get());
                    CUDA_CHECK(cudaGetLastError());
                  }});
  {
    const std::vector<double> x = solutions.download();
    row.thread_per_matrix.residual = max_relative_residual(p, batch, contiguous_solution(x));
    row.thread_per_matrix.failed = count_nonzero(failed.download());
  }

  const int warp_blocks = static_cast<int>((static_cast<long long>(batch) * myriad::cuda::kWarpLanes +
                                            kThreadsPerBlock - 1) / kThreadsPerBlock);
  row.warp_per_matrix =
      time_stages(reps,
                  [&] {
                    matrices.copy_from(rows);
                    solutions.copy_from(rhs);
                  },
                  {[&] {
                    factor_solve_warp_per_matrix<<<warp_blocks, kThreadsPerBlock>>>(
                        n, batch, matrices.get(), double_pivots.get(), solutions.get(), failed.get());
                    CUDA_CHECK(cudaGetLastError());
                  }});
  {
    const std::vector<double> x = solutions.download();
    row.warp_per_matrix.residual = max_relative_residual(p, batch, contiguous_solution(x));
    row.warp_per_matrix.failed = count_nonzero(failed.download());
  }

  row.interleaved = time_stages(reps,
                                [&] {
                                  matrices.copy_from(interleaved);
                                  solutions.copy_from(rhs_interleaved);
                                },
                                {[&] {
                                  factor_solve_interleaved<<<blocks, kThreadsPerBlock>>>(
                                      n, batch, matrices.get(), pivots.get(), solutions.get(), failed.get());
                                  CUDA_CHECK(cudaGetLastError());
                                }});
  {
    const std::vector<double> x = solutions.download();
    const double* data = x.data();
    row.interleaved.residual = max_relative_residual(
        p, batch, [data, batch](int i, int r) { return data[static_cast<size_t>(r) * batch + i]; });
    row.interleaved.failed = count_nonzero(failed.download());
  }

  row.cublas = time_stages(
      reps,
      [&] {
        matrices.copy_from(columns);
        solutions.copy_from(rhs);
      },
      {[&] {
         CUBLAS_CHECK(
             cublasDgetrfBatched(handle, n, matrix_pointers.get(), n, pivots.get(), failed.get(), batch));
       },
       [&] {
         int parameter_error = 0;  // host-side: getrs reports only invalid arguments here
         CUBLAS_CHECK(cublasDgetrsBatched(handle, CUBLAS_OP_N, n, 1, matrix_pointers.get(), n, pivots.get(),
                                          solution_pointers.get(), n, &parameter_error, batch));
         if (parameter_error != 0) {
           std::fprintf(stderr, "cublasDgetrsBatched: invalid argument %d\n", -parameter_error);
           std::exit(1);
         }
       }});
  {
    const std::vector<double> x = solutions.download();
    row.cublas.residual = max_relative_residual(p, batch, contiguous_solution(x));
    row.cublas.failed = count_nonzero(failed.download());
  }
  return row;
}

struct CpuOutcome {
  double ns_per_matrix = 0.0;  // median over reps
  double residual = 0.0;
  int failed = 0;
};

// One host thread over the first `count` matrices of p; the re-copy of the originals is outside the timed
// interval.
CpuOutcome run_cpu(const Problems& p, int count, int reps) {
  const int n = p.n;
  const size_t matrix_entries = static_cast<size_t>(count) * n * n,
               vector_entries = static_cast<size_t>(count) * n;
  std::vector<double> A, b;
  std::vector<int> pivots(static_cast<size_t>(n));
  std::vector<double> ns(reps);
  CpuOutcome outcome;
  for (int rep = 0; rep < reps; ++rep) {
    A.assign(p.A.begin(), p.A.begin() + static_cast<ptrdiff_t>(matrix_entries));
    b.assign(p.b.begin(), p.b.begin() + static_cast<ptrdiff_t>(vector_entries));
    int failed = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i) {
      double* matrix = A.data() + static_cast<size_t>(i) * n * n;
      double* rhs = b.data() + static_cast<size_t>(i) * n;
      if (myriad::lu_factor(n, matrix, pivots.data()))
        myriad::lu_solve(n, matrix, pivots.data(), rhs);
      else
        ++failed;
    }
    const std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
    ns[rep] = elapsed.count() / count;
    outcome.failed = failed;
  }
  outcome.ns_per_matrix = median(ns);
  const double* x = b.data();
  outcome.residual =
      max_relative_residual(p, count, [x, n](int i, int r) { return x[static_cast<size_t>(i) * n + r]; });
  return outcome;
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string version(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

[[noreturn]] void usage(const char* message) {
  std::fprintf(stderr,
               "%s\nusage: batched_lu [--min-n N] [--max-n N] [--reps R]   (positive integers; defaults 2, 64 and 5)\n",
               message);
  std::exit(2);
}

int parse_positive(int argc, char** argv, int& k) {
  if (k + 1 >= argc) usage("missing value");
  char* end = nullptr;
  const long value = std::strtol(argv[++k], &end, 10);
  if (*end != '\0' || value < 1 || value > 1000000) usage("bad value");
  return static_cast<int>(value);
}

}  // namespace

int main(int argc, char** argv) {
  int min_n = 2, max_n = 64, reps = 5;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg == "--min-n")
      min_n = parse_positive(argc, argv, k);
    else if (arg == "--max-n")
      max_n = parse_positive(argc, argv, k);
    else if (arg == "--reps")
      reps = parse_positive(argc, argv, k);
    else
      usage(("unknown argument " + arg).c_str());
  }

  int device_count = 0;
  const cudaError_t count_status = cudaGetDeviceCount(&device_count);
  const bool have_device = count_status == cudaSuccess && device_count > 0;
  cublasHandle_t handle = nullptr;
  if (have_device) {
    CUDA_CHECK(cudaSetDevice(0));
    cudaDeviceProp properties;
    CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
    int clock_khz = 0, driver = 0, runtime = 0, cublas_version = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    CUDA_CHECK(cudaDriverGetVersion(&driver));
    CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    CUBLAS_CHECK(cublasCreate(&handle));
    CUBLAS_CHECK(cublasGetVersion(handle, &cublas_version));
    std::printf("# device: %s (cc %d.%d, %d SMs, %d MHz) ; driver %s, runtime %s, cuBLAS %d.%d.%d\n",
                properties.name, properties.major, properties.minor, properties.multiProcessorCount,
                clock_khz / 1000, version(driver).c_str(), version(runtime).c_str(), cublas_version / 10000,
                cublas_version % 10000 / 100, cublas_version % 100);
  } else {
    std::printf("# no CUDA device: %s; GPU columns skipped\n", count_status == cudaSuccess
                                                                   ? "cudaGetDeviceCount returned 0"
                                                                   : cudaGetErrorString(count_status));
  }
  std::printf("# host: %s, %u hardware threads\n", cpu_model().c_str(), std::thread::hardware_concurrency());
  std::string command;
  for (int k = 0; k < argc; ++k) command += (k ? " " : "") + std::string(argv[k]);
  std::printf("# command: %s\n\n", command.c_str());
  std::printf(
      "| n | batch | thread/matrix ms | warp/matrix ms | interleaved ms | cuBLAS getrf ms | cuBLAS getrs ms "
      "| cuBLAS total ms | CPU 1-thread ns/matrix | fastest GPU | max rel residual |\n"
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  std::fflush(stdout);

  std::vector<std::string> notes;
  for (int n : {2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}) {
    if (n < min_n) continue;  // a device session that recorded the smaller sizes before
    if (n > max_n) break;
    // About 128 MiB of matrices, between 32768 and 262144 of them: at least an ensemble's worth of live instances
    // (the product's runs have 1e4..1e6), so that large n still fills the device (n = 64: 1 GiB a copy).
    const int batch = static_cast<int>(
        std::min<int64_t>(262144, std::max<int64_t>(32768, (int64_t{1} << 27) / (8 * int64_t{n} * n))));
    const int cpu_count = std::min(batch, kCpuMaxMatrices);
    const Problems problems = make_problems(n, have_device ? batch : cpu_count);
    const CpuOutcome cpu = run_cpu(problems, cpu_count, reps);
    double worst_residual = cpu.residual;
    int failures = cpu.failed;
    std::string gpu_cells = "| - | - | - | - | - | - ";
    std::string fastest = "-";
    std::ostringstream note;
    note << "# n = " << n << ": max rel residual CPU " << format("%.2e", cpu.residual);
    if (have_device) {
      const GpuRow gpu = run_gpu(problems, reps, handle);
      auto cell = [batch](double ms) {
        return format("%.4g", ms) + " (" + format("%.3g", ms * 1e6 / batch) + " ns) ";
      };
      gpu_cells = "| " + cell(gpu.thread_per_matrix.total_ms) + "| " + cell(gpu.warp_per_matrix.total_ms) + "| " +
                  cell(gpu.interleaved.total_ms) + "| " +
                  cell(gpu.cublas.stage_ms[0]) + "| " + cell(gpu.cublas.stage_ms[1]) + "| " +
                  cell(gpu.cublas.total_ms);
      const std::pair<double, const char*> candidates[] = {{gpu.thread_per_matrix.total_ms, "thread/matrix"},
                                                           {gpu.warp_per_matrix.total_ms, "warp/matrix"},
                                                           {gpu.interleaved.total_ms, "interleaved"},
                                                           {gpu.cublas.total_ms, "cuBLAS"}};
      fastest =
          std::min_element(std::begin(candidates), std::end(candidates), [](const auto& a, const auto& b) {
            return a.first < b.first;
          })->second;
      for (const Outcome* o : {&gpu.thread_per_matrix, &gpu.warp_per_matrix, &gpu.interleaved, &gpu.cublas}) {
        worst_residual = std::isnan(o->residual) ? o->residual : std::max(worst_residual, o->residual);
        failures += o->failed;
      }
      note << ", thread/matrix " << format("%.2e", gpu.thread_per_matrix.residual) << ", warp/matrix "
           << format("%.2e", gpu.warp_per_matrix.residual) << ", interleaved "
           << format("%.2e", gpu.interleaved.residual) << ", cuBLAS " << format("%.2e", gpu.cublas.residual)
           << "; failed factorizations: thread/matrix " << gpu.thread_per_matrix.failed << ", warp/matrix "
           << gpu.warp_per_matrix.failed << ", interleaved "
           << gpu.interleaved.failed << ", cuBLAS (info != 0) " << gpu.cublas.failed << ", CPU "
           << cpu.failed;
    } else {
      note << "; failed factorizations: CPU " << cpu.failed;
    }
    notes.push_back(note.str());
    std::string residual_cell = format("%.2e", worst_residual);
    if (failures > 0) residual_cell += " (" + std::to_string(failures) + " failed factorizations)";
    std::printf("| %d | %d %s| %s | %s | %s |\n", n, batch, gpu_cells.c_str(),
                format("%.4g", cpu.ns_per_matrix).c_str(), fastest.c_str(), residual_cell.c_str());
    std::fflush(stdout);
  }

  std::printf(
      "\n# GPU cells: median of %d reps in ms (ns per matrix), cudaEvent-timed, re-copy of the originals "
      "excluded; cuBLAS total = median of getrf + getrs per rep; matrices column-major for cuBLAS "
      "(transposed on upload, CUBLAS_OP_N). CPU: one host thread over min(batch, %d) matrices, median "
      "ns per matrix. Residuals: max over %d sampled matrices of ||Ax-b||_inf/(||A||_inf ||x||_inf).\n",
      reps, kCpuMaxMatrices, kResidualSample);
  for (const std::string& note : notes) std::printf("%s\n", note.c_str());
  if (handle != nullptr) CUBLAS_CHECK(cublasDestroy(handle));
  return 0;
}
