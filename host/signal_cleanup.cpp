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

void install_signal_handler(void (*handler)(int), std::initializer_list<int> signals) {
  for (int signal_number : signals) {
    struct sigaction previous {};
    if (::sigaction(signal_number, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal_number, &action, nullptr);
  }
}

void install_signal_cleanup() { install_signal_handler(remove_temporaries_and_reraise, {SIGINT, SIGTERM, SIGHUP}); }

}  // namespace myriad::cli
