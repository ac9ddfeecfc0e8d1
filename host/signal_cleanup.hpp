#pragma once
// SIGINT, SIGTERM and SIGHUP end the process as they would by default, after removing the temporary files of
// outputs being written (io/temporary_files.hpp), so an interrupted run leaves neither a half-written output nor
// an orphaned `*.tmp.*` behind.
#include <initializer_list>

namespace myriad::cli {

void install_signal_cleanup();

// Installs `handler` for each of `signals`, except a signal the parent chose to ignore (nohup, a background job),
// which stays ignored.
void install_signal_handler(void (*handler)(int), std::initializer_list<int> signals);

}  // namespace myriad::cli
