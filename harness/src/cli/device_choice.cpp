// Which GPUs `run` and `baseline update` profile on: --devices, --device, or the GPU ctest assigned.
#include "commands.hpp"
#include "counterguard/runner/device_selection.hpp"
#include "counterguard/runner/multi_device_runner.hpp"

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

isolated_run_outcome profile_instances(const std::vector<case_instance>& instances,
                                       const std::vector<double>& costs, const device_options& devices,
                                       isolated_run_options run) {
  const std::vector<int> chosen = chosen_devices(devices);
  // --devices, even naming one GPU, goes through the queue of run_on_devices; --device as before.
  if (!devices.devices.empty() && !chosen.empty())
    return run_on_devices(instances, costs, chosen, run);
  // One GPU; or none visible (`--devices all` without a GPU): the worker says why, as `run` does.
  run.device = chosen.empty() ? devices.device : chosen.front();
  return run_isolated(instances, run);
}

}  // namespace counterguard::detail
