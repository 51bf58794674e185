// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <vector>

#include "counterguard/model/case_instance.hpp"
#include "counterguard/runner/isolated_runner.hpp"

namespace counterguard {

// Profiles the instances on several GPUs of one host at once (`--devices`): one worker process per device,
// each behind that device's lock (gpu_lock.hpp), fed one case at a time from a single queue ordered longest
// first by `costs` (one per instance; case_cost.hpp). A worker that faults or stays silent past the per-case
// timeout fails its own case and is restarted on its device for the rest, as with one GPU.
//
// The results come back in the instances' order, whichever device ran which case, so the results file does
// not depend on the schedule. Identical GPUs share baselines, so every device must report the GPU key of the
// first one in `devices` (whose description the outcome carries); devices of different keys are an
// input_error before any case is handed out. options.device is ignored. With an interruption_guard alive, a
// signal stops every worker and throws interrupted_error.
// `configurations`: gives the profiler configuration of each instance (instance_configurations), so that the
// queue hands out whole configurations (case_group_queue.hpp); called once, when the first case is handed
// out, so the plan can be made while the workers start; empty, or none given: by case.
[[nodiscard]] isolated_run_outcome run_on_devices(
    const std::vector<case_instance>& instances, const std::vector<double>& costs,
    const std::vector<int>& devices, const isolated_run_options& options,
    const std::function<std::vector<int>()>& configurations = {});

}  // namespace counterguard
