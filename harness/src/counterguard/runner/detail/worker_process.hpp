// SPDX-License-Identifier: Apache-2.0
#pragma once
// A GPU worker process as the parent sees it (isolated_runner.cpp, multi_device_runner.cpp): started as
// `<exe> __worker <request file>` in a process group of its own, answering with one event per line on
// descriptor 3 (worker_protocol.hpp).

#include <poll.h>
#include <sys/types.h>

#include <chrono>
#include <string>

#include "counterguard/runner/worker_protocol.hpp"

namespace counterguard::detail {

// The descriptor the worker writes its events to.
inline constexpr int worker_event_fd = 3;

// Throws environment_error (process) with `what` and errno's text.
[[noreturn]] void process_failure(const std::string& what);

// The request file a worker reads: removed when the run no longer needs it, however the run ends.
class request_file {
 public:
  explicit request_file(const worker_request& request);
  request_file(const request_file&) = delete;
  request_file& operator=(const request_file&) = delete;
  ~request_file();
  [[nodiscard]] const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

// A worker process (in a process group of its own) with its event pipe and stderr pipe, and, for a streamed
// request, a socket on its standard input through which the parent hands it one case at a time.
class worker_process {
 public:
  worker_process(const std::string& executable, const std::string& request_path, bool with_input = false);
  worker_process(const worker_process&) = delete;
  worker_process& operator=(const worker_process&) = delete;
  ~worker_process();

  enum class wait_result { event, exited, timed_out, interrupted };

  // Waits for the next event line (into `line`), the worker's exit, the timeout or a signal.
  wait_result next_event(std::chrono::duration<double> timeout, std::string& line);

  // For polling several workers at once: the two descriptors to watch (events, stderr; -1 once closed),
  // then `service` with the two pollfd entries poll() filled in.
  [[nodiscard]] pollfd events_poll() const;
  [[nodiscard]] pollfd errors_poll() const;
  void service(const pollfd& events, const pollfd& errors);
  // The next complete event line, if one has arrived.
  bool take_event(std::string& line);
  // The worker closed its event pipe (it exited or is exiting) and every event was taken.
  [[nodiscard]] bool finished() const {
    return m_events_closed && m_event_buffer.find('\n') == std::string::npos;
  }

  // Writes one line to the worker's standard input (streamed requests); false when the worker is gone.
  bool send(const std::string& line);
  // Closes its standard input: a streamed worker finishes its case and exits.
  void close_input();

  // Waits for the worker to exit; returns its exit status (or 128 + signal).
  int wait();
  // Lets the worker finish exiting on its own: this object no longer stops or waits for it.
  void detach() { m_pid = -1; }
  // Stops the worker's process group: SIGTERM, then SIGKILL after a grace period (CUDA tears down its
  // context and the driver releases the GPU's counters either way).
  void stop();
  // The end of what the worker wrote to stderr, for error messages.
  [[nodiscard]] std::string stderr_tail() const { return m_stderr_tail; }

 private:
  bool relay_stderr();

  pid_t m_pid = -1;
  int m_events = -1;
  int m_errors = -1;
  int m_input = -1;
  bool m_events_closed = false;
  bool m_errors_closed = false;
  std::string m_event_buffer;
  std::string m_stderr_tail;
};

}  // namespace counterguard::detail
