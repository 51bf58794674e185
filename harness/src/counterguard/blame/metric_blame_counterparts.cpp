// SPDX-License-Identifier: Apache-2.0
#include "counterguard/blame/metric_blame_counterparts.hpp"

#include <algorithm>

namespace counterguard {
namespace {

struct counterpart {
  std::vector<std::string> raw_fragments;  // a raw counter containing one of these ...
  std::vector<std::string> blame_metrics;  // ... is shown by these
};

// In order: the first rule a raw counter matches decides (thread instructions before instructions).
const std::vector<counterpart>& counterparts() {
  static const std::vector<counterpart> rules = {
      {{"mem_shared", "op_shared_", "op_dshared_"}, {"shared_excess_wavefronts", "shared_wavefronts"}},
      {{"mem_global", "op_global_"}, {"global_excess_sectors", "global_sectors"}},
      {{"mem_local", "op_local_"}, {"local_sectors", "local_load_instructions", "local_store_instructions"}},
      {{"branch_targets_threads_divergent"}, {"divergent_branch_targets"}},
      {{"thread_inst_executed"}, {"predicated_off_thread_instructions", "thread_executed_instructions"}},
      {{"sass_inst_executed", "smsp__inst_executed"}, {"executed_instructions"}},
  };
  return rules;
}

}  // namespace

std::vector<std::string> blame_metrics_for(const std::vector<std::string>& raw_inputs) {
  std::vector<std::string> out;
  for (const auto& raw : raw_inputs) {
    for (const auto& rule : counterparts()) {
      const bool matches =
          std::any_of(rule.raw_fragments.begin(), rule.raw_fragments.end(),
                      [&](const std::string& f) { return raw.find(f) != std::string::npos; });
      if (!matches)
        continue;
      for (const auto& metric : rule.blame_metrics) {
        if (std::find(out.begin(), out.end(), metric) == out.end())
          out.push_back(metric);
      }
      break;
    }
  }
  return out;
}

}  // namespace counterguard
