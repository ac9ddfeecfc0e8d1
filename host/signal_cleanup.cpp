#include "signal_cleanup.hpp"

#include <csignal>

#include "io/temporary_files.hpp"

namespace myriad::cli {
namespace {

extern "C" void remove_temporaries_and_reraise(int signal_number) {
  myriad::remove_registered_temporary_files();
  // The default action then ends the process with this signal, so the caller sees "killed by SIGTERM".
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

}  // namespace

void install_signal_cleanup() {
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction previous {};
    // A signal the parent chose to ignore (nohup, a background job) stays ignored.
    if (::sigaction(signal_number, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = remove_temporaries_and_reraise;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal_number, &action, nullptr);
  }
}

}  // namespace myriad::cli
