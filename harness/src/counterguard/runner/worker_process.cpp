// SPDX-License-Identifier: Apache-2.0
#include "detail/worker_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/interruption.hpp"

extern char** environ;

namespace counterguard::detail {
namespace {

// Moves both descriptors above those the child is given (0-3) and marks them close-on-exec, so dup2 into
// place in the child can never collide with them.
std::array<int, 2> moved_up(std::array<int, 2> raw, const char* what) {
  std::array<int, 2> moved{};
  for (std::size_t i = 0; i < 2; ++i) {
    moved[i] = ::fcntl(raw[i], F_DUPFD_CLOEXEC, 10);
    ::close(raw[i]);
    if (moved[i] < 0)
      process_failure(std::string("cannot move the GPU worker's ") + what + " (fcntl)");
  }
  return moved;
}

std::array<int, 2> make_pipe() {
  std::array<int, 2> raw{};
  if (::pipe(raw.data()) != 0)
    process_failure("cannot create a pipe to the GPU worker");
  return moved_up(raw, "pipe");
}

// A socket rather than a pipe for the worker's input: send(MSG_NOSIGNAL) to a worker that died fails with
// EPIPE instead of raising SIGPIPE in the parent.
std::array<int, 2> make_input_socket() {
  std::array<int, 2> raw{};
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, raw.data()) != 0)
    process_failure("cannot create a socket to the GPU worker");
  return moved_up(raw, "socket");
}

bool read_into(int fd, std::string& buffer) {
  std::array<char, 65536> chunk{};
  const ssize_t n = ::read(fd, chunk.data(), chunk.size());
  if (n < 0 && (errno == EINTR || errno == EAGAIN))
    return true;
  if (n <= 0)
    return false;
  buffer.append(chunk.data(), static_cast<std::size_t>(n));
  return true;
}

}  // namespace

void process_failure(const std::string& what) {
  throw environment_error(environment_problem::process,
                          what + ": " + std::strerror(errno) + " (check the process and file limits)");
}

request_file::request_file(const worker_request& request) {
  std::string path = (std::filesystem::temp_directory_path() / "counterguard-worker-XXXXXX").string();
  const int fd = ::mkstemp(path.data());
  if (fd < 0)
    process_failure("cannot create a temporary file for the GPU worker");
  ::close(fd);
  m_path = path;
  write_file_atomically(m_path, worker_request_to_json(request).dump());
}

request_file::~request_file() {
  std::remove(m_path.c_str());
}

worker_process::worker_process(const std::string& executable, const std::string& request_path,
                               bool with_input) {
  const std::array<int, 2> events = make_pipe();
  const std::array<int, 2> errors = make_pipe();
  std::array<int, 2> input{-1, -1};
  if (with_input)
    input = make_input_socket();
  m_events = events[0];
  m_errors = errors[0];
  m_input = input[0];
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, events[1], worker_event_fd);
  posix_spawn_file_actions_adddup2(&actions, errors[1], STDERR_FILENO);
  if (with_input)
    posix_spawn_file_actions_adddup2(&actions, input[1], STDIN_FILENO);
  // Its own process group: a terminal's Ctrl-C reaches only the parent, which stops the worker (and
  // anything it started) as a group.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::string arg0 = executable;
  std::string arg1 = "__worker";
  std::string arg2 = request_path;
  std::array<char*, 4> argv{arg0.data(), arg1.data(), arg2.data(), nullptr};
  const int status = posix_spawn(&m_pid, executable.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(events[1]);
  ::close(errors[1]);
  if (with_input)
    ::close(input[1]);
  if (status != 0) {
    m_pid = -1;
    errno = status;
    process_failure("cannot start the GPU worker " + executable);
  }
}

worker_process::~worker_process() {
  stop();
  ::close(m_events);
  ::close(m_errors);
  if (m_input >= 0)
    ::close(m_input);
}

worker_process::wait_result worker_process::next_event(std::chrono::duration<double> timeout,
                                                       std::string& line) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (take_event(line))
      return wait_result::event;
    if (m_events_closed)
      return wait_result::exited;
    if (interruption_guard::pending_signal() != 0)
      return wait_result::interrupted;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      return wait_result::timed_out;
    std::array<pollfd, 3> fds{events_poll(), errors_poll(),
                              pollfd{interruption_guard::wake_descriptor(), POLLIN, 0}};
    if (::poll(fds.data(), fds.size(), static_cast<int>(left.count())) < 0)
      continue;
    service(fds[0], fds[1]);
  }
}

pollfd worker_process::events_poll() const {
  return pollfd{m_events_closed ? -1 : m_events, POLLIN, 0};  // poll ignores negative descriptors
}

pollfd worker_process::errors_poll() const {
  return pollfd{m_errors_closed ? -1 : m_errors, POLLIN, 0};
}

void worker_process::service(const pollfd& events, const pollfd& errors) {
  if (errors.fd >= 0 && errors.revents != 0 && !m_errors_closed)
    m_errors_closed = !relay_stderr();
  if (events.fd >= 0 && events.revents != 0 && !m_events_closed)
    m_events_closed = !read_into(m_events, m_event_buffer);
}

bool worker_process::take_event(std::string& line) {
  const auto newline = m_event_buffer.find('\n');
  if (newline == std::string::npos)
    return false;
  line = m_event_buffer.substr(0, newline);
  m_event_buffer.erase(0, newline + 1);
  return true;
}

bool worker_process::send(const std::string& line) {
  if (m_input < 0)
    return false;
  std::size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::send(m_input, line.data() + written, line.size() - written, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

void worker_process::close_input() {
  if (m_input >= 0)
    ::close(m_input);
  m_input = -1;
}

int worker_process::wait() {
  while (!m_errors_closed)
    m_errors_closed = !relay_stderr();
  int status = 0;
  ::waitpid(m_pid, &status, 0);
  m_pid = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void worker_process::stop() {
  if (m_pid <= 0)
    return;
  const pid_t group = m_pid;  // the worker leads its own process group
  m_pid = -1;
  ::kill(-group, SIGTERM);
  bool exited = false;
  for (int i = 0; i < 40 && !exited; ++i) {
    exited = ::waitpid(group, nullptr, WNOHANG) == group;
    if (!exited)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(-group, SIGKILL);  // whatever is left of the group
  if (!exited)
    ::waitpid(group, nullptr, 0);
}

// Passes the worker's stderr through (kernels and CUDA may print there) and keeps its tail.
bool worker_process::relay_stderr() {
  std::string text;
  if (!read_into(m_errors, text))
    return false;
  std::fwrite(text.data(), 1, text.size(), stderr);
  m_stderr_tail += text;
  if (m_stderr_tail.size() > 2048)
    m_stderr_tail.erase(0, m_stderr_tail.size() - 2048);
  return true;
}

}  // namespace counterguard::detail
