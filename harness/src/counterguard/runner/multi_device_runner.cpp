// SPDX-License-Identifier: Apache-2.0
#include "counterguard/runner/multi_device_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <memory>
#include <optional>

#include "counterguard/baselines/gpu_key.hpp"
#include "counterguard/core/interruption.hpp"
#include "counterguard/measurement/case_result_factory.hpp"
#include "counterguard/planning/case_cost.hpp"
#include "counterguard/profiler/gpu_lock.hpp"
#include "counterguard/runner/case_group_queue.hpp"
#include "counterguard/runner/gpu_worker.hpp"
#include "detail/worker_process.hpp"

namespace counterguard {
namespace {

constexpr std::size_t handout_depth = 2;  // cases handed to a worker ahead of its reports

using detail::request_file;
using detail::worker_process;
using steady = std::chrono::steady_clock;

// One device's worker as the scheduler sees it.
struct device_worker {
  int device = 0;
  std::unique_ptr<request_file> request;
  std::unique_ptr<worker_process> process;
  bool ready = false;       // the running process reported its device
  bool ever_ready = false;  // some process on this device did
  // The positions of the cases it was handed and has not reported, in order: the first is running (`began`)
  // or next; the others wait in its standard input.
  std::deque<std::size_t> handed;
  std::optional<std::size_t> group;                         // the case (group) of the last one handed
  bool began = false;                                       // it said it started the first one
  bool input_closed = false;                                // told there is no more work
  steady::time_point deadline = steady::time_point::max();  // silent past this: killed
  device_description description;
  bool retired = false;  // no work left for it
};

std::string describe_device(const device_worker& worker) {
  return "device " + std::to_string(worker.device) + " (" + worker.description.name + ", GPU key " +
         make_gpu_key(worker.description) + ")";
}

class device_scheduler {
 public:
  device_scheduler(const std::vector<case_instance>& instances, const std::vector<double>& costs,
                   const std::vector<int>& devices, const isolated_run_options& options,
                   std::function<std::vector<int>()> configurations)
      : m_instances(instances),
        m_options(options),
        m_results(instances.size()),
        m_costs(costs),
        m_configurations(std::move(configurations)) {
    m_started = steady::now();
    if (options.lock_gpu) {
      // In the order of the GPUs' UUIDs, whatever order --devices names them in: two runs that want the
      // same GPUs queue behind each other instead of each holding one and waiting for the other.
      std::vector<std::string> uuids;
      uuids.reserve(devices.size());
      for (std::size_t i = 0; i < devices.size(); ++i) {
        if (std::string uuid = i < options.gpu_uuids.size() ? options.gpu_uuids[i] : gpu_uuid(devices[i]);
            !uuid.empty())
          uuids.push_back(std::move(uuid));
      }
      std::sort(uuids.begin(), uuids.end());
      for (const auto& uuid : uuids) {
        m_locks.push_back(std::make_unique<gpu_lock>(uuid, wait_left(), [](const std::string& message) {
          std::fprintf(stderr, "counterguard: %s\n", message.c_str());
        }));
      }
    }
    worker_request request;
    request.suite_paths = options.suite_paths;
    request.extra_metrics = options.extra_metrics;
    request.save_counter_data_dir = options.save_counter_data_dir;
    request.wait_for_gpu_seconds = wait_left();
    request.streamed = true;
    if (options.plan.valid())
      request.expected_chip = options.chip;
    for (std::size_t i = 0; i < instances.size(); ++i) {
      request.instances.push_back(instances[i].name);
      request.archive_indices.push_back(static_cast<int>(i));
    }
    m_workers.resize(devices.size());
    for (std::size_t i = 0; i < devices.size(); ++i) {
      request.device = devices[i];
      m_workers[i].device = devices[i];
      m_workers[i].request = std::make_unique<request_file>(request);
      start(m_workers[i]);
    }
  }

  isolated_run_outcome run() {
    isolated_run_outcome outcome;
    while (m_finished < m_instances.size()) {
      interruption_guard::throw_if_interrupted();
      wait_for_activity();
      for (auto& worker : m_workers) {
        std::string line;
        while (worker.process && worker.process->take_event(line)) {
          if (!handle_event(worker, decode_worker_event(line), outcome))
            return outcome;  // an environment problem: nothing can run
        }
        if (worker.process && worker.process->finished())
          handle_exit(worker);
        else if (worker.process && steady::now() >= worker.deadline)
          handle_silence(worker);
      }
      if (!m_dispatching && std::all_of(m_workers.begin(), m_workers.end(),
                                        [](const device_worker& w) { return w.ready || w.retired; })) {
        check_gpu_keys();
        m_dispatching = true;
      }
      if (m_dispatching)
        dispatch();
    }
    drain();
    outcome.device = m_workers.front().description;
    outcome.results.reserve(m_results.size());
    for (auto& result : m_results)
      outcome.results.push_back(std::move(*result));
    return outcome;
  }

 private:
  double wait_left() const {
    const double waited = std::chrono::duration<double>(steady::now() - m_started).count();
    return std::max(0.0, m_options.wait_for_gpu_seconds - waited);
  }

  void start(device_worker& worker) {
    worker.process = std::make_unique<worker_process>(m_options.executable, worker.request->path(), true);
    worker.ready = false;
    worker.handed.clear();
    worker.began = false;
    worker.input_closed = false;
    // Device start-up (CUDA and CUPTI initialisation) gets the same allowance as a case.
    worker.deadline = steady::now() + std::chrono::duration_cast<steady::duration>(
                                          std::chrono::duration<double>(m_options.case_timeout_seconds));
  }

  void wait_for_activity() {
    std::vector<pollfd> fds;
    auto deadline = steady::now() + std::chrono::seconds(1);
    for (const auto& worker : m_workers) {
      if (!worker.process)
        continue;
      fds.push_back(worker.process->events_poll());
      fds.push_back(worker.process->errors_poll());
      deadline = std::min(deadline, worker.deadline);
    }
    fds.push_back(pollfd{interruption_guard::wake_descriptor(), POLLIN, 0});
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - steady::now());
    if (::poll(fds.data(), fds.size(), static_cast<int>(std::max<std::int64_t>(0, left.count()))) < 0)
      return;
    std::size_t next = 0;
    for (auto& worker : m_workers) {
      if (!worker.process)
        continue;
      worker.process->service(fds[next], fds[next + 1]);
      next += 2;
    }
  }

  // False when the run must stop with an environment problem (recorded in `outcome`).
  bool handle_event(device_worker& worker, const worker_event& event, isolated_run_outcome& outcome) {
    if (const auto* device = std::get_if<device_ready_event>(&event)) {
      worker.description = device->device;
      worker.ready = worker.ever_ready = true;
      if (m_options.plan.valid()) {
        // The run's plan, before any case (its request lists every instance: positions are the run's).
        static_cast<void>(worker.process->send(encode_worker_plan(m_options.plan.get()) + "\n"));
      }
      worker.deadline = steady::time_point::max();
      if (m_dispatching)
        check_gpu_keys();  // a restarted worker must still see the same kind of GPU
    } else if (const auto* busy = std::get_if<gpu_busy_event>(&event)) {
      if (m_options.echo_progress)
        std::fprintf(stderr, "counterguard: device %d: %s\n", worker.device, busy->message.c_str());
      restart_clock(worker);
    } else if (std::holds_alternative<case_begin_event>(event)) {
      worker.began = true;
      restart_clock(worker);  // the case's own allowance, whatever waited before it
    } else if (const auto* result = std::get_if<case_result_event>(&event)) {
      if (worker.handed.empty() || result->result.instance != m_instances[worker.handed.front()].name)
        throw internal_error("the GPU worker on device " + std::to_string(worker.device) +
                             " reported a case it was not given: " + result->result.instance);
      finish(worker, result->result);
    } else if (const auto* invalid = std::get_if<input_error_event>(&event)) {
      // The cases ask for counters this device's chip does not have: nothing can run.
      throw input_error({}, "", invalid->message);
    } else if (const auto* environment = std::get_if<environment_error_event>(&event)) {
      outcome.environment = environment->problem;
      outcome.environment_message = environment->message;
      return false;
    }
    return true;
  }

  void restart_clock(device_worker& worker) const {
    worker.deadline = steady::now() + std::chrono::duration_cast<steady::duration>(
                                          std::chrono::duration<double>(m_options.case_timeout_seconds));
  }

  void finish(device_worker& worker, case_result result) {
    const std::size_t position = worker.handed.front();
    worker.handed.pop_front();
    worker.began = false;
    if (worker.handed.empty())
      worker.deadline = steady::time_point::max();
    else
      restart_clock(worker);  // the next one is already in its input
    m_results[position] = std::move(result);
    ++m_finished;
    if (m_options.echo_progress) {
      const case_result& r = *m_results[position];
      std::fprintf(stderr, "[%zu/%zu] %-7s %s (%.2f s, GPU %d)%s%s\n", m_finished, m_results.size(),
                   to_string(r.status), r.instance.c_str(), r.seconds, worker.device,
                   r.status_reason.empty() ? "" : ": ", r.status_reason.c_str());
    }
    if (!m_stopped_after && m_options.stop_after &&
        m_options.stop_after(position, *m_results[position], worker.description)) {
      // --fail-fast: nothing more is started; what the workers hold already finishes.
      m_stopped_after = m_instances[position].name;
      while (const std::optional<std::size_t> left = queue().take(std::nullopt, {}))
        skip_not_run(*left);
    }
  }

  void skip_not_run(std::size_t position) {
    m_results[position] = not_run_result(m_instances[position], *m_stopped_after);
    ++m_finished;
  }

  void fail_current(device_worker& worker, const std::string& reason) {
    case_result failed = make_case_result(m_instances[worker.handed.front()]);
    failed.status = case_status::error;
    failed.status_reason = reason;
    finish(worker, std::move(failed));
  }

  // The cases a stopped worker was handed and never began go back to the front of the queue, in order.
  void put_back_handed(device_worker& worker) {
    for (auto it = worker.handed.rbegin(); it != worker.handed.rend(); ++it) {
      if (m_stopped_after)
        skip_not_run(*it);
      else
        queue().put_back(*it);
    }
    worker.handed.clear();
    worker.began = false;
  }

  // After a worker ends: the case it was running fails (unless it was never started), and a new worker takes
  // over the device while cases are left.
  void after_worker(device_worker& worker) {
    worker.process.reset();
    worker.ready = false;
    if (queue().empty() && worker.handed.empty())
      worker.retired = true;
    else
      start(worker);
  }

  void handle_exit(device_worker& worker) {
    const int status = worker.process->wait();
    const std::string tail = worker.process->stderr_tail();
    if (!worker.ever_ready) {
      // Not a case's fault: the worker could not even set up the device.
      throw environment_error(environment_problem::process,
                              "the GPU worker for device " + std::to_string(worker.device) +
                                  " failed before profiling anything (exit status " + std::to_string(status) +
                                  "): " + (tail.empty() ? "no output" : tail));
    }
    if (!worker.handed.empty() && (worker.began || status != worker_context_lost_status)) {
      // (Not begun after a lost context: it was handed the case just as it stopped after another case.)
      fail_current(worker, "the GPU worker exited with status " + std::to_string(status) + ": " + tail);
    }
    put_back_handed(worker);
    after_worker(worker);
  }

  void handle_silence(device_worker& worker) {
    worker.process->stop();
    if (!worker.ready) {
      throw environment_error(
          environment_problem::process,
          "the GPU worker for device " + std::to_string(worker.device) +
              " failed before profiling anything (it stayed silent): " +
              (worker.process->stderr_tail().empty() ? "no output" : worker.process->stderr_tail()));
    }
    if (worker.handed.empty()) {
      after_worker(worker);  // it had nothing left to do and did not exit when told
      return;
    }
    fail_current(worker, "timed out after " +
                             std::to_string(static_cast<int>(m_options.case_timeout_seconds)) +
                             " s (raise --case-timeout if the kernel is legitimately slow)");
    put_back_handed(worker);
    after_worker(worker);
  }

  // Every case has its result: the workers still running are told there is no more work and given a moment
  // to exit on their own (the destructor stops any that do not).
  void drain() {
    for (auto& worker : m_workers) {
      if (worker.process)
        worker.process->close_input();
    }
    const auto until = steady::now() + std::chrono::seconds(10);
    const auto running = [&] {
      return std::any_of(m_workers.begin(), m_workers.end(),
                         [](const device_worker& w) { return w.process && !w.process->finished(); });
    };
    while (running() && steady::now() < until && interruption_guard::pending_signal() == 0) {
      wait_for_activity();
      std::string ignored;
      for (auto& worker : m_workers) {
        while (worker.process && worker.process->take_event(ignored)) {
        }
      }
    }
    for (auto& worker : m_workers) {
      if (worker.process && worker.process->finished()) {
        static_cast<void>(worker.process->wait());
        worker.process.reset();
      }
    }
  }

  void check_gpu_keys() const {
    const device_worker* reference = nullptr;
    for (const auto& worker : m_workers) {
      if (!worker.ever_ready)
        continue;
      if (reference == nullptr) {
        reference = &worker;
        continue;
      }
      if (make_gpu_key(worker.description) != make_gpu_key(reference->description)) {
        throw input_error({}, "--devices",
                          describe_device(*reference) + " and " + describe_device(worker) +
                              " have different GPU keys; one run compares every case with the baselines of "
                              "one key",
                          "run the devices of each key separately (--devices with the ordinals of one key)");
      }
    }
  }

  // A case handed ahead waits in the worker's standard input and starts the moment the worker reports the
  // one before, instead of a round trip through the parent later. Only up to `handout_depth`, only from the
  // group the worker is on (it never claims a group another worker could start), and only while the queue is
  // long (near the end an idle worker may need the case to help).
  bool may_hand_ahead(const device_worker& worker) {
    return worker.handed.size() < handout_depth && worker.group && queue().holds(*worker.group) &&
           queue().size() > m_workers.size() * handout_depth;
  }

  // Keeps each ready worker busy (ahead where may_hand_ahead allows). Once the queue is empty, a worker's
  // input is closed: it exits when it has run what it holds.
  void dispatch() {
    for (auto& worker : m_workers) {
      if (!worker.process || !worker.ready || worker.input_closed)
        continue;
      while (!queue().empty() && (worker.handed.empty() || may_hand_ahead(worker))) {
        std::vector<std::size_t> busy_groups;
        for (const auto& other : m_workers) {
          for (const std::size_t position : other.handed)
            busy_groups.push_back(queue().group_of(position));
        }
        const std::size_t position = *queue().take(worker.group, busy_groups);
        if (worker.handed.empty())
          restart_clock(worker);
        worker.handed.push_back(position);
        worker.group = queue().group_of(position);
        // A worker that died meanwhile is noticed when its events end (handle_exit).
        static_cast<void>(
            worker.process->send(std::to_string(position) + " " + m_instances[position].name + "\n"));
      }
      if (queue().empty()) {
        worker.process->close_input();
        worker.input_closed = true;
        if (worker.handed.empty())
          restart_clock(worker);  // it has a case's allowance to exit
      }
    }
  }

  // The queue, made when first needed: the plan of configurations may still be in the making before.
  case_group_queue& queue() {
    if (!m_queue)
      m_queue.emplace(m_instances, m_costs, m_configurations ? m_configurations() : std::vector<int>{});
    return *m_queue;
  }

  const std::vector<case_instance>& m_instances;
  const isolated_run_options& m_options;
  std::vector<std::optional<case_result>> m_results;
  std::vector<double> m_costs;
  std::function<std::vector<int>()> m_configurations;
  std::optional<case_group_queue> m_queue;
  std::size_t m_finished = 0;
  std::optional<std::string> m_stopped_after;  // --fail-fast: the instance whose failure stopped the run
  bool m_dispatching = false;
  steady::time_point m_started;
  std::vector<std::unique_ptr<gpu_lock>> m_locks;  // released after the workers are stopped
  std::vector<device_worker> m_workers;
};

}  // namespace

isolated_run_outcome run_on_devices(const std::vector<case_instance>& instances,
                                    const std::vector<double>& costs, const std::vector<int>& devices,
                                    const isolated_run_options& options,
                                    const std::function<std::vector<int>()>& configurations) {
  if (devices.empty() || costs.size() != instances.size())
    throw internal_error("run_on_devices: needs at least one device and one cost per instance");
  if (instances.empty())
    return {};
  device_scheduler scheduler(instances, costs, devices, options, configurations);
  return scheduler.run();
}

}  // namespace counterguard
