// SPDX-License-Identifier: Apache-2.0
#pragma once
// Two runs to compare: the H200 recording (A) and an edited copy of it (B) in which an exact metric moved,
// one noisy metric moved a little and another a lot, a case and a metric vanished, and a case failed.

#include <string>
#include <vector>

#include "counterguard/history/run_comparison.hpp"
#include "history_test_support.hpp"

namespace counterguard::test {

inline const std::string exact_case = "transpose/smem_unpadded?n=2048";    // shared_store_bank_conflicts
inline const std::string slight_case = "transpose/smem_padded?n=2048";     // _hw: 5669 -> 5700
inline const std::string great_case = "transpose/smem_swizzled?n=2048";    // _hw: 5203 -> 40000
inline const std::string dropped_case = "occupancy/block_32";              // not in B
inline const std::string failing_case = "coalescing/strided?stride=2";     // passed -> failed in B
inline const std::string thinned_case = "atomics/warp_shuffle?block=512";  // B lost global_atomic_requests

// Sets a metric of a case in its totals and in every launch that measured it.
inline void set_metric(run_results& results, const std::string& instance, const std::string& metric,
                       double value) {
  for (auto& c : results.cases) {
    if (c.instance != instance)
      continue;
    c.totals.at(metric).value = value;
    for (auto& launch : c.kernels) {
      if (launch.metrics.count(metric) != 0)
        launch.metrics[metric] = value;
    }
  }
}

inline run_results edited_h200_results() {
  run_results b = recorded_h200_results();
  b.metadata.started_at = "2026-12-01T00:00:00Z";
  b.metadata.git_commit = "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0";
  set_metric(b, exact_case, "shared_store_bank_conflicts", 4063233);
  set_metric(b, slight_case, "shared_store_bank_conflicts_hw", 5700);
  set_metric(b, great_case, "shared_store_bank_conflicts_hw", 40000);
  std::vector<case_result> kept;
  for (auto& c : b.cases) {
    if (c.instance == dropped_case)
      continue;
    if (c.instance == failing_case)
      c.status = case_status::failed;
    if (c.instance == thinned_case) {
      c.totals.erase("global_atomic_requests");
      for (auto& launch : c.kernels)
        launch.metrics.erase("global_atomic_requests");
    }
    kept.push_back(c);
  }
  b.cases = kept;
  return b;
}

// Earlier values of the two noisy metrics: the padded one spreads by about 67 counts, the swizzled by 70.
inline std::vector<double> earlier_values(const std::string& instance, const std::string& /*kernel*/,
                                          const std::string& metric) {
  if (metric != "shared_store_bank_conflicts_hw")
    return {};
  if (instance == slight_case)
    return {5600, 5650, 5669, 5700, 5720, 5610};
  if (instance == great_case)
    return {5100, 5203, 5250, 5180, 5300};
  return {1, 2};  // too few for an estimate
}

inline comparison_side side(const std::string& label, const run_results& results) {
  comparison_side s;
  s.label = label;
  s.values = values_of(results);
  return s;
}

inline run_comparison compare_fixture(bool with_history) {
  noise_history history;
  if (with_history)
    history = earlier_values;
  return compare_runs(side("a.json", recorded_h200_results()), side("b.json", edited_h200_results()), history,
                      comparison_options{});
}

inline const metric_change* find_change(const run_comparison& comparison, const std::string& instance,
                                        const std::string& kernel, const std::string& metric) {
  for (const auto& change : comparison.metrics) {
    if (change.instance == instance && change.kernel == kernel && change.metric == metric)
      return &change;
  }
  return nullptr;
}

}  // namespace counterguard::test
