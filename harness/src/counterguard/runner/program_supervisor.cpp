// SPDX-License-Identifier: Apache-2.0
#include "counterguard/runner/program_supervisor.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "counterguard/core/error.hpp"
#include "counterguard/core/interruption.hpp"

extern char** environ;

namespace counterguard {
namespace {

using clock_type = std::chrono::steady_clock;

bool is_executable_file(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::vector<std::string> merged_environment(
    const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::map<std::string, std::string> values;
  std::vector<std::string> order;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const std::size_t equals = text.find('=');
    const std::string key = text.substr(0, equals);
    if (values.emplace(key, equals == std::string::npos ? "" : text.substr(equals + 1)).second)
      order.push_back(key);
  }
  for (const auto& [key, value] : overrides) {
    if (values.count(key) == 0)
      order.push_back(key);
    values[key] = value;
  }
  std::vector<std::string> result;
  result.reserve(order.size());
  for (const auto& key : order)
    result.push_back(key + "=" + values[key]);
  return result;
}

// A descriptor that becomes readable when the child exits (pidfd), or -1 where the kernel has none.
int exit_descriptor(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  static_cast<void>(pid);
  return -1;
#endif
}

// Whether a process of the group still runs. Zombies do not count: they hold no GPU, and one reparented to a
// PID 1 that does not reap (a container's) would otherwise look alive forever.
bool group_alive(pid_t group) {
  if (::kill(-group, 0) != 0)
    return false;
  std::error_code status;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", status)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
      continue;
    std::ifstream in(entry.path() / "stat");
    std::string text;
    std::getline(in, text);
    // pid (comm) state ppid pgrp ...: the command may hold spaces and parentheses, so parse after the last
    // ')'.
    const std::size_t close = text.rfind(')');
    if (close == std::string::npos)
      continue;
    std::istringstream fields(text.substr(close + 1));
    char state = 0;
    long parent = 0;
    long process_group = 0;
    fields >> state >> parent >> process_group;
    if (process_group == group && state != 'Z' && state != 'X')
      return true;
  }
  return false;
}

// SIGTERM to the group, up to `grace` for it to go, then SIGKILL; reaps `leader` if still unreaped.
void stop_group(pid_t group, double grace, bool leader_reaped, int* status) {
  ::kill(-group, SIGTERM);
  const auto deadline = clock_type::now() + std::chrono::duration<double>(grace);
  while (clock_type::now() < deadline) {
    if (!leader_reaped && ::waitpid(group, status, WNOHANG) == group)
      leader_reaped = true;
    if (leader_reaped && !group_alive(group))
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::kill(-group, SIGKILL);
  if (!leader_reaped)
    ::waitpid(group, status, 0);
}

}  // namespace

std::string resolve_program(const std::string& name) {
  if (name.empty())
    return {};
  if (name.find('/') != std::string::npos)
    return is_executable_file(name) ? name : std::string();
  const char* path = std::getenv("PATH");
  std::string directories = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t begin = 0;
  while (begin <= directories.size()) {
    const std::size_t end = directories.find(':', begin);
    std::string directory =
        directories.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    if (directory.empty())
      directory = ".";
    std::string candidate = directory + "/" + name;
    if (is_executable_file(candidate))
      return candidate;
    if (end == std::string::npos)
      break;
    begin = end + 1;
  }
  return {};
}

program_outcome run_program(const program_launch& launch) {
  program_outcome outcome;
  outcome.argv = launch.argv;
  outcome.timeout_seconds = launch.timeout_seconds;
  if (launch.argv.empty())
    throw input_error({}, "program", "no program given",
                      "name it after '--': counterguard exec -- ./app args");
  const std::string path = resolve_program(launch.argv.front());
  if (path.empty()) {
    throw input_error({}, "program", "cannot find an executable '" + launch.argv.front() + "'",
                      "give the path of a program, or a name found in PATH");
  }

  // Everything the child needs is prepared here: between fork and exec it only makes system calls.
  std::vector<std::string> arguments = launch.argv;
  std::vector<char*> argv;
  argv.reserve(arguments.size() + 1);
  for (auto& argument : arguments)
    argv.push_back(argument.data());
  argv.push_back(nullptr);
  std::vector<std::string> environment = merged_environment(launch.environment);
  std::vector<char*> envp;
  envp.reserve(environment.size() + 1);
  for (auto& entry : environment)
    envp.push_back(entry.data());
  envp.push_back(nullptr);

  std::array<int, 2> failure{};  // the child writes errno here when exec fails; closes on a successful exec
  if (::pipe2(failure.data(), O_CLOEXEC) != 0) {
    throw environment_error(
        environment_problem::process,
        std::string("cannot create a pipe to start the program: ") + std::strerror(errno));
  }
  const pid_t parent = ::getpid();
  const auto started = clock_type::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    ::close(failure[0]);
    ::close(failure[1]);
    throw environment_error(environment_problem::process,
                            std::string("cannot start the program (fork): ") + std::strerror(error));
  }
  if (pid == 0) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent)
      ::_exit(127);
    // The parent's signal handling (interruption_guard) must not leak into the program.
    for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGPIPE})
      ::signal(signal_number, SIG_DFL);
    ::execve(path.c_str(), argv.data(), envp.data());
    const int error = errno;
    [[maybe_unused]] const ssize_t ignored = ::write(failure[1], &error, sizeof(error));
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here: whichever runs first, the group exists before it is signalled
  ::close(failure[1]);
  int exec_error = 0;
  const ssize_t got = ::read(failure[0], &exec_error, sizeof(exec_error));
  ::close(failure[0]);
  int status = 0;
  if (got == static_cast<ssize_t>(sizeof(exec_error))) {
    ::waitpid(pid, &status, 0);
    throw input_error({}, "program", "cannot run '" + path + "': " + std::strerror(exec_error),
                      "give a program this user may execute");
  }

  const int exited_fd = exit_descriptor(pid);
  while (true) {
    if (::waitpid(pid, &status, WNOHANG) == pid)
      break;
    if (interruption_guard::wake_descriptor() >= 0 && interruption_guard::pending_signal() != 0) {
      stop_group(pid, launch.leftover_grace_seconds, false, &status);
      if (exited_fd >= 0)
        ::close(exited_fd);
      interruption_guard::throw_if_interrupted();
    }
    int wait_ms = exited_fd >= 0 ? 1000 : 10;
    if (launch.timeout_seconds > 0.0) {
      const double left =
          launch.timeout_seconds - std::chrono::duration<double>(clock_type::now() - started).count();
      if (left <= 0.0) {
        outcome.timed_out = true;
        stop_group(pid, launch.leftover_grace_seconds, false, &status);
        break;
      }
      wait_ms = std::min(wait_ms, static_cast<int>(left * 1000.0) + 1);
    }
    std::array<pollfd, 2> fds{pollfd{exited_fd, POLLIN, 0},
                              pollfd{interruption_guard::wake_descriptor(), POLLIN, 0}};
    ::poll(fds.data(), fds.size(), wait_ms);
  }
  if (exited_fd >= 0)
    ::close(exited_fd);
  outcome.seconds = std::chrono::duration<double>(clock_type::now() - started).count();
  if (!outcome.timed_out) {
    if (WIFEXITED(status)) {
      outcome.exit_status = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
      outcome.signal = WTERMSIG(status);
      outcome.core_dumped = WCOREDUMP(status);
    }
    // Children the program left running (a rank, a daemon) hold GPUs and counters: they go too.
    if (group_alive(pid))
      stop_group(pid, launch.leftover_grace_seconds, true, &status);
  }
  return outcome;
}

}  // namespace counterguard
