// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace counterguard {

// Whether a raw CUPTI counter is instrumented (CUPTI patches the kernel's SASS to count: "__sass_" in its
// name, such as smsp__sass_inst_executed_op_global_ld.sum) rather than read from a hardware counter.
[[nodiscard]] bool is_instrumented_counter(const std::string& raw_metric);

// Whether any of `raw_metrics` is instrumented.
[[nodiscard]] bool has_instrumented_counter(const std::vector<std::string>& raw_metrics);

}  // namespace counterguard
