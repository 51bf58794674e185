// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace counterguard {

// How many replay passes collecting a set of raw CUPTI metrics together takes on a chip
// (metric_name_validator::pass_count: the CUPTI host API, no GPU needed).
using pass_counter = std::function<int(const std::vector<std::string>& raw_metrics)>;

// The most passes a case that alone needs `own` passes may take when its metrics are collected together with
// other cases' (every pass replays each of its launches): max(2 x own, own + 2).
[[nodiscard]] int allowed_passes(int own);

// A bound like allowed_passes: the most passes for a set that needs `own` alone (at least `own`).
using pass_bound = std::function<int(int own)>;

// One range-profiler configuration: the union of the metric sets it serves.
struct profiler_configuration {
  std::vector<std::string> raw_metrics;  // sorted, each once
  int passes = 0;
};

struct profiler_configuration_plan {
  std::vector<profiler_configuration> configurations;
  // Per metric set asked about, in the order given: the configuration that collects it; -1 for an empty set
  // (nothing to collect: launch attributes only).
  std::vector<int> configuration_of;
};

// Groups metric sets into as few profiler configurations as it can (switching configurations costs a
// re-enabled range profiler and a slow first replay) while no set's pass count grows beyond
// `bound`(its own) (allowed_passes unless given). Deterministic: the same sets give the same configurations,
// in any order and with any repetition. Pass counts come from `passes` (each distinct set asked once).
[[nodiscard]] profiler_configuration_plan plan_profiler_configurations(
    const std::vector<std::vector<std::string>>& metric_sets, const pass_counter& passes,
    const pass_bound& bound = allowed_passes);

}  // namespace counterguard
