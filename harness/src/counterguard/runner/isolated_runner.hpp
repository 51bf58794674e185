// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/core/error.hpp"
#include "counterguard/model/case_instance.hpp"
#include "counterguard/results/run_results.hpp"
#include "counterguard/runner/worker_protocol.hpp"

namespace counterguard {

struct isolated_run_options {
  std::string executable;  // this program (/proc/self/exe), started as `<exe> __worker`
  std::vector<std::string> suite_paths;
  std::vector<std::string> extra_metrics;
  std::string save_counter_data_dir;
  int device = 0;
  // The run's profiler configurations for its --chip, `chip` (plan_for_run), planned once while the workers
  // start: each worker is sent its part once it reports its device (worker_request::expected_chip). None
  // (not valid): each worker plans for itself once its device is known.
  std::string chip;
  std::shared_future<worker_plan> plan;
  double case_timeout_seconds = 120.0;  // a case that reports nothing for this long is killed
  // How long to wait for a GPU that another counterguard (or profiler) holds before giving up (exit 3).
  double wait_for_gpu_seconds = 600.0;
  // Profile under the GPU's lock (gpu_lock.hpp): run_isolated's worker takes it itself, before it profiles
  // (the parent does not touch CUDA); run_on_devices takes every device's before starting the workers.
  bool lock_gpu = true;
  std::vector<std::string> gpu_uuids;  // run_on_devices: each device's, in its order; empty: asked there
  bool echo_progress = true;           // one line per case on stderr
  // The --save-counter-data archive number of each instance (empty: its position), so that instances profiled
  // in another order than the suites' keep the archive numbers `evaluate` expects.
  std::vector<int> archive_indices;
  // --fail-fast: asked about each result as it arrives (its instance's index, the device that ran it); true
  // stops the run: no further case is started, and the cases not run come back skipped (not_run_reason).
  std::function<bool(std::size_t index, const case_result& result, const device_description& device)>
      stop_after;
};

// The status reason of a case --fail-fast kept from running, after `failed` (an instance name) failed.
[[nodiscard]] std::string not_run_reason(const std::string& failed);

// A skipped result for `instance` with that reason.
[[nodiscard]] case_result not_run_result(const case_instance& instance, const std::string& failed);

class exiting_worker;

struct isolated_run_outcome {
  device_description device;                       // as the worker described it
  std::vector<case_result> results;                // one per instance, in the same order
  std::optional<environment_problem> environment;  // set when no worker could profile at all
  std::string environment_message;
  // The worker that delivered every result, still exiting (CUDA tears its context down, about 0.1 s on the
  // H200) and holding the GPU's lock till then; left to finish on its own.
  std::shared_ptr<exiting_worker> exiting;
};

// Profiles the instances in worker processes (worker_protocol.hpp), enforcing the per-case timeout. Each
// worker runs in its own process group. With an interruption_guard alive, a signal stops the workers and
// throws interrupted_error; setting up a worker that fails throws environment_error (process).
[[nodiscard]] isolated_run_outcome run_isolated(const std::vector<case_instance>& instances,
                                                const isolated_run_options& options);

// Waits until the outcome's exiting worker has exited (before this process profiles its GPU again).
void wait_for_exiting_worker(isolated_run_outcome& outcome);

}  // namespace counterguard
