// StudyRanks over MPI (OpenMPI from Debian). Without MPI in the build, or without a launcher, one process. A
// rank takes its GPU before any CUDA call: CUDA_VISIBLE_DEVICES = local rank mod the node's GPU count, the
// count read from the driver's /proc entries so that no CUDA context is made here.
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "study/study_ranks.hpp"

#ifdef MYRIAD_HAVE_MPI
// The C API only: OpenMPI's deprecated C++ bindings would need their own library.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace myriad::study {
namespace {

[[maybe_unused]] int environment_integer(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::atoi(value) : fallback;
}

void pick_gpu(int local_rank) {
  if (std::getenv("CUDA_VISIBLE_DEVICES") != nullptr) return;
  std::error_code error;
  int gpus = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/driver/nvidia/gpus", error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error))
    ++gpus;
  if (gpus > 1) ::setenv("CUDA_VISIBLE_DEVICES", std::to_string(local_rank % gpus).c_str(), 1);
}

#ifdef MYRIAD_HAVE_MPI
constexpr int kTag = 18;
bool g_initialized = false;
#endif

}  // namespace

bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

StudyRanks begin_ranks() {
  StudyRanks ranks;
#ifdef MYRIAD_HAVE_MPI
  if (!launched_by_mpi()) return ranks;
  int provided = 0;
  // Funneled: only the calling thread talks MPI; the chunk's worker threads never do.
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  g_initialized = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &ranks.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks.size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, ranks.rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &ranks.local_rank);
  MPI_Comm_size(node, &ranks.local_size);
  MPI_Comm_free(&node);
  pick_gpu(ranks.local_rank);
  ranks.broadcast = [rank = ranks.rank](std::vector<unsigned char>& bytes) {
    unsigned long long n = bytes.size();
    MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    if (rank != 0) bytes.resize(n);
    MPI_Bcast(bytes.data(), static_cast<int>(n), MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
  };
  ranks.send_to_root = [](const std::vector<unsigned char>& bytes) {
    MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_UNSIGNED_CHAR, 0, kTag, MPI_COMM_WORLD);
  };
  ranks.receive_at_root = [](std::vector<unsigned char>& bytes, int& source, bool wait) {
    MPI_Status status;
    int waiting = 0;
    if (wait) {
      MPI_Probe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &status);
    } else {
      MPI_Iprobe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &waiting, &status);
      if (!waiting) return false;
    }
    int count = 0;
    MPI_Get_count(&status, MPI_UNSIGNED_CHAR, &count);
    bytes.resize(static_cast<std::size_t>(count));
    source = status.MPI_SOURCE;
    MPI_Recv(bytes.data(), count, MPI_UNSIGNED_CHAR, source, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return true;
  };
#else
  // A launcher without MPI in this build would start `size` independent copies of the whole study.
  if (launched_by_mpi() &&
      environment_integer("OMPI_COMM_WORLD_SIZE", environment_integer("PMI_SIZE", 1)) > 1)
    throw std::runtime_error(
        "started by an MPI launcher, but this myriad was built without MPI (install "
        "libopenmpi-dev and build again)");
#endif
  return ranks;
}

void end_ranks() {
#ifdef MYRIAD_HAVE_MPI
  if (g_initialized) MPI_Finalize();
  g_initialized = false;
#endif
}

void abort_ranks(int code) {
#ifdef MYRIAD_HAVE_MPI
  if (g_initialized) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::exit(code);
}

}  // namespace myriad::study
