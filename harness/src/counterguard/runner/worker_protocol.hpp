// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <variant>
#include <vector>

#include "counterguard/core/error.hpp"
#include "counterguard/planning/worker_plan.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

// The protocol between `counterguard run` and its GPU worker processes (runner/isolated_runner.hpp).
// The parent writes a worker_request to a file and starts `<exe> __worker <file>`; the worker answers with
// one JSON event per line on descriptor 3. Every message is one of the structs below; nothing else goes over
// the pipe.

// What the parent asks a worker to profile. The worker loads the same suites and runs the named instances in
// order, so a kernel that faults or hangs costs only its own case: the parent restarts a worker for the cases
// after it (CUDA cannot recover a context after an illegal address).
struct worker_request {
  std::vector<std::string> suite_paths;
  std::vector<std::string> instances;      // names, in the order to run
  std::vector<int> archive_indices;        // per instance: its number in the counter-data archive
  std::vector<std::string> extra_metrics;  // measured for every case besides those its expectations name
  std::string save_counter_data_dir;       // empty: keep no images
  int device = 0;
  double wait_for_gpu_seconds = 0.0;  // how long to keep retrying while another profiler holds the GPU
  // Streamed (several GPUs share one queue, multi_device_runner.hpp): `instances` lists every case the worker
  // may be given, and the parent hands them out one at a time on the worker's standard input, one line each:
  // "<position in instances> <instance name>". The worker runs each as it arrives and exits at end of input.
  bool streamed = false;
  // The worker takes the GPU's lock (gpu_lock.hpp) itself before it profiles, held until it exits: the parent
  // of a one-GPU run starts it without touching CUDA. False where the parent holds the locks (several GPUs).
  bool lock_gpu = false;
  // The chip the run names (--chip), for which the parent plans the profiler configurations once, while the
  // worker starts: once the worker has reported its device, the parent sends it that plan (worker_plan) as
  // the first line on its standard input, and the worker uses it when the device has this chip (otherwise it
  // checks the metric names and plans for the device's chip itself). Empty: no plan comes; the worker plans
  // once the device is known.
  std::string expected_chip;
};

// {"event": "device"}: the worker set up the device; its description, as results metadata carry it.
struct device_ready_event {
  device_description device;
};
// {"event": "waiting"}: the GPU's counters are held by another process; the worker retries until its wait
// expires. Also a heartbeat: the parent's start-up timeout restarts with each one.
struct gpu_busy_event {
  std::string message;
  double seconds_left = 0.0;
};
// {"event": "begin"}: the worker starts this case (the parent's per-case timeout starts now). `position` is
// the case's index in request.instances: a worker not streamed profiles its cases in an order of its own (by
// profiler configuration), and the result that follows belongs to this position.
struct case_begin_event {
  std::string instance;
  std::size_t position = 0;
};
// {"event": "result"}: the case's result, measured and verified (expectations are checked by the parent).
struct case_result_event {
  case_result result;
};
// {"event": "input_error"}: the cases ask for something this device cannot give (a counter its chip lacks).
struct input_error_event {
  std::string message;
};
// {"event": "environment_error"}: no case can run here (no GPU, no permission, GPU held by another profiler).
struct environment_error_event {
  environment_problem problem = environment_problem::no_gpu;
  std::string message;
};

using worker_event = std::variant<device_ready_event, gpu_busy_event, case_begin_event, case_result_event,
                                  input_error_event, environment_error_event>;

[[nodiscard]] nlohmann::json worker_request_to_json(const worker_request& request);
// Throws input_error naming `file` and the field for a malformed request.
[[nodiscard]] worker_request read_worker_request(const nlohmann::json& document, const std::string& file);

// The plan (worker_plan.hpp) as the line "plan <JSON>" the parent sends on the worker's standard input
// (without the newline), and back; a malformed line is an internal_error, as for events.
[[nodiscard]] std::string encode_worker_plan(const worker_plan& plan);
[[nodiscard]] worker_plan decode_worker_plan(const std::string& line);

// One event as the line the worker writes (without the newline).
[[nodiscard]] std::string encode_worker_event(const worker_event& event);
// Parses one line; a line that is not a known event is an internal_error (the worker and parent are one
// program, so it means a bug, or something else writing to descriptor 3).
[[nodiscard]] worker_event decode_worker_event(const std::string& line);

}  // namespace counterguard
