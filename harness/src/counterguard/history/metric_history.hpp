// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "counterguard/metrics/metric_class.hpp"

namespace counterguard {

// One recorded value of a metric: what one run measured, and the baseline band it was judged against.
struct history_point {
  std::string run_id;              // the history store's identifier of the run
  std::string git_commit;          // 40 hex digits, or "unknown"
  std::string started_at;          // ISO 8601, UTC
  double value = 0.0;              // NaN when the run did not measure it
  std::optional<double> band_low;  // the acceptance band in force for that run, when a baseline existed
  std::optional<double> band_high;
  std::string verdict;  // the check verdict in that run ("pass", "regression", ...); empty when unchecked
};

// The history of one metric of one case instance on one GPU key, oldest first. The HTML report plots these;
// the history store produces them (`kernel` is a baseline kernel key: "total" for the case as a whole).
struct metric_history {
  std::string gpu_key;
  std::string instance;
  std::string kernel;
  std::string metric;
  metric_class cls = metric_class::exact;
  std::vector<history_point> points;
};

}  // namespace counterguard
