#pragma once
// Runs the `myriad` executable under test (MYRIAD_CLI) the way a user would: through a shell, or as a child whose
// stderr is read line by line as it is written (progress, kill tests).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace myriad::test {

struct CliRun {
  int status;          // exit status; -1 when killed by a signal
  int signal;          // the signal that ended it, else 0
  std::string output;  // stdout and stderr together
};

// A shell command line run as is (for ulimit, unshare), stderr joined to stdout.
inline CliRun run_shell(const std::string& command) {
  CliRun r{0, 0, {}};
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  char buffer[4096];
  while (pipe && fgets(buffer, sizeof buffer, pipe)) r.output += buffer;
  const int raw = pipe ? pclose(pipe) : -1;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.signal = WIFSIGNALED(raw) ? WTERMSIG(raw) : 0;
  return r;
}

// `arguments` go through sh -c after the executable's path, with stderr joined to stdout.
inline CliRun run_cli(const std::string& arguments) { return run_shell(std::string(MYRIAD_CLI) + " " + arguments); }

// A whole file as text ("" when it cannot be read).
inline std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string model_path(const std::string& file) { return std::string(MYRIAD_SOURCE_DIR) + "/models/" + file; }

// A fresh directory for one test, removed by the caller.
inline std::filesystem::path fresh_directory(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("myriad_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// A running `myriad` child with its stderr on a pipe; stdout goes to `stdout_path`.
struct CliChild {
  pid_t pid = -1;
  FILE* stderr_stream = nullptr;
};

inline CliChild spawn_cli(const std::vector<std::string>& arguments, const std::string& stdout_path) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(pipe_fds[1], STDERR_FILENO);
    const int out = ::open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out >= 0) ::dup2(out, STDOUT_FILENO);
    ::close(pipe_fds[0]);
    std::vector<char*> argv;
    std::string program = MYRIAD_CLI;
    argv.push_back(program.data());
    std::vector<std::string> copies = arguments;
    for (std::string& a : copies) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  return {pid, ::fdopen(pipe_fds[0], "r")};
}

// Waits for the child; returns its exit status, or -signal when a signal ended it.
inline int wait_cli(CliChild& child) {
  if (child.stderr_stream) {
    std::fclose(child.stderr_stream);
    child.stderr_stream = nullptr;
  }
  int raw = 0;
  ::waitpid(child.pid, &raw, 0);
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : (WIFSIGNALED(raw) ? -WTERMSIG(raw) : -1000);
}

}  // namespace myriad::test
