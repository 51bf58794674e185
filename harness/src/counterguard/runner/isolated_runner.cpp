// SPDX-License-Identifier: Apache-2.0
#include "counterguard/runner/isolated_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/interruption.hpp"
#include "counterguard/core/timeline.hpp"
#include "counterguard/measurement/case_result_factory.hpp"
#include "counterguard/planning/worker_configurations.hpp"
#include "counterguard/runner/gpu_worker.hpp"
#include "counterguard/runner/worker_protocol.hpp"
#include "detail/worker_process.hpp"

namespace counterguard {
namespace {

using detail::request_file;
using detail::worker_process;

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
  std::optional<std::size_t> stopped_after;  // --fail-fast stopped it after this instance failed
  int status = 0;
  std::string stderr_tail;  // its last words, for the message of the case it was running
  // The instance it began and did not report (its index in the run's instances).
  std::optional<std::size_t> running;
};

}  // namespace

// A worker that delivered every result and is exiting: CUDA tears its context down (about 0.1 s on the H200,
// validation/gpu_checks.sh suite_time) while the parent writes its reports and ends. It holds the GPU's lock
// until it has exited, so whatever profiles that GPU next waits for it; wait_for_exiting_worker waits here
// instead.
class exiting_worker {
 public:
  exiting_worker(std::unique_ptr<request_file> file, std::unique_ptr<worker_process> process)
      : m_file(std::move(file)), m_process(std::move(process)) {}
  exiting_worker(const exiting_worker&) = delete;
  exiting_worker& operator=(const exiting_worker&) = delete;
  ~exiting_worker() { m_process->detach(); }
  void wait() { static_cast<void>(m_process->wait()); }

 private:
  std::unique_ptr<request_file> m_file;
  std::unique_ptr<worker_process> m_process;
};

namespace {

// The results of a run so far: one slot per instance, filled as workers report them.
struct run_progress {
  explicit run_progress(std::size_t instances) : results(instances), done(instances, false) {}
  std::vector<case_result> results;
  std::vector<bool> done;
  std::size_t finished = 0;

  void record(std::size_t index, case_result result, const isolated_run_options& options) {
    results[index] = std::move(result);
    done[index] = true;
    ++finished;
    report_progress(options, finished, results.size(), results[index]);
  }
  [[nodiscard]] bool complete() const { return finished == results.size(); }
};

// Runs one worker over the instances not yet done, in the order it chooses (the begin event names each case's
// position), collecting results into `progress`. A worker that delivered everything goes to outcome.exiting.
worker_session run_worker_session(const std::vector<case_instance>& instances,
                                  const isolated_run_options& options, double wait_left,
                                  run_progress& progress, isolated_run_outcome& outcome) {
  worker_request request;
  request.suite_paths = options.suite_paths;
  request.extra_metrics = options.extra_metrics;
  request.save_counter_data_dir = options.save_counter_data_dir;
  request.device = options.device;
  const bool planned = options.plan.valid();
  if (planned)
    request.expected_chip = options.chip;
  request.wait_for_gpu_seconds = wait_left;
  request.lock_gpu = options.lock_gpu;
  std::vector<std::size_t> handed;  // request position -> index in `instances`
  for (std::size_t i = 0; i < instances.size(); ++i) {
    if (progress.done[i])
      continue;
    handed.push_back(i);
    request.instances.push_back(instances[i].name);
    request.archive_indices.push_back(options.archive_indices.empty() ? static_cast<int>(i)
                                                                      : options.archive_indices.at(i));
  }
  auto file = std::make_unique<request_file>(request);
  auto worker = std::make_unique<worker_process>(options.executable, file->path(), planned);
  timeline_mark("worker started");
  worker_session session;
  std::string line;
  // Device start-up (CUDA and CUPTI initialisation) gets the same allowance as a case, and more while the
  // worker waits for the GPU.
  double allowance = options.case_timeout_seconds;
  while (!progress.complete()) {
    const auto waited = worker->next_event(std::chrono::duration<double>(allowance), line);
    allowance = options.case_timeout_seconds;
    if (waited == worker_process::wait_result::interrupted) {
      worker->stop();
      interruption_guard::throw_if_interrupted();
    }
    if (waited == worker_process::wait_result::timed_out) {
      session.timed_out = true;
      worker->stop();
      session.stderr_tail = worker->stderr_tail();
      return session;
    }
    if (waited == worker_process::wait_result::exited)
      break;
    const worker_event event = decode_worker_event(line);
    if (const auto* device = std::get_if<device_ready_event>(&event)) {
      timeline_mark("worker device ready");
      outcome.device = device->device;
      session.started = true;
      if (planned) {
        // Its part of the run's plan; a worker that died meanwhile is noticed when its events end.
        static_cast<void>(
            worker->send(encode_worker_plan(plan_for_positions(options.plan.get(), handed)) + "\n"));
        worker->close_input();
      }
    } else if (const auto* busy = std::get_if<gpu_busy_event>(&event)) {
      if (options.echo_progress)
        std::fprintf(stderr, "counterguard: %s\n", busy->message.c_str());
      allowance = std::max(allowance, busy->seconds_left + options.case_timeout_seconds);
    } else if (const auto* begin = std::get_if<case_begin_event>(&event)) {
      if (begin->position >= handed.size() || instances[handed[begin->position]].name != begin->instance)
        throw internal_error("the GPU worker began a case it was not given: " + begin->instance);
      session.running = handed[begin->position];
    } else if (const auto* result = std::get_if<case_result_event>(&event)) {
      if (!session.running || instances[*session.running].name != result->result.instance)
        throw internal_error("the GPU worker reported a case it had not begun: " + result->result.instance);
      const std::size_t index = *session.running;
      progress.record(index, result->result, options);
      session.running.reset();
      if (options.stop_after && !progress.complete() &&
          options.stop_after(index, progress.results[index], outcome.device)) {
        worker->stop();
        session.stopped_after = index;
        return session;
      }
    } else if (const auto* invalid = std::get_if<input_error_event>(&event)) {
      // The cases ask for counters this device's chip does not have: nothing can run.
      worker->stop();
      throw input_error({}, "", invalid->message);
    } else if (const auto* environment = std::get_if<environment_error_event>(&event)) {
      outcome.environment = environment->problem;
      outcome.environment_message = environment->message;
      worker->stop();
      return session;
    }
  }
  if (progress.complete()) {
    outcome.exiting = std::make_shared<exiting_worker>(std::move(file), std::move(worker));
    return session;
  }
  session.status = worker->wait();
  session.stderr_tail = worker->stderr_tail();
  return session;
}

}  // namespace

isolated_run_outcome run_isolated(const std::vector<case_instance>& instances,
                                  const isolated_run_options& options) {
  isolated_run_outcome outcome;
  const auto started = std::chrono::steady_clock::now();
  run_progress progress(instances.size());
  while (!progress.complete()) {
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const worker_session session = run_worker_session(
        instances, options, std::max(0.0, options.wait_for_gpu_seconds - waited), progress, outcome);
    if (outcome.environment || progress.complete())
      break;
    if (session.stopped_after) {
      for (std::size_t i = 0; i < instances.size(); ++i) {
        if (!progress.done[i])
          progress.record(i, not_run_result(instances[i], instances[*session.stopped_after].name), options);
      }
      break;
    }
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
    // Between cases (no case begun): the first one left fails, so that every new worker makes progress.
    const std::size_t index =
        session.running
            ? *session.running
            : static_cast<std::size_t>(std::find(progress.done.begin(), progress.done.end(), false) -
                                       progress.done.begin());
    case_result failed = make_case_result(instances[index]);
    failed.status = case_status::error;
    failed.status_reason = session.timed_out
                               ? "timed out after " +
                                     std::to_string(static_cast<int>(options.case_timeout_seconds)) +
                                     " s (raise --case-timeout if the kernel is legitimately slow)"
                               : "the GPU worker exited with status " + std::to_string(session.status) +
                                     ": " + session.stderr_tail;
    progress.record(index, std::move(failed), options);
  }
  // Only finished instances (an environment problem stops the run before the rest).
  for (std::size_t i = 0; i < instances.size(); ++i) {
    if (progress.done[i])
      outcome.results.push_back(std::move(progress.results[i]));
  }
  return outcome;
}

std::string not_run_reason(const std::string& failed) {
  return "not run: --fail-fast stopped the run after " + failed + " failed";
}

case_result not_run_result(const case_instance& instance, const std::string& failed) {
  case_result result = make_case_result(instance);
  result.status = case_status::skipped;
  result.status_reason = not_run_reason(failed);
  return result;
}

void wait_for_exiting_worker(isolated_run_outcome& outcome) {
  if (outcome.exiting)
    outcome.exiting->wait();
  outcome.exiting.reset();
}

}  // namespace counterguard
