// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace counterguard::detail {

// The counter-data prefix NVPW builds for `metrics` on `chip`: what a counter-data image of CUPTI's session
// API (cuptiProfilerBeginSession) starts with, naming the raw counters the image holds. Host only: works
// without a GPU. `counter_availability` (from the device) is optional. Throws api_error naming a metric NVPW
// does not know.
[[nodiscard]] std::vector<std::uint8_t> counter_data_prefix(
    const std::string& chip, const std::vector<std::uint8_t>& counter_availability,
    const std::vector<std::string>& metrics);

}  // namespace counterguard::detail
