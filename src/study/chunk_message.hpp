#pragma once
// A chunk's rows as bytes, for a rank of a distributed study to send to the rank that writes the file
// (mpi_ranks.hpp). Plain copies of the arrays with their lengths, in this machine's byte order: every rank of
// one job runs the same binary on the same kind of machine.
#include <string>
#include <vector>

#include "study/results_file.hpp"

namespace myriad::study {

enum class MessageKind : unsigned char { chunk = 'C', end = 'E', failed = 'F' };

std::vector<unsigned char> pack_chunk(long long k, const ChunkRows& rows);
// Throws std::runtime_error on a message that is cut short or not a chunk.
ChunkRows unpack_chunk(const std::vector<unsigned char>& message, long long& k);

// A rank's last word: it ran all its chunks (stopped = false) or stopped early.
std::vector<unsigned char> pack_end(bool stopped);
// A rank that could not run a chunk: the reason, and the chunk.
std::vector<unsigned char> pack_failure(long long k, const std::string& reason);
MessageKind message_kind(const std::vector<unsigned char>& message);
bool unpack_end(const std::vector<unsigned char>& message);
std::string unpack_failure(const std::vector<unsigned char>& message, long long& k);

}  // namespace myriad::study
