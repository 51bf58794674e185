// SPDX-License-Identifier: Apache-2.0
#include "counterguard/profiler/sass_metric_names.hpp"

#include <algorithm>

#include "counterguard/core/error.hpp"

namespace counterguard {
namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names)
    out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "(none)" : out;
}

}  // namespace

// The SASS metrics API names metrics without a rollup ("smsp__sass_inst_executed"). These are the names it
// reported on an H200 (GH100, driver 580.159.04: `counterguard blame --list-metrics`,
// validation/gpu_checks.sh blame): 60 metrics, among them shared-memory wavefronts and global sectors per
// instruction with their ideal counts, but not split into loads and stores (the instruction's opcode says
// which).
const std::vector<sass_metric_candidates>& blame_sass_metrics() {
  static const std::vector<sass_metric_candidates> metrics = {
      {"executed_instructions", {"smsp__sass_inst_executed"}},
      {"thread_executed_instructions", {"smsp__sass_thread_inst_executed"}},
      {"predicated_on_thread_instructions", {"smsp__sass_thread_inst_executed_pred_on"}},
      {"divergent_branch_targets", {"smsp__sass_branch_targets_threads_divergent"}},
      {"shared_load_instructions", {"smsp__sass_inst_executed_op_shared_ld"}},
      {"shared_store_instructions", {"smsp__sass_inst_executed_op_shared_st"}},
      {"shared_wavefronts", {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared"}},
      {"shared_wavefronts_ideal", {"smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal"}},
      {"global_load_requests", {"smsp__sass_inst_executed_op_global_ld"}},
      {"global_store_requests", {"smsp__sass_inst_executed_op_global_st"}},
      {"global_sectors", {"smsp__sass_sectors_mem_global"}},
      {"global_sectors_ideal", {"smsp__sass_sectors_mem_global_ideal"}},
      {"local_load_instructions", {"smsp__sass_inst_executed_op_local_ld"}},
      {"local_store_instructions", {"smsp__sass_inst_executed_op_local_st"}},
      {"local_sectors", {"smsp__sass_sectors_mem_local"}},
  };
  return metrics;
}

const std::vector<derived_sass_metric>& derived_sass_metrics() {
  static const std::vector<derived_sass_metric> metrics = {
      {"shared_excess_wavefronts", "shared_wavefronts", "shared_wavefronts_ideal"},
      {"global_excess_sectors", "global_sectors", "global_sectors_ideal"},
      // Lanes of executed instructions that were predicated off: the cost of a branch the compiler predicated
      // (reduce0's `if (tid % (2 * s) == 0)`), which divergent_branch_targets cannot see.
      {"predicated_off_thread_instructions", "thread_executed_instructions",
       "predicated_on_thread_instructions"},
  };
  return metrics;
}

std::string sass_metric_display_name(const std::string& friendly) {
  std::string out = friendly;
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

std::vector<sass_metric_choice> choose_sass_metrics(const std::vector<std::string>& wanted,
                                                    const std::vector<std::string>& available,
                                                    const std::string& chip,
                                                    std::vector<std::string>* skipped) {
  const auto& known = blame_sass_metrics();
  const auto first_available = [&](const sass_metric_candidates& metric) -> const std::string* {
    for (const auto& name : metric.cupti) {
      if (contains(available, name))
        return &name;
    }
    return nullptr;
  };
  std::vector<sass_metric_choice> chosen;
  if (wanted.empty()) {
    for (const auto& metric : known) {
      if (const std::string* name = first_available(metric)) {
        chosen.push_back({metric.friendly, *name});
      } else if (skipped != nullptr) {
        skipped->push_back(metric.friendly);
      }
    }
    if (chosen.empty()) {
      throw input_error({}, "--metric",
                        "none of blame's default SASS metrics exists on chip " + chip +
                            " (SASS metrics API: " + listed(available) + ")",
                        "name metrics of that list with --metric");
    }
    return chosen;
  }
  for (const auto& name : wanted) {
    const auto metric = std::find_if(known.begin(), known.end(),
                                     [&](const sass_metric_candidates& m) { return m.friendly == name; });
    if (metric != known.end()) {
      if (const std::string* cupti = first_available(*metric)) {
        chosen.push_back({name, *cupti});
        continue;
      }
      throw input_error(
          {}, "--metric",
          "'" + name + "' (CUPTI " + listed(metric->cupti) + ") is not a SASS metric of chip " + chip,
          "the chip's SASS metrics: " + listed(available));
    }
    if (contains(available, name)) {
      chosen.push_back({name, name});
      continue;
    }
    std::vector<std::string> friendly;
    friendly.reserve(known.size());
    for (const auto& m : known)
      friendly.push_back(m.friendly);
    throw input_error(
        {}, "--metric", "unknown SASS metric '" + name + "' for chip " + chip,
        "a blame metric (" + listed(friendly) + ") or one of the chip's SASS metrics: " + listed(available));
  }
  return chosen;
}

}  // namespace counterguard
