#include "counterguard/runner/isolated_runner.hpp"

#include <chrono>
#include <cstdio>
#include <memory>

#include "counterguard/core/atomic_file.hpp"
#include "counterguard/core/interruption.hpp"
#include "counterguard/core/timeline.hpp"
#include "counterguard/measurement/case_result_factory.hpp"
#include "counterguard/profiler/gpu_lock.hpp"
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
  request.expected_chip = options.chip;
  request.wait_for_gpu_seconds = wait_left;
  for (std::size_t i = next; i < instances.size(); ++i) {
    request.instances.push_back(instances[i].name);
    request.archive_indices.push_back(options.archive_indices.empty() ? static_cast<int>(i)
                                                                      : options.archive_indices.at(i));
  }
  const request_file file(request);
  worker_process worker(options.executable, file.path());
  timeline_mark("worker started");
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
      timeline_mark("worker device ready");
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
    if (const std::string uuid = options.gpu_uuid.empty() ? gpu_uuid(options.device) : options.gpu_uuid;
        !uuid.empty()) {
      lock = std::make_unique<gpu_lock>(uuid, options.wait_for_gpu_seconds, [&](const std::string& message) {
        std::fprintf(stderr, "counterguard: %s\n", message.c_str());
      });
    }
  }
  timeline_mark("GPU lock held");
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
