// SPDX-License-Identifier: Apache-2.0
// The case instances a command works on: suites loaded, expanded and filtered, their metric names checked.
#include "counterguard/pipeline/case_selection.hpp"

#include <algorithm>

#include "counterguard/core/error.hpp"
#include "counterguard/core/input_errors.hpp"
#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/cupti/nvperf_host_library.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/suite_loader.hpp"
#include "counterguard/planning/raw_metric_name_check.hpp"
#include "counterguard/registry/kernel_registry.hpp"

namespace counterguard {

selection_options recorded_selection(selection_options selection, const std::vector<std::string>& suite_paths,
                                     const run_metadata& metadata, const std::string& recording_file) {
  if (selection.paths.empty())
    selection.paths = suite_paths;
  if (!metadata.device.chip.empty()) {
    const std::vector<std::string> known = metric_name_validator::supported_chips();
    if (std::find(known.begin(), known.end(), metadata.device.chip) == known.end()) {
      std::string names;
      for (const auto& chip : known)
        names += (names.empty() ? "" : ", ") + chip;
      throw input_error({recording_file, 0, 0}, "results.metadata.chip",
                        "unknown chip '" + metadata.device.chip + "'", "the installed CUPTI knows: " + names);
    }
    selection.chip = metadata.device.chip;
  }
  return selection;
}

std::vector<case_instance> load_instances(const selection_options& selection) {
  const kernel_registry& kernels = kernel_registry::global();
  const metric_catalog& metrics = metric_catalog::builtin();
  std::vector<case_instance> instances =
      filter_instances(load_suite_instances(selection.paths, kernels, metrics), selection.filter);
  input_error_collector errors;
  for (const auto& instance : instances) {
    if (instance.select && !selection.allow_program_cases) {
      errors.add(input_error(
          instance.where, "select",
          "case '" + instance.name + "' selects kernel launches of a program, it has no registered kernel",
          "run it with `counterguard exec --cases " + instance.suite_path +
              " -- <program>`, and keep such suites apart from those of `run` (docs/exec.md)"));
    }
  }
  errors.throw_if_any();
  return instances;
}

void validate_raw_metric_names(const std::vector<case_instance>& instances, const std::string& chip) {
  const metric_catalog& catalog = metric_catalog::builtin();
  const bool needs_names =
      std::any_of(instances.begin(), instances.end(), [&](const case_instance& instance) {
        return std::any_of(instance.expectations.begin(), instance.expectations.end(),
                           [&](const auto& e) { return !catalog.resolve(e.metric).raw_inputs.empty(); });
      });
  if (!needs_names)
    return;  // static checks only: libnvperf_host is not needed
  const metric_name_validator validator(chip);
  raw_metric_name_check names(catalog, validator);
  input_error_collector errors;  // every unknown name at once (one per expectation: instances share them)
  for (const auto& instance : instances)
    errors.attempt([&] { names.check(instance); });
  errors.throw_if_any();
}

std::vector<case_instance> select_instances(const selection_options& selection) {
  detail::load_nvperf_host_in_background();  // for the metric names' check below, while the suites are read
  std::vector<case_instance> instances = load_instances(selection);
  validate_raw_metric_names(instances, selection.chip);
  return instances;
}

}  // namespace counterguard
