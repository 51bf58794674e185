// SPDX-License-Identifier: Apache-2.0
#include "counterguard/exec/exec_cases.hpp"

#include <memory>
#include <set>

#include "counterguard/core/error.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/cupti/metric_name_validator.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/suite_loader.hpp"
#include "counterguard/planning/metric_plan.hpp"

namespace counterguard {
namespace {

// A registered variant's instance under exec: every launch in its NVTX range, as many as `run` profiles.
constexpr std::int64_t launches_per_registered_case = 1024;

// The launches inside the NVTX range named after the instance: what `counterguard launch` marks.
launch_selector registered_case_selector(const case_instance& instance) {
  launch_selector selector;
  nvtx_selector nvtx;
  nvtx.path.push_back(name_pattern::exact(instance.name));
  selector.nvtx = std::move(nvtx);
  selector.max_launches = launches_per_registered_case;
  selector.where = instance.where;
  return selector;
}

case_instance command_line_instance(const exec_case_request& request) {
  case_instance instance;
  const std::size_t slash = request.name.find('/');
  instance.suite = request.name.substr(0, slash);
  instance.case_name = request.name.substr(slash + 1);
  instance.name = request.name;
  instance.select = request.selector;
  return instance;
}

}  // namespace

std::vector<case_instance> exec_case_instances(std::vector<case_instance> suite_instances,
                                               const std::vector<exec_case_request>& command_line_cases,
                                               const std::string& filter) {
  std::vector<case_instance> instances = std::move(suite_instances);
  for (auto& instance : instances) {
    if (!instance.select)
      instance.select = registered_case_selector(instance);
  }
  std::vector<case_instance> flagged;
  flagged.reserve(command_line_cases.size());
  for (const auto& request : command_line_cases)
    flagged.push_back(command_line_instance(request));
  flagged = filter_instances(std::move(flagged), filter);
  instances.insert(instances.end(), flagged.begin(), flagged.end());
  std::set<std::string> names;
  for (const auto& instance : instances) {
    if (!names.insert(instance.name).second)
      throw input_error(instance.where, "name", "case instance '" + instance.name + "' is selected twice");
  }
  return instances;
}

std::vector<exec_case_request> command_line_cases(const selector_flags& flags,
                                                  const std::vector<std::string>& extra_metrics) {
  if (flags.kernel_name.empty() && flags.nvtx_include.empty())
    return {};
  if (extra_metrics.empty()) {
    throw input_error({}, "--metric", "--kernel-name/--nvtx-include select launches but no metric is named",
                      "name what to measure: --metric dram__bytes_read.sum (repeatable; aliases from "
                      "docs/metrics.md work too), or give --cases with expectations");
  }
  return {exec_case_request{"exec/selection", selector_from_flags(flags), {}}};
}

std::vector<exec_case_request> exec_requests(const std::vector<case_instance>& instances,
                                             const std::vector<std::string>& extra_metrics) {
  std::vector<exec_case_request> requests;
  for (const auto& instance : instances) {
    if (instance.skip_reason)
      continue;
    exec_case_request request;
    request.name = instance.name;
    request.selector = *instance.select;
    const metric_plan plan = plan_metrics(instance, metric_catalog::builtin(), extra_metrics);
    request.raw_metrics = plan.raw_cupti;
    request.own_configuration = measures_noisy_metric(instance, plan);
    requests.push_back(std::move(request));
  }
  return requests;
}

void validate_extra_metrics(const std::vector<std::string>& names, const std::string& chip) {
  const metric_catalog& catalog = metric_catalog::builtin();
  std::unique_ptr<metric_name_validator> validator;
  for (const auto& name : names) {
    if (catalog.find_alias(name) != nullptr)
      continue;
    if (!catalog.knows(name)) {
      throw input_error({}, "--metric", metric_catalog::unknown_metric_problem(name),
                        did_you_mean(name, catalog.closest_aliases(name)) +
                            "a metric is an alias from docs/metrics.md, one of ncu's launch__ or "
                            "device__attribute_ names listed there, or a raw CUPTI name such as "
                            "'dram__bytes_read.sum'");
    }
    if (!validator)
      validator = std::make_unique<metric_name_validator>(chip);
    for (const auto& raw : catalog.resolve(name).raw_inputs) {
      if (!validator->is_valid(raw)) {
        throw input_error({}, "--metric", "no CUPTI metric '" + raw + "' on chip " + chip,
                          "did you mean: " + comma_list(validator->suggestions(raw)));
      }
    }
  }
}

}  // namespace counterguard
