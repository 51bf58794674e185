// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct CUpti_RangeProfiler_Object;

namespace counterguard::detail {

// A counter-data image for up to `max_ranges` ranges of `raw_metrics`, sized and initialised for the enabled
// range profiler `profiler` (cuptiRangeProfilerGetCounterDataSize, then CounterDataImageInitialize). Both
// `run` and the `exec` injection keep one per configuration and Enable and start each capture from a copy:
// on the H200 that is the same image as initialising again, at a fraction of the cost
// (validation/h200.md, "Per case"; validation/exec_checks.sh setups).
[[nodiscard]] std::vector<std::uint8_t> initialized_counter_data_image(
    CUpti_RangeProfiler_Object* profiler, const std::vector<std::string>& raw_metrics, int max_ranges);

}  // namespace counterguard::detail
