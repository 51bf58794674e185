// SPDX-License-Identifier: Apache-2.0
// Commands that list what this runner knows: kernels, metric aliases, CUPTI metrics of a chip, case
// instances.
#include "counterguard/pipeline/inventory.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/metrics/metric_definition.hpp"
#include "counterguard/metrics/ncu_launch_metrics.hpp"
#include "counterguard/model/suite_loader.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/reporters/report_output.hpp"

namespace counterguard {

int list_kernels() {
  for (const auto& name : kernel_registry::global().names()) {
    const kernel_definition& definition = *kernel_registry::global().find(name);
    std::fputs(fmt::format("{}\n  {}\n", name, definition.description()).c_str(), stdout);
    for (const auto& function : definition.device_functions())
      std::fputs(fmt::format("  launches {}\n", function).c_str(), stdout);
    for (const auto& p : definition.parameters()) {
      std::fputs(fmt::format("  parameter {} ({}, default {}){}{}\n", p.name, p.default_value.type_name(),
                             p.default_value.to_string(), p.description.empty() ? "" : ": ", p.description)
                     .c_str(),
                 stdout);
    }
    if (definition.required_compute_capability() > 0) {
      std::fputs(
          fmt::format("  needs compute capability {}\n", definition.required_compute_capability()).c_str(),
          stdout);
    }
  }
  return 0;
}

int list_metrics(const std::string& chip, bool raw, const std::string& json, bool ncu) {
  if (ncu) {
    for (const auto& name : ncu_launch_family_names())
      std::fputs((name + "\n").c_str(), stdout);
    return 0;
  }
  if (raw) {
    const metric_name_validator validator(chip);
    for (const auto& base : validator.base_metrics()) {
      for (const auto& suffix : validator.suffixes(base))
        std::fputs((base + suffix + "\n").c_str(), stdout);
    }
    return 0;
  }
  const metric_catalog& catalog = metric_catalog::builtin();
  if (!json.empty()) {
    // Machine-readable, for tools (validation/ncu_crosscheck.py recomputes aliases from ncu's raw counters).
    nlohmann::json list = nlohmann::json::array();
    for (const auto& name : catalog.alias_names()) {
      list.push_back(metric_definition_json(*catalog.find_alias(name)));
    }
    write_report_text(json, list.dump(2) + "\n");
    if (is_standard_output(json))
      return 0;
  }
  for (const auto& name : catalog.alias_names()) {
    const metric_definition& m = *catalog.find_alias(name);
    std::fputs(fmt::format("{:<42} {:<6} {:<16} {}\n", name, to_string(m.cls), to_string(m.direction),
                           m.formula.empty() ? m.description : m.formula)
                   .c_str(),
               stdout);
  }
  return 0;
}

int validate_metrics(const selection_options& selection) {
  const auto instances = select_instances(selection);  // validates every raw name for the chip, or throws
  std::size_t expectations = 0;
  for (const auto& instance : instances)
    expectations += instance.expectations.size();
  std::fputs(fmt::format("{} case instances, {} expectations: every metric is valid for {}\n",
                         instances.size(), expectations, selection.chip)
                 .c_str(),
             stdout);
  return 0;
}

// No GPU and no CUPTI: CMake's counterguard_add_case_tests registers one CTest test per name.
int list_instances(const list_options& options) {
  const kernel_registry& kernels = kernel_registry::global();
  const metric_catalog& metrics = metric_catalog::builtin();
  nlohmann::json listed = nlohmann::json::array();
  {
    for (const auto& instance :
         filter_instances(load_suite_instances(options.paths, kernels, metrics), options.filter)) {
      if (!is_standard_output(options.json))
        std::fputs((instance.name + "\n").c_str(), stdout);
      listed.push_back({{"instance", instance.name},
                        {"suite", instance.suite},
                        {"case", instance.case_name},
                        {"file", instance.suite_path},
                        {"line", instance.where.line}});
    }
  }
  if (!options.json.empty())
    write_report_text(options.json, listed.dump(1) + "\n");
  return 0;
}

}  // namespace counterguard
