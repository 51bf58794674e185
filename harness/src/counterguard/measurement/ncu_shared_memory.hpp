// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>

#include "counterguard/profiler/profiled_launch.hpp"

namespace counterguard {

// The shared memory a launch holds and the carve-out the driver configures for it, as ncu reports them
// (launch__shared_mem_per_block_allocated, launch__shared_mem_config_size,
// launch__occupancy_limit_shared_mem). Nothing when the launch was recorded without what the rule needs
// (the device's attributes, the preferred carve-out) or the architecture's carve-out sizes are not known.
struct ncu_shared_memory {
  std::uint64_t allocated_per_block = 0;  // static + dynamic + driver bytes, in 128-byte units
  std::uint64_t config_size = 0;          // the carve-out the driver chose
  std::uint64_t blocks_per_sm = 0;        // blocks per SM that carve-out holds
};
[[nodiscard]] std::optional<ncu_shared_memory> ncu_shared_memory_of(const profiled_launch& launch);

}  // namespace counterguard
