// SPDX-License-Identifier: Apache-2.0
// `counterguard static --binary PROGRAM --cases F.yaml`: the static expectations of a suite's cases checked
// against the kernels compiled into a program, with no GPU. A case with `select:` takes the kernels its
// kernel pattern names; a registered variant's case takes its device functions by name.
#include "detail/static_binary_checks.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "counterguard/checker/expectation_checker.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/exec/empty_selection.hpp"
#include "counterguard/measurement/case_result_factory.hpp"
#include "counterguard/measurement/fill_measurements.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/launch_context.hpp"
#include "counterguard/pipeline/run_identity.hpp"
#include "counterguard/pipeline/static_checks.hpp"
#include "counterguard/planning/metric_plan.hpp"
#include "counterguard/registry/kernel_registry.hpp"

namespace counterguard {
namespace {

constexpr std::size_t listed_kernels = 12;

bool selects(const case_instance& instance, const kernel_resources& kernel) {
  if (instance.select)
    return instance.select->kernel && instance.select->matches_kernel(names_of_kernel(kernel.mangled));
  const kernel_definition* definition = kernel_registry::global().find(instance.kernel);
  if (definition == nullptr)
    return false;
  const auto& functions = definition->device_functions();
  return std::find(functions.begin(), functions.end(), kernel.function) != functions.end();
}

std::string kernel_list(const std::vector<binary_resources>& binaries) {
  std::set<std::string> names;
  for (const auto& binary : binaries) {
    for (const auto& kernel : binary.kernels)
      names.insert(kernel.function);
  }
  std::string text;
  std::size_t listed = 0;
  for (const auto& name : names) {
    if (listed++ == listed_kernels)
      break;
    text += (text.empty() ? "'" : ", '") + name + "'";
  }
  if (names.size() > listed_kernels)
    text += " and " + std::to_string(names.size() - listed_kernels) + " more";
  return text.empty() ? std::string("none") : text;
}

// "did you mean 'ns::kernel'? " for a registered variant whose .launches() names none of the binaries'
// kernels.
std::string closest_kernel_hint(const case_instance& instance,
                                const std::vector<binary_resources>& binaries) {
  const kernel_definition* definition = kernel_registry::global().find(instance.kernel);
  if (instance.select || definition == nullptr)
    return {};
  std::vector<std::string> names;
  for (const auto& binary : binaries) {
    for (const auto& kernel : binary.kernels) {
      if (std::find(names.begin(), names.end(), kernel.function) == names.end())
        names.push_back(kernel.function);
    }
  }
  std::string hint;
  for (const auto& function : definition->device_functions())
    hint += did_you_mean(function, closest_names(function, names, 1));
  return hint;
}

}  // namespace

run_results static_binary_results(const std::vector<binary_resources>& binaries,
                                  const std::vector<case_instance>& instances,
                                  const std::string& command_line) {
  run_results results;
  results.metadata = host_metadata("static", command_line);
  results.metadata.counters_not_run = static_command_reason;
  std::string files;
  for (const auto& binary : binaries)
    files += (files.empty() ? "" : ", ") + binary.path;
  for (const auto& instance : instances) {
    case_result result = make_case_result(instance);
    if (instance.skip_reason || (instance.select && !instance.select->kernel)) {
      result.status = case_status::skipped;
      result.status_reason = instance.skip_reason
                                 ? *instance.skip_reason
                                 : "selects launches by NVTX range only; a static check needs a "
                                   "kernel name (select: {kernel: ...})";
      results.cases.push_back(std::move(result));
      continue;
    }
    // The matching kernels, per architecture (a fat binary holds one cubin per architecture).
    std::map<std::string, std::vector<kernel_resources>> by_architecture;
    for (const auto& binary : binaries) {
      for (const auto& kernel : binary.kernels) {
        if (selects(instance, kernel))
          by_architecture[kernel.architecture].push_back(kernel);
      }
    }
    if (by_architecture.empty()) {
      if (result.kernel.empty() && instance.select)
        result.kernel = instance.select->describe();
      result.checks.push_back(empty_selection_check(
          instance, "selected_kernels",
          "no kernel in " + files + " matches (" +
              (instance.select ? instance.select->describe() : "kernel '" + instance.kernel + "'") + "); " +
              closest_kernel_hint(instance, binaries) + "its kernels: " + kernel_list(binaries)));
      results.cases.push_back(std::move(result));
      continue;
    }
    const metric_plan plan = plan_metrics(instance, metric_catalog::builtin());
    for (const auto& [architecture, kernels] : by_architecture) {
      case_instance labelled = instance;
      if (by_architecture.size() > 1) {
        labelled.name += (instance.name.find('?') == std::string::npos ? "?arch=" : ",arch=") + architecture;
        labelled.parameters.emplace_back("arch", parameter_value(architecture));
      }
      case_result measured = make_case_result(labelled);
      if (measured.kernel.empty() && instance.select)
        measured.kernel = instance.select->describe();
      std::vector<std::string> functions;
      for (const auto& kernel : kernels) {
        if (std::find(functions.begin(), functions.end(), kernel.function) == functions.end())
          functions.push_back(kernel.function);
      }
      fill_static_measurements(measured, plan, functions, kernels);
      check_static_expectations(instance, measured);
      results.cases.push_back(std::move(measured));
    }
  }
  return results;
}

void print_selection_failures(const run_results& results) {
  for (const auto& result : results.cases) {
    for (const auto& check : result.checks) {
      if (check.failing && (check.origin == "selection" || check.origin == "program"))
        std::fprintf(stderr, "counterguard: %s\n", check.message.c_str());
    }
  }
}

}  // namespace counterguard
