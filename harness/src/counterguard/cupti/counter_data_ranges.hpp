// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace counterguard::detail {

// How many ranges a counter-data image holds (cuptiRangeProfilerGetCounterDataInfo; host only, no GPU
// needed).
[[nodiscard]] std::size_t counter_data_range_count(const std::vector<std::uint8_t>& image);

// The name of range `index` of the image: "0", "1", ... in launch order for auto ranges, "outer/inner" for
// nested user ranges (cuptiProfilerHostGetRangeName; host only).
[[nodiscard]] std::string counter_data_range_name(const std::vector<std::uint8_t>& image, std::size_t index);

}  // namespace counterguard::detail
