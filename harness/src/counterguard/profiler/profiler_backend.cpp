// SPDX-License-Identifier: Apache-2.0
#include "detail/profiler_backend.hpp"

#include <utility>

#include "counterguard/cupti/counter_data_ranges.hpp"

namespace counterguard::detail {

std::size_t name_ranges(profile_capture& capture) {
  const std::size_t ranges = counter_data_range_count(capture.image.bytes);
  for (std::size_t index = 0; index < ranges && index < capture.launches.size(); ++index) {
    if (std::string name = counter_data_range_name(capture.image.bytes, index); !name.empty())
      capture.launches[index].range_name = std::move(name);
  }
  return ranges;
}

}  // namespace counterguard::detail
