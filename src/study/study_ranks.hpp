#pragma once
// The processes of a distributed study and how they talk (docs/study-format.md, "MPI"). Rank 0 writes the one
// results file; every rank runs the chunks k with k mod size = rank and sends rank 0 what they produced. The
// runner sees only these three operations, so it does not depend on MPI (mpi_ranks.cpp fills them in).
#include <functional>
#include <vector>

namespace myriad::study {

struct StudyRanks {
  int rank = 0, size = 1;  // size 1: one process, nothing is sent
  int local_rank = 0;      // the rank among those on this node (which GPU it takes)
  int local_size = 1;      // ranks on this node (they share its cores)
  // From rank 0 to every rank: rank 0's bytes replace the others' (which are resized).
  std::function<void(std::vector<unsigned char>&)> broadcast;
  // A worker's message to rank 0.
  std::function<void(const std::vector<unsigned char>&)> send_to_root;
  // At rank 0: the next message from any worker; false when none is waiting and wait is false.
  std::function<bool(std::vector<unsigned char>& message, int& source, bool wait)> receive_at_root;
};

// True when an MPI launcher started this process (mpirun, srun: their environment variables).
bool launched_by_mpi();
// MPI_Init when launched by MPI and this build has MPI (else one process). Each rank then takes the GPU of
// its local rank (CUDA_VISIBLE_DEVICES, unless the launcher or the user set it). Call once; end_ranks() at
// the end.
StudyRanks begin_ranks();
void end_ranks();
// Ends every rank of the job (a rank that cannot go on while the others wait for it).
[[noreturn]] void abort_ranks(int code);

}  // namespace myriad::study
