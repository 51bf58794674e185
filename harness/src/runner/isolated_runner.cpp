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
#include <fstream>
#include <nlohmann/json.hpp>

#include "counterguard/runner/case_result_factory.hpp"
#include "counterguard/runner/gpu_worker.hpp"
#include "counterguard/runner/worker_request.hpp"

extern char** environ;

namespace counterguard {
namespace {

constexpr int worker_event_fd = 3;

// A pipe whose ends sit above the descriptors the child is given (0-3) and close on exec, so dup2 into
// place in the child can never collide with them.
std::array<int, 2> make_pipe() {
  std::array<int, 2> raw{};
  if (::pipe(raw.data()) != 0)
    throw std::runtime_error("pipe() failed");
  std::array<int, 2> moved{};
  for (std::size_t i = 0; i < 2; ++i) {
    moved[i] = ::fcntl(raw[i], F_DUPFD_CLOEXEC, 10);
    ::close(raw[i]);
    if (moved[i] < 0)
      throw std::runtime_error("fcntl(F_DUPFD_CLOEXEC) failed");
  }
  return moved;
}

// A worker process with its event pipe and stderr pipe.
class worker_process {
 public:
  worker_process(const std::string& executable, const std::string& request_file) {
    const std::array<int, 2> events = make_pipe();
    const std::array<int, 2> errors = make_pipe();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, events[1], worker_event_fd);
    posix_spawn_file_actions_adddup2(&actions, errors[1], STDERR_FILENO);
    std::string arg0 = executable;
    std::string arg1 = "__worker";
    std::string arg2 = request_file;
    std::array<char*, 4> argv{arg0.data(), arg1.data(), arg2.data(), nullptr};
    const int status = posix_spawn(&m_pid, executable.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(events[1]);
    ::close(errors[1]);
    m_events = events[0];
    m_errors = errors[0];
    if (status != 0)
      throw std::runtime_error("could not start the GPU worker " + executable);
  }
  worker_process(const worker_process&) = delete;
  worker_process& operator=(const worker_process&) = delete;
  ~worker_process() {
    kill();
    ::close(m_events);
    ::close(m_errors);
  }

  // The next event line, or nothing when the worker exited (eof) or `timeout` passed (timed_out set).
  std::optional<std::string> next_event(std::chrono::duration<double> timeout, bool& timed_out) {
    timed_out = false;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      const auto newline = m_event_buffer.find('\n');
      if (newline != std::string::npos) {
        std::string line = m_event_buffer.substr(0, newline);
        m_event_buffer.erase(0, newline + 1);
        return line;
      }
      if (m_events_closed)
        return std::nullopt;
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        timed_out = true;
        return std::nullopt;
      }
      std::array<pollfd, 2> fds{pollfd{m_events, POLLIN, 0}, pollfd{m_errors, POLLIN, 0}};
      const int ready = ::poll(fds.data(), m_errors_closed ? 1 : 2, static_cast<int>(left.count()));
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

  void kill() {
    if (m_pid <= 0)
      return;
    ::kill(m_pid, SIGKILL);
    ::waitpid(m_pid, nullptr, 0);
    m_pid = -1;
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

std::string write_request_file(const worker_request& request) {
  std::string path = "/tmp/counterguard-worker-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0)
    throw std::runtime_error("could not create a temporary file for the GPU worker");
  ::close(fd);
  std::ofstream(path) << nlohmann::json(request).dump();
  return path;
}

run_results parse_results(const nlohmann::json& event) {
  return event.at("results").get<run_results>();
}

void report_progress(const isolated_run_options& options, std::size_t done, std::size_t total,
                     const case_result& result) {
  if (!options.echo_progress)
    return;
  std::fprintf(stderr, "[%zu/%zu] %-7s %s (%.2f s)%s%s\n", done, total, to_string(result.status),
               result.instance.c_str(), result.seconds, result.status_reason.empty() ? "" : ": ",
               result.status_reason.c_str());
}

}  // namespace

isolated_run_outcome run_isolated(const std::vector<case_instance>& instances,
                                  const isolated_run_options& options) {
  isolated_run_outcome outcome;
  outcome.results.reserve(instances.size());
  std::size_t next = 0;
  while (next < instances.size()) {
    worker_request request;
    request.suite_paths = options.suite_paths;
    request.extra_metrics = options.extra_metrics;
    request.save_counter_data_dir = options.save_counter_data_dir;
    request.device = options.device;
    for (std::size_t i = next; i < instances.size(); ++i) {
      request.instances.push_back(instances[i].name);
      request.archive_indices.push_back(static_cast<int>(i));
    }
    const std::string request_file = write_request_file(request);
    worker_process worker(options.executable, request_file);
    bool started = false;  // the worker reported its device
    bool timed_out = false;
    while (next < instances.size()) {
      // Device start-up (CUDA and CUPTI initialisation) gets the same allowance as a case.
      const auto line =
          worker.next_event(std::chrono::duration<double>(options.case_timeout_seconds), timed_out);
      if (!line)
        break;
      const nlohmann::json event = nlohmann::json::parse(*line);
      const std::string kind = event.at("event");
      if (kind == "device") {
        outcome.device = parse_results(event).metadata;
        started = true;
      } else if (kind == "result") {
        outcome.results.push_back(parse_results(event).cases.at(0));
        report_progress(options, next + 1, instances.size(), outcome.results.back());
        ++next;
      } else if (kind == "input_error") {
        // The cases ask for counters this device's chip does not have: nothing can run.
        worker.kill();
        std::remove(request_file.c_str());
        throw input_error({}, "", event.at("message").get<std::string>());
      } else if (kind == "environment_error") {
        outcome.environment = static_cast<environment_problem>(event.at("problem").get<int>());
        outcome.environment_message = event.at("message");
        worker.kill();
        std::remove(request_file.c_str());
        return outcome;
      }
    }
    if (timed_out)
      worker.kill();
    const int status = timed_out ? -1 : worker.wait();
    std::remove(request_file.c_str());
    if (next >= instances.size())
      break;
    if (!started) {
      // Not a case's fault: the worker could not even set up the device.
      throw std::runtime_error("the GPU worker failed before profiling anything (" +
                               (timed_out ? std::string("timed out") : "status " + std::to_string(status)) +
                               "): " + worker.stderr_tail());
    }
    // The worker stopped before finishing: the case it was running fails, the rest go on in a new worker.
    case_result failed = make_case_result(instances[next]);
    failed.status = case_status::error;
    if (timed_out) {
      failed.status_reason = "timed out after " +
                             std::to_string(static_cast<int>(options.case_timeout_seconds)) +
                             " s (raise --case-timeout if the kernel is legitimately slow)";
    } else if (status == worker_context_lost_status) {
      continue;  // the worker already reported the faulting case; start a new one for the rest
    } else {
      failed.status_reason =
          "the GPU worker exited with status " + std::to_string(status) + ": " + worker.stderr_tail();
    }
    outcome.results.push_back(failed);
    report_progress(options, next + 1, instances.size(), failed);
    ++next;
  }
  return outcome;
}

}  // namespace counterguard
