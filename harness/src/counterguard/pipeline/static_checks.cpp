// SPDX-License-Identifier: Apache-2.0
// `counterguard static`: the compiler's resources of the selected cases' kernels, and their static checks.
#include "counterguard/pipeline/static_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "counterguard/checker/expectation_checker.hpp"
#include "counterguard/core/name_suggestions.hpp"
#include "counterguard/measurement/case_result_factory.hpp"
#include "counterguard/measurement/fill_measurements.hpp"
#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/pipeline/run_identity.hpp"
#include "counterguard/planning/metric_plan.hpp"
#include "counterguard/registry/kernel_registry.hpp"
#include "counterguard/statics/program_resources.hpp"

namespace counterguard {
namespace {

// Why a device function named by .launches() has no compiler report, and what to do: the build holds it
// only as PTX (a `-virtual` architecture), or the name is not one of the program's kernels.
std::string explain_missing_report(const std::string& function) {
  const std::vector<ptx_only_kernel>& ptx_only = program_ptx_only_kernels();
  const auto as_ptx = std::find_if(ptx_only.begin(), ptx_only.end(),
                                   [&](const ptx_only_kernel& k) { return k.function == function; });
  if (as_ptx != ptx_only.end()) {
    const std::string real = std::to_string(as_ptx->architecture);
    return "no compiler resource report for '" + function + "': this build holds it only as PTX (compute_" +
           real +
           "), which the driver compiles when the program loads, so no cubin tells its registers and "
           "spills; build a real architecture too: set CMAKE_CUDA_ARCHITECTURES to " +
           real + " or " + real + "-real (not " + real + "-virtual), or pass -arch=sm_" + real;
  }
  std::vector<std::string> known;
  for (const kernel_resources& r : program_kernel_resources()) {
    if (std::find(known.begin(), known.end(), r.function) == known.end())
      known.push_back(r.function);
  }
  for (const ptx_only_kernel& k : ptx_only)
    known.push_back(k.function);
  return "no kernel named '" + function + "' in this program (.launches() names a kernel as the compiler " +
         "demangles it, without parameter list); " +
         did_you_mean(function, closest_names(function, known, 1)) +
         "`static --binary` on this program lists the kernels it holds";
}

// A variant whose device function has no compiler report would silently pass every static check.
std::string missing_reports(const kernel_definition& definition) {
  std::string missing;
  for (const auto& function : definition.device_functions()) {
    if (find_kernel_resources(program_kernel_resources(), function) == nullptr)
      missing += (missing.empty() ? "" : "; ") + explain_missing_report(function);
  }
  return missing;
}

}  // namespace

run_results static_results(const std::vector<case_instance>& instances, const std::string& command_line) {
  run_results results;
  results.metadata = host_metadata("static", command_line);
  results.metadata.counters_not_run = static_command_reason;
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
      result.status_reason = missing;
      results.cases.push_back(std::move(result));
      continue;
    }
    const metric_plan plan = plan_metrics(instance, metric_catalog::builtin());
    fill_static_measurements(result, plan, definition.device_functions(), program_kernel_resources());
    check_static_expectations(instance, result);
    results.cases.push_back(std::move(result));
  }
  return results;
}

// One row per device function and architecture it was compiled for: a variant built for several reports each.
void print_resource_table(const std::vector<std::string>& kernel_names) {
  std::fputs(
      fmt::format("{:<34} {:<58} {:<6} {:>4} {:>6} {:>6} {:>6} {:>7} {:>5}  {}\n", "variant",
                  "device function", "arch", "regs", "spill>", "spill<", "stack", "smem", "cmem", "flags")
          .c_str(),
      stdout);
  for (const auto& name : kernel_names) {
    const kernel_definition& definition = *kernel_registry::global().find(name);
    for (const auto& function : definition.device_functions()) {
      bool reported = false;
      for (const kernel_resources& r : program_kernel_resources()) {
        if (r.function != function)
          continue;
        reported = true;
        std::string flags;
        for (const auto& flag : r.flags)
          flags += (flags.empty() ? "" : " ") + flag;
        const std::string spill_store = r.spill_bytes_known ? std::to_string(r.spill_store_bytes) : "?";
        const std::string spill_load = r.spill_bytes_known ? std::to_string(r.spill_load_bytes) : "?";
        std::fputs(fmt::format("{:<34} {:<58} {:<6} {:>4} {:>6} {:>6} {:>6} {:>7} {:>5}  {}\n", name,
                               function, r.architecture, r.registers, spill_store, spill_load,
                               r.stack_frame_bytes, r.static_shared_bytes, r.constant_bytes, flags)
                       .c_str(),
                   stdout);
      }
      if (!reported)
        std::fputs(fmt::format("{:<34} {:<58} (no compiler report)\n", name, function).c_str(), stdout);
    }
  }
  std::fputs("\n", stdout);
}

int run_static_checks(const selection_options& selection, const report_options& reports,
                      const std::string& command_line) {
  const std::vector<case_instance> instances = select_instances(selection);
  std::vector<std::string> used;
  for (const auto& instance : instances) {
    if (std::find(used.begin(), used.end(), instance.kernel) == used.end())
      used.push_back(instance.kernel);
  }
  std::sort(used.begin(), used.end());
  if (!reports.quiet) {
    std::fputs("Compiler resource report (per thread; smem and cmem per block, bytes):\n", stdout);
    print_resource_table(used);
  }
  run_results results = static_results(instances, command_line);
  report_options static_reports = reports;
  static_reports.no_baselines = true;  // static numbers are judged by expectations; baselines need a GPU key
  return judge_and_report(results, static_reports);
}

}  // namespace counterguard
