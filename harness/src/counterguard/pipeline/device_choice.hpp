// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <future>
#include <string>
#include <vector>

#include "counterguard/model/case_instance.hpp"
#include "counterguard/runner/device_selection.hpp"
#include "counterguard/runner/isolated_runner.hpp"

namespace counterguard {

// The GPUs a profiling command uses (docs/scaling.md).
struct device_options {
  int device = 0;             // --device N
  bool device_given = false;  // --device was on the command line (else ctest's assignment wins)
  std::string devices;        // --devices all|0,1,...: one worker per GPU; empty: one GPU
};

// Parses "all" or a comma-separated list of distinct ordinals; anything else is an input_error naming
// `field`.
[[nodiscard]] device_list parse_device_list(const std::string& text, const std::string& field = "--devices");

// The devices to profile on: --devices, else --device, else the GPU ctest assigned
// (CTEST_RESOURCE_GROUP_0_GPUS), else device 0. Empty when `--devices all` finds no GPU.
[[nodiscard]] std::vector<int> chosen_devices(const device_options& options);

// chosen_devices and, for --devices, their UUIDs (the parent locks them), looked up on a thread of its own
// from when it is made: the CUDA driver initialises (about 0.1 s on the H200, validation/h200.md) while
// the suites are read. Without --devices nothing touches CUDA (the one worker locks its GPU). A malformed
// --devices list is an input_error at once.
class device_lookup {
 public:
  struct found {
    std::vector<int> devices;
    std::vector<std::string> uuids;  // with --devices, one per device ("" where the driver gave none)
  };
  explicit device_lookup(device_options options);
  // Waits for the lookup; rethrows what it threw (a device that does not exist: input_error).
  [[nodiscard]] const found& get() const;
  [[nodiscard]] const device_options& options() const { return m_options; }

 private:
  device_options m_options;
  std::shared_future<found> m_found;
};

// What the GPU workers of `run` and `baseline update` are started with: this program, the suites, the
// metrics measured besides the cases' own, and the timeouts.
[[nodiscard]] isolated_run_options worker_options(const std::vector<std::string>& suite_paths,
                                                  const std::vector<std::string>& extra_metrics,
                                                  double case_timeout_seconds, double wait_for_gpu_seconds);

// Profiles on the devices `devices` found: with --devices, one worker per GPU fed from one queue
// (run_on_devices, also for a single GPU); else run_isolated on the one device (or on `options.device` when
// `--devices all` found none, so the worker reports why), whose worker profiles the cases of one profiler
// configuration one after another. The profiler configurations are planned once, for `chip`, while the
// workers start (plan_for_run). Results come back in the order given.
[[nodiscard]] isolated_run_outcome profile_instances(const std::vector<case_instance>& instances,
                                                     const std::vector<double>& costs,
                                                     const device_lookup& devices, isolated_run_options run,
                                                     const std::string& chip);

}  // namespace counterguard
