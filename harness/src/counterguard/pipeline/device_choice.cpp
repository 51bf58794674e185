// SPDX-License-Identifier: Apache-2.0
// Which GPUs `run` and `baseline update` profile on: --devices, --device, or the GPU ctest assigned.
#include "counterguard/pipeline/device_choice.hpp"

#include <algorithm>
#include <future>
#include <optional>
#include <utility>

#include "counterguard/core/decimal_digits.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/timeline.hpp"
#include "counterguard/pipeline/run_identity.hpp"
#include "counterguard/planning/worker_configurations.hpp"
#include "counterguard/profiler/gpu_lock.hpp"
#include "counterguard/runner/device_selection.hpp"
#include "counterguard/runner/multi_device_runner.hpp"

namespace counterguard {
namespace {

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos)
    return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

device_list parse_device_list(const std::string& text, const std::string& field) {
  device_list devices;
  if (trimmed(text) == "all") {
    devices.all = true;
    return devices;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const std::string item = trimmed(text.substr(start, comma == std::string::npos ? comma : comma - start));
    const std::optional<int> parsed = parse_decimal_digits(item, 4);
    if (!parsed)
      throw input_error({}, field, "'" + text + "' is not a device list",
                        "all, or CUDA device ordinals separated by commas (0,1)");
    const int ordinal = *parsed;
    if (std::find(devices.ordinals.begin(), devices.ordinals.end(), ordinal) != devices.ordinals.end())
      throw input_error({}, field, "device " + item + " is named twice in '" + text + "'",
                        "each device once (one worker per GPU)");
    devices.ordinals.push_back(ordinal);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return devices;
}

std::vector<int> chosen_devices(const device_options& options) {
  if (!options.devices.empty())
    return resolve_devices(parse_device_list(options.devices));
  if (!options.device_given) {
    if (const std::optional<int> assigned = ctest_assigned_device())
      return {*assigned};
  }
  return {options.device};
}

device_lookup::device_lookup(device_options options) : m_options(std::move(options)) {
  std::optional<device_list> listed;
  if (!m_options.devices.empty())
    listed = parse_device_list(m_options.devices);
  // Without --devices nothing is looked up: the answer is made when asked for, on no thread of its own.
  m_found = std::async(listed ? std::launch::async : std::launch::deferred, [listed, options = m_options] {
              found lookup;
              if (!listed) {
                lookup.devices = chosen_devices(options);  // no CUDA: the worker locks its GPU itself
                return lookup;
              }
              lookup.devices = resolve_devices(*listed);
              for (const int device : lookup.devices)
                lookup.uuids.push_back(gpu_uuid(device));
              timeline_mark("GPU UUIDs read");
              return lookup;
            }).share();
}

const device_lookup::found& device_lookup::get() const {
  return m_found.get();
}

isolated_run_options worker_options(const std::vector<std::string>& suite_paths,
                                    const std::vector<std::string>& extra_metrics,
                                    double case_timeout_seconds, double wait_for_gpu_seconds) {
  isolated_run_options run;
  run.executable = self_executable();
  run.suite_paths = suite_paths;
  run.extra_metrics = extra_metrics;
  run.case_timeout_seconds = case_timeout_seconds;
  run.wait_for_gpu_seconds = wait_for_gpu_seconds;
  return run;
}

isolated_run_outcome profile_instances(const std::vector<case_instance>& instances,
                                       const std::vector<double>& costs, const device_lookup& devices,
                                       isolated_run_options run, const std::string& chip) {
  // The run's profiler configurations, planned once for its --chip while the workers start (about 0.2 s on
  // the H200, validation/multi_gpu_checks.sh); each worker gets them once it reports its device.
  run.chip = chip;
  run.plan = std::async(std::launch::async, [&instances, extra_metrics = run.extra_metrics, chip] {
               worker_plan plan = plan_for_run(instances, extra_metrics, chip);
               timeline_mark("profiler configurations planned");
               return plan;
             }).share();
  const device_lookup::found& found = devices.get();
  // --devices, even naming one GPU, goes through the queue of run_on_devices (which hands out whole
  // profiler configurations); --device as before.
  if (!devices.options().devices.empty() && !found.devices.empty()) {
    run.gpu_uuids = found.uuids;
    const std::shared_future<worker_plan> plan = run.plan;
    return run_on_devices(instances, costs, found.devices, run, [plan] {
      const worker_plan& planned = plan.get();
      return planned.planned && planned.problem.empty() ? planned.configuration_of : std::vector<int>{};
    });
  }
  // One GPU; or none visible (`--devices all` without a GPU): the worker says why, as `run` does. It runs the
  // cases of one configuration one after another; results and archive numbers stay in suite order.
  run.device = found.devices.empty() ? devices.options().device : found.devices.front();
  return run_isolated(instances, run);
}

}  // namespace counterguard
