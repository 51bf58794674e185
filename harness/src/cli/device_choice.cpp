// Which GPUs `run` and `baseline update` profile on: --devices, --device, or the GPU ctest assigned.
#include <future>
#include <optional>
#include <utility>

#include "commands.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/timeline.hpp"
#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/profiler/gpu_lock.hpp"
#include "counterguard/runner/device_selection.hpp"
#include "counterguard/runner/multi_device_runner.hpp"
#include "counterguard/runner/worker_configurations.hpp"

namespace counterguard::detail {

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

namespace {

// The profiler configuration each instance's worker will profile it with (--devices), planned here for the
// run's --chip; empty when the plan fails (the worker then reports the problem, an unknown metric name too).
std::vector<int> planned_configurations(const std::vector<case_instance>& instances,
                                        const isolated_run_options& run, const std::string& chip) {
  try {
    const metric_name_validator validator(chip);
    return instance_configurations(
        instances, run.extra_metrics, metric_catalog::builtin(),
        [&](const std::vector<std::string>& metrics) { return validator.pass_count(metrics); },
        configuration_sharing_from_environment());
  } catch (const input_error&) {
    return {};
  }
}

}  // namespace

isolated_run_outcome profile_instances(const std::vector<case_instance>& instances,
                                       const std::vector<double>& costs, const device_lookup& devices,
                                       isolated_run_options run, const std::string& chip) {
  run.chip = chip;
  const device_lookup::found& found = devices.get();
  // --devices, even naming one GPU, goes through the queue of run_on_devices (which hands out whole
  // profiler configurations); --device as before.
  if (!devices.options().devices.empty() && !found.devices.empty()) {
    run.gpu_uuids = found.uuids;
    // Planned while the workers start (about 0.2 s on the H200, validation/multi_gpu_checks.sh).
    auto planned =
        std::async(std::launch::async, [&] { return planned_configurations(instances, run, chip); });
    return run_on_devices(instances, costs, found.devices, run, [&] { return planned.get(); });
  }
  // One GPU; or none visible (`--devices all` without a GPU): the worker says why, as `run` does. The worker
  // plans the profiler configurations itself while CUDA starts, and runs the cases of one configuration one
  // after another; results and archive numbers stay in suite order.
  run.device = found.devices.empty() ? devices.options().device : found.devices.front();
  return run_isolated(instances, run);
}

}  // namespace counterguard::detail
