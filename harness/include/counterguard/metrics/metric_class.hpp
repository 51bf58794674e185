// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>

namespace counterguard {

// How a metric behaves between identical runs, which decides how it is compared.
enum class metric_class {
  static_resource,  // known at compile time (registers, spills, stack, smem); checked with no GPU
  exact,            // counters that do not move between identical runs; compared exactly by default
  noisy,            // counters that move (hardware bank conflicts in full grids, occupancy, DRAM, time)
};

// Which way is better, so a change is a regression or an improvement.
enum class metric_direction { lower_is_better, higher_is_better, exact };

[[nodiscard]] const char* to_string(metric_class cls);  // "static", "exact", "noisy"
[[nodiscard]] std::optional<metric_class> parse_metric_class(const std::string& text);
[[nodiscard]] const char* to_string(metric_direction direction);  // "lower_is_better", ...
[[nodiscard]] std::optional<metric_direction> parse_metric_direction(const std::string& text);

}  // namespace counterguard
