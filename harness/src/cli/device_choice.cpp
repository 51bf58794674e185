// Which GPUs `run` and `baseline update` profile on: --devices, --device, or the GPU ctest assigned.
#include <future>

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

namespace {

// The profiler configuration each instance's worker will profile it with, planned here with the chip the
// names were validated for; empty when the plan fails (the worker then reports the problem with its case).
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
                                       const std::vector<double>& costs, const device_options& devices,
                                       isolated_run_options run, const std::string& chip) {
  run.chip = chip;
  const std::vector<int> chosen = chosen_devices(devices);
  // --devices, even naming one GPU, goes through the queue of run_on_devices (which hands out whole
  // profiler configurations); --device as before.
  if (!devices.devices.empty() && !chosen.empty()) {
    // Planned while the workers start (about 0.2 s on the H200, evidence/h200/multi_gpu).
    auto planned =
        std::async(std::launch::async, [&] { return planned_configurations(instances, run, chip); });
    return run_on_devices(instances, costs, chosen, run, [&] { return planned.get(); });
  }
  // One GPU; or none visible (`--devices all` without a GPU): the worker says why, as `run` does.
  run.device = chosen.empty() ? devices.device : chosen.front();
  // The cases of one profiler configuration one after another (the worker's plan, made here with the chip the
  // names were validated for): fewer re-enabled profilers. Results and archive numbers stay in suite order.
  // The driver initialises (about 0.1 s on the H200, evidence/h200/stages) while the order is planned.
  std::future<std::string> uuid = std::async(std::launch::async, [device = run.device] {
    std::string read = gpu_uuid(device);
    timeline_mark("GPU UUID read");
    return read;
  });
  const std::vector<int> configurations = planned_configurations(instances, run, chip);
  run.gpu_uuid = uuid.get();
  if (configurations.empty())
    return run_isolated(instances, run);  // as given: the worker reports the problem with its case
  const std::vector<std::size_t> order = order_by_configuration(configurations);
  timeline_mark("cases ordered by configuration");
  std::vector<case_instance> ordered;
  ordered.reserve(order.size());
  for (const std::size_t position : order) {
    ordered.push_back(instances[position]);
    run.archive_indices.push_back(static_cast<int>(position));
  }
  isolated_run_outcome outcome = run_isolated(ordered, run);
  if (outcome.results.size() == order.size()) {
    std::vector<case_result> in_suite_order(order.size());
    for (std::size_t k = 0; k < order.size(); ++k)
      in_suite_order[order[k]] = std::move(outcome.results[k]);
    outcome.results = std::move(in_suite_order);
  }
  return outcome;
}

}  // namespace counterguard::detail
