#pragma once
// SIGINT, SIGTERM and SIGHUP end the process as they would by default, after removing the temporary files of
// outputs being written (io/temporary_files.hpp), so an interrupted run leaves neither a half-written output nor
// an orphaned `*.tmp.*` behind.
namespace myriad::cli {

void install_signal_cleanup();

}  // namespace myriad::cli
