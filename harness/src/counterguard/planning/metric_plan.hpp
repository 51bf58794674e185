// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

#include "counterguard/metrics/metric_catalog.hpp"
#include "counterguard/model/case_instance.hpp"

namespace counterguard {

// What to measure for a case instance: every metric its expectations name (and any extra ones asked for),
// resolved through the catalog, and the raw CUPTI counters they need, collected in one profiling session.
struct metric_plan {
  std::vector<metric_definition> metrics;  // in first-mention order, each once
  std::vector<std::string> raw_cupti;      // sorted, each once

  [[nodiscard]] bool needs_gpu() const;  // any cupti or launch metric
};

[[nodiscard]] metric_plan plan_metrics(const case_instance& instance, const metric_catalog& catalog,
                                       const std::vector<std::string>& extra_metrics = {});

// The plan for a bare list of metric names (aliases or raw CUPTI names), each with its catalog class. A name
// that is neither is an input_error naming it, with the closest aliases.
[[nodiscard]] metric_plan plan_metrics(const std::vector<std::string>& metrics,
                                       const metric_catalog& catalog);

// Whether the case measures a noisy metric (an expectation of class noisy, or one in its plan): such a value
// depends on how it is measured (on the H200, atomics/block_staged's CAS-loop shared atomics read 4.75 M with
// the case's own counters, 3.74 M collected with other cases' instrumented counters), so `run` and `exec`
// profile such a case with exactly its own counters, whatever else they select.
[[nodiscard]] bool measures_noisy_metric(const case_instance& instance, const metric_plan& plan);

}  // namespace counterguard
