#include "counterguard/runner/isolated_runner.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/interruption.hpp"
#include "counterguard/measurement/case_result_factory.hpp"
#include "counterguard/profiler/gpu_lock.hpp"
#include "counterguard/runner/gpu_worker.hpp"
#include "counterguard/runner/worker_protocol.hpp"

extern char** environ;

namespace counterguard {
namespace {

constexpr int worker_event_fd = 3;

[[noreturn]] void process_failure(const std::string& what) {
  throw environment_error(environment_problem::process,
                          what + ": " + std::strerror(errno) + " (check the process and file limits)");
}

// A pipe whose ends sit above the descriptors the child is given (0-3) and close on exec, so dup2 into
// place in the child can never collide with them.
std::array<int, 2> make_pipe() {
  std::array<int, 2> raw{};
  if (::pipe(raw.data()) != 0)
    process_failure("cannot create a pipe to the GPU worker");
  std::array<int, 2> moved{};
  for (std::size_t i = 0; i < 2; ++i) {
    moved[i] = ::fcntl(raw[i], F_DUPFD_CLOEXEC, 10);
    ::close(raw[i]);
    if (moved[i] < 0)
      process_failure("cannot move the GPU worker's pipe (fcntl)");
  }
  return moved;
}

// The request file a worker reads: removed when the run no longer needs it, however the run ends.
class request_file {
 public:
  explicit request_file(const worker_request& request) {
    std::string path = (std::filesystem::temp_directory_path() / "counterguard-worker-XXXXXX").string();
    const int fd = ::mkstemp(path.data());
    if (fd < 0)
      process_failure("cannot create a temporary file for the GPU worker");
    ::close(fd);
    m_path = path;
    write_file_atomically(m_path, worker_request_to_json(request).dump());
  }
  request_file(const request_file&) = delete;
  request_file& operator=(const request_file&) = delete;
  ~request_file() { std::remove(m_path.c_str()); }
  [[nodiscard]] const std::string& path() const { return m_path; }

 private:
  std::string m_path;
};

// A worker process (in a process group of its own) with its event pipe and stderr pipe.
class worker_process {
 public:
  worker_process(const std::string& executable, const std::string& request_path) {
    const std::array<int, 2> events = make_pipe();
    const std::array<int, 2> errors = make_pipe();
    m_events = events[0];
    m_errors = errors[0];
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, events[1], worker_event_fd);
    posix_spawn_file_actions_adddup2(&actions, errors[1], STDERR_FILENO);
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
    if (status != 0) {
      m_pid = -1;
      errno = status;
      process_failure("cannot start the GPU worker " + executable);
    }
  }
  worker_process(const worker_process&) = delete;
  worker_process& operator=(const worker_process&) = delete;
  ~worker_process() {
    stop();
    ::close(m_events);
    ::close(m_errors);
  }

  enum class wait_result { event, exited, timed_out, interrupted };

  // Waits for the next event line (into `line`), the worker's exit, the timeout or a signal.
  wait_result next_event(std::chrono::duration<double> timeout, std::string& line) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      const auto newline = m_event_buffer.find('\n');
      if (newline != std::string::npos) {
        line = m_event_buffer.substr(0, newline);
        m_event_buffer.erase(0, newline + 1);
        return wait_result::event;
      }
      if (m_events_closed)
        return wait_result::exited;
      if (interruption_guard::pending_signal() != 0)
        return wait_result::interrupted;
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0)
        return wait_result::timed_out;
      std::array<pollfd, 3> fds{pollfd{m_events, POLLIN, 0}, pollfd{m_errors, POLLIN, 0},
                                pollfd{interruption_guard::wake_descriptor(), POLLIN, 0}};
      if (m_errors_closed)
        fds[1].fd = -1;  // poll ignores negative descriptors
      const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(left.count()));
      if (ready < 0)
        continue;
      if (fds[1].revents != 0 && !m_errors_closed)
        m_errors_closed = !relay_stderr();
      if (fds[0].revents != 0)
        m_events_closed = !read_into(m_events, m_event_buffer);
    }
  }

  // Waits for the worker to exit; returns its exit status (or 128 + signal).
  int wait() {
    while (!m_errors_closed)
      m_errors_closed = !relay_stderr();
    int status = 0;
    ::waitpid(m_pid, &status, 0);
    m_pid = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  // Stops the worker's process group: SIGTERM, then SIGKILL after a grace period (CUDA tears down its
  // context and the driver releases the GPU's counters either way).
  void stop() {
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

  // The end of what the worker wrote to stderr, for error messages.
  [[nodiscard]] std::string stderr_tail() const { return m_stderr_tail; }

 private:
  static bool read_into(int fd, std::string& buffer) {
    std::array<char, 65536> chunk{};
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n <= 0)
      return false;
    buffer.append(chunk.data(), static_cast<std::size_t>(n));
    return true;
  }

  // Passes the worker's stderr through (kernels and CUDA may print there) and keeps its tail.
  bool relay_stderr() {
    std::string text;
    if (!read_into(m_errors, text))
      return false;
    std::fwrite(text.data(), 1, text.size(), stderr);
    m_stderr_tail += text;
    if (m_stderr_tail.size() > 2048)
      m_stderr_tail.erase(0, m_stderr_tail.size() - 2048);
    return true;
  }

  pid_t m_pid = -1;
  int m_events = -1;
  int m_errors = -1;
  bool m_events_closed = false;
  bool m_errors_closed = false;
  std::string m_event_buffer;
  std::string m_stderr_tail;
};

void report_progress(const isolated_run_options& options, std::size_t done, std::size_t total,
                     const case_result& result) {
  if (!options.echo_progress)
    return;
  std::fprintf(stderr, "[%zu/%zu] %-7s %s (%.2f s)%s%s\n", done, total, to_string(result.status),
               result.instance.c_str(), result.seconds, result.status_reason.empty() ? "" : ": ",
               result.status_reason.c_str());
}

// What one worker did before it stopped.
struct worker_session {
  bool started = false;  // it reported its device
  bool timed_out = false;
  int status = 0;
  std::string stderr_tail;  // its last words, for the message of the case it was running
};

// Runs one worker over the instances from `next` on, collecting results into `outcome`.
worker_session run_worker_session(const std::vector<case_instance>& instances,
                                  const isolated_run_options& options, double wait_left, std::size_t& next,
                                  isolated_run_outcome& outcome) {
  worker_request request;
  request.suite_paths = options.suite_paths;
  request.extra_metrics = options.extra_metrics;
  request.save_counter_data_dir = options.save_counter_data_dir;
  request.device = options.device;
  request.wait_for_gpu_seconds = wait_left;
  for (std::size_t i = next; i < instances.size(); ++i) {
    request.instances.push_back(instances[i].name);
    request.archive_indices.push_back(static_cast<int>(i));
  }
  const request_file file(request);
  worker_process worker(options.executable, file.path());
  worker_session session;
  std::string line;
  while (next < instances.size()) {
    // Device start-up (CUDA and CUPTI initialisation) gets the same allowance as a case.
    const auto waited = worker.next_event(std::chrono::duration<double>(options.case_timeout_seconds), line);
    if (waited == worker_process::wait_result::interrupted) {
      worker.stop();
      interruption_guard::throw_if_interrupted();
    }
    if (waited == worker_process::wait_result::timed_out) {
      session.timed_out = true;
      worker.stop();
      session.stderr_tail = worker.stderr_tail();
      return session;
    }
    if (waited == worker_process::wait_result::exited)
      break;
    const worker_event event = decode_worker_event(line);
    if (const auto* device = std::get_if<device_ready_event>(&event)) {
      outcome.device = device->device;
      session.started = true;
    } else if (const auto* busy = std::get_if<gpu_busy_event>(&event)) {
      if (options.echo_progress)
        std::fprintf(stderr, "counterguard: %s\n", busy->message.c_str());
    } else if (const auto* result = std::get_if<case_result_event>(&event)) {
      outcome.results.push_back(result->result);
      report_progress(options, next + 1, instances.size(), outcome.results.back());
      ++next;
    } else if (const auto* invalid = std::get_if<input_error_event>(&event)) {
      // The cases ask for counters this device's chip does not have: nothing can run.
      worker.stop();
      throw input_error({}, "", invalid->message);
    } else if (const auto* environment = std::get_if<environment_error_event>(&event)) {
      outcome.environment = environment->problem;
      outcome.environment_message = environment->message;
      worker.stop();
      return session;
    }
  }
  session.status = worker.wait();
  session.stderr_tail = worker.stderr_tail();
  return session;
}

}  // namespace

isolated_run_outcome run_isolated(const std::vector<case_instance>& instances,
                                  const isolated_run_options& options) {
  isolated_run_outcome outcome;
  outcome.results.reserve(instances.size());
  const auto started = std::chrono::steady_clock::now();
  std::unique_ptr<gpu_lock> lock;
  if (options.lock_gpu) {
    if (const std::string uuid = gpu_uuid(options.device); !uuid.empty()) {
      lock = std::make_unique<gpu_lock>(uuid, options.wait_for_gpu_seconds, [&](const std::string& message) {
        std::fprintf(stderr, "counterguard: %s\n", message.c_str());
      });
    }
  }
  std::size_t next = 0;
  while (next < instances.size()) {
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const worker_session session = run_worker_session(
        instances, options, std::max(0.0, options.wait_for_gpu_seconds - waited), next, outcome);
    if (outcome.environment || next >= instances.size())
      break;
    if (!session.started) {
      // Not a case's fault: the worker could not even set up the device.
      throw environment_error(environment_problem::process,
                              "the GPU worker failed before profiling anything (" +
                                  (session.timed_out ? std::string("it stayed silent")
                                                     : "exit status " + std::to_string(session.status)) +
                                  "): " + (session.stderr_tail.empty() ? "no output" : session.stderr_tail));
    }
    // The worker stopped before finishing: the case it was running fails, the rest go on in a new worker.
    if (!session.timed_out && session.status == worker_context_lost_status)
      continue;  // the worker already reported the faulting case; start a new one for the rest
    case_result failed = make_case_result(instances[next]);
    failed.status = case_status::error;
    failed.status_reason = session.timed_out
                               ? "timed out after " +
                                     std::to_string(static_cast<int>(options.case_timeout_seconds)) +
                                     " s (raise --case-timeout if the kernel is legitimately slow)"
                               : "the GPU worker exited with status " + std::to_string(session.status) +
                                     ": " + session.stderr_tail;
    outcome.results.push_back(failed);
    report_progress(options, next + 1, instances.size(), failed);
    ++next;
  }
  return outcome;
}

}  // namespace counterguard
