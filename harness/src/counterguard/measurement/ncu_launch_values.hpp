// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>

#include "counterguard/profiler/profiled_launch.hpp"
#include "counterguard/statics/kernel_resources.hpp"

namespace counterguard {

// The value of a "launch" metric for one launch: counterguard's launch aliases' fields ("registers",
// "local_bytes_per_thread", "theoretical_occupancy_pct") and ncu's launch__ / device__attribute_ names
// (metrics/ncu_launch_metrics.hpp), computed as ncu computes them on the H200 (validation/h200.md): the
// registers a launch holds are the function's count but at least 16; registers are allocated to warps in
// units of 256 per SM sub-partition (a quarter of the SM's registers each). Nothing when the launch was
// recorded without what the metric needs (the device's attributes, in older recordings). `code` is the
// launched function's resources (its barriers), null where none describe it.
[[nodiscard]] std::optional<double> launch_metric_value(const profiled_launch& launch,
                                                        const std::string& field,
                                                        const kernel_resources* code = nullptr);
// Why launch_metric_value has nothing for `field`.
[[nodiscard]] std::string why_no_launch_value(const profiled_launch& launch, const std::string& field,
                                              const kernel_resources* code);

// ncu's launch__registers_per_thread for a function of `registers` registers.
[[nodiscard]] int ncu_registers_per_thread(int registers);

}  // namespace counterguard
