#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "commands.hpp"
#include "counterguard/build_info.hpp"
#include "counterguard/checker/expectation_checker.hpp"
#include "counterguard/measurement/case_measurement.hpp"
#include "counterguard/measurement/case_result_factory.hpp"
#include "counterguard/measurement/metric_plan.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/statics/embedded_resource_report.hpp"

namespace counterguard::detail {
namespace {

// A variant whose device function has no compiler report would silently pass every static check.
std::string missing_reports(const kernel_definition& definition) {
  std::string missing;
  for (const auto& function : definition.device_functions()) {
    if (find_kernel_resources(embedded_kernel_resources(), function) == nullptr) {
      missing += (missing.empty() ? "" : ", ") + function;
    }
  }
  return missing;
}

}  // namespace

run_results static_results(const std::vector<case_instance>& instances, const std::string& command_line) {
  run_results results;
  results.metadata = host_metadata("static", command_line);
  for (const auto& instance : instances) {
    case_result result = make_case_result(instance);
    if (instance.skip_reason) {
      result.status = case_status::skipped;
      result.status_reason = *instance.skip_reason;
      results.cases.push_back(std::move(result));
      continue;
    }
    const kernel_definition& definition = *kernel_registry::global().find(instance.kernel);
    if (const std::string missing = missing_reports(definition); !missing.empty()) {
      result.status = case_status::error;
      result.status_reason = "no compiler resource report for " + missing +
                             " (is the name in .launches() spelled as the compiler demangles it?)";
      results.cases.push_back(std::move(result));
      continue;
    }
    const metric_plan plan = plan_metrics(instance, metric_catalog::builtin());
    fill_static_measurements(result, plan, definition.device_functions(), embedded_kernel_resources());
    std::vector<resolved_expectation> static_expectations;
    std::copy_if(instance.expectations.begin(), instance.expectations.end(),
                 std::back_inserter(static_expectations),
                 [](const resolved_expectation& e) { return e.cls == metric_class::static_resource; });
    result.checks = check_expectations(static_expectations, result);
    results.cases.push_back(std::move(result));
  }
  return results;
}

void print_resource_table(const std::vector<std::string>& kernel_names) {
  std::fputs(fmt::format("{:<34} {:<58} {:>4} {:>6} {:>6} {:>6} {:>7} {:>5}  {}\n", "variant",
                         "device function", "regs", "spill>", "spill<", "stack", "smem", "cmem", "flags")
                 .c_str(),
             stdout);
  for (const auto& name : kernel_names) {
    const kernel_definition& definition = *kernel_registry::global().find(name);
    for (const auto& function : definition.device_functions()) {
      const kernel_resources* r = find_kernel_resources(embedded_kernel_resources(), function);
      if (r == nullptr) {
        std::fputs(fmt::format("{:<34} {:<58} (no compiler report)\n", name, function).c_str(), stdout);
        continue;
      }
      std::string flags;
      for (const auto& flag : r->flags)
        flags += (flags.empty() ? "" : " ") + flag;
      std::fputs(fmt::format("{:<34} {:<58} {:>4} {:>6} {:>6} {:>6} {:>7} {:>5}  {}\n", name, function,
                             r->registers, r->spill_store_bytes, r->spill_load_bytes, r->stack_frame_bytes,
                             r->static_shared_bytes, r->constant_bytes, flags)
                     .c_str(),
                 stdout);
    }
  }
  std::fputs("\n", stdout);
}

int run_static(const selection_options& selection, const report_options& reports,
               const std::string& command_line) {
  const std::vector<case_instance> instances = select_instances(selection);
  std::vector<std::string> used;
  for (const auto& instance : instances) {
    if (std::find(used.begin(), used.end(), instance.kernel) == used.end())
      used.push_back(instance.kernel);
  }
  std::sort(used.begin(), used.end());
  if (!reports.quiet) {
    std::fputs(fmt::format("Compiler resource report ({}, per thread; smem and cmem per block, bytes):\n",
                           COUNTERGUARD_CUDA_ARCHITECTURE)
                   .c_str(),
               stdout);
    print_resource_table(used);
  }
  run_results results = static_results(instances, command_line);
  report_options static_reports = reports;
  static_reports.no_baselines = true;  // static numbers are judged by expectations; baselines need a GPU key
  return judge_and_report(results, static_reports);
}

}  // namespace counterguard::detail
