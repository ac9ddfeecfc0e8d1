#pragma once
// A chunk of a model file's absolute-coordinate ensemble (rp, re, rA) laid out as the cuda kernels read it
// (kernels/absolute_kernel.cuh): every instance's engine model (a copy whose pointers name the memory the
// kernel will read: the compiled model, the instance's packed constants, its drivers' coefficients), its
// start, and the sizes of its output rows and workspace. Preparing and recording are host work with no CUDA
// in them, so the layout is tested without a device: run_absolute_batch_on_host is the kernel's body on the
// CPU (the same integrate_absolute_instance, or integrate_rotation_matrix_instance for rA, per instance, over the
// same arrays), and its results must equal
// the cpu backend's bit for bit (tests/absolute/absolute_batch_test.cpp). backends/absolute_cuda.cpp places
// the same batch in device memory and launches the kernel over it.
#include <vector>

#include "absolute/absolute_run.hpp"
#include "absolute/rotation_matrix_run.hpp"
#include "backends/absolute_backend.hpp"
#include "backends/absolute_instance.hpp"
#include "core/status.hpp"
#include "ensemble/ensemble.hpp"
#include "ensemble/ensemble_result.hpp"
#include "ensemble/run_spec.hpp"
#include "model/compiled_model.hpp"
#include "model/model.hpp"

namespace myriad {

struct AbsoluteBatch {
  AbsoluteCoordinates coordinates = AbsoluteCoordinates::rp;
  int first = 0, count = 0;       // instances first .. first + count - 1 of the ensemble
  int ny = 0;                     // the engine's state count (the same for every instance; rA's layout for rA)
  int n_times = 0, row_size = 0;  // output rows per instance, doubles per row (absolute_row_size, rA's own)
  long long work_size = 0;        // workspace doubles per instance (the largest instance's)
  bool accelerations = false;     // the model's outputs read accelerations: rows carry q'' (rA: r'', omega-bar')
  int constant_stride = 0;        // doubles of packed constants per instance
  std::vector<AbsoluteInstance> instances;  // the host side: mapping, drivers, joint-coordinate start
  std::vector<AbsoluteRunModel> models;     // the kernel's copies (place_absolute_batch sets their pointers)
  std::vector<double> starts;               // count x ny: consistent starts
  std::vector<double> constants;            // count x constant_stride
  std::vector<double> coefficients;       // every instance's drivers' packed coefficients, one after another
  std::vector<long long> driver_offsets;  // count x kMaxAbsoluteDrivers: where each driver's begin (-1: none)
  std::vector<int> status;                // InstanceStatus: ok, or why the instance could not be prepared
};

// Prepares instances first .. first + count - 1 on `threads` host threads: each literal model mapped, its
// start assembled and turned into the bodies' state. An instance whose start does not assemble gets status
// non_finite and is not run.
AbsoluteBatch prepare_absolute_batch(AbsoluteCoordinates coordinates, const Model& model,
                                     const CompiledModel& compiled, const Ensemble& ensemble, int first,
                                     int count, const std::vector<double>& output_times, int threads);

// Points every model of the batch at `compiled_at`, constants_at + i constant_stride and its drivers'
// coefficients at coefficients_at + offset: host addresses of the batch's own arrays for the CPU, device
// copies for the kernel.
void place_absolute_batch(AbsoluteBatch& batch, const CompiledModel* compiled_at, const double* constants_at,
                          const double* coefficients_at);

// What a run of the batch leaves: per instance its status, the rows it reached and its counters, and the rows
// (count x n_times x row_size).
struct AbsoluteBatchRun {
  std::vector<double> rows;
  std::vector<int> status, reached;
  std::vector<IntegratorStats> stats;
};

// The kernel's body on the CPU: places the batch at its own host arrays and runs integrate_absolute_instance
// (integrate_rotation_matrix_instance for rA) on every prepared instance, one after another.
AbsoluteBatchRun run_absolute_batch_on_host(AbsoluteBatch& batch, const CompiledModel& compiled,
                                            const RunSpec& spec, const std::vector<double>& output_times);

// Turns the batch's rows into the result's signals and KPIs for instances first .. first + count - 1 (on
// `threads` host threads), with their statuses and counters; an instance whose signals cannot be recovered
// from its bodies ends non_finite. result: make_ensemble_result's, with its KPI state allocated.
void record_absolute_batch(const AbsoluteBatch& batch, const AbsoluteBatchRun& run, const Model& model,
                           const CompiledModel& compiled, const Ensemble& ensemble,
                           const std::vector<double>& output_times, int threads, EnsembleResult& result);

}  // namespace myriad
