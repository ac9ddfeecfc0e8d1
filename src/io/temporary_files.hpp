#pragma once
// The temporary files a process is writing (atomic_file.hpp), kept where a signal handler can reach them: a
// SIGINT or SIGTERM in the middle of a write must not leave a half-written `name.tmp.*` behind. The table is fixed
// size and written with atomics, so removing what it holds is async-signal-safe.
#include <string>

namespace myriad {

// At most this many temporaries are registered at once (a run writes its outputs one after another).
constexpr int kMaxTemporaryFiles = 16;

// Registers `path` for removal on a signal; returns a slot to pass to forget_temporary_file, or -1 when the table
// is full or the path too long (the file is then still removed on every ordinary failure, only not on a signal).
int register_temporary_file(const std::string& path);
void forget_temporary_file(int slot);

// unlink()s every registered temporary. Async-signal-safe: for signal handlers (host/signal_cleanup.cpp).
void remove_registered_temporary_files() noexcept;

}  // namespace myriad
