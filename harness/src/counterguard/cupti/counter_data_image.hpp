// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace counterguard {

// A decoded CUPTI counter-data image: the raw counters of every profiled range, evaluable on any machine
// (no GPU) through the CUPTI host API for the chip that recorded it.
struct counter_data_image {
  std::string chip;                 // "GH100"
  std::vector<std::uint8_t> bytes;  // as cuptiRangeProfilerDecodeData left them
};

}  // namespace counterguard
