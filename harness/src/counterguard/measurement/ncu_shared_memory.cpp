// SPDX-License-Identifier: Apache-2.0
#include "counterguard/measurement/ncu_shared_memory.hpp"

#include <algorithm>
#include <vector>

namespace counterguard {
namespace {

constexpr std::uint64_t kib = 1024;
// Shared memory is allocated to blocks in 128-byte units from compute capability 8.0 on (256 before).
constexpr std::uint64_t allocation_unit = 128;

// The carve-out sizes an SM can be configured with, by compute capability (the CUDA C++ Programming Guide's
// shared-memory capacities per architecture); empty where not known.
std::vector<std::uint64_t> carveout_sizes(int major, int minor) {
  if (major == 8 && (minor == 0 || minor == 7))
    return {0, 8 * kib, 16 * kib, 32 * kib, 64 * kib, 100 * kib, 132 * kib, 164 * kib};
  if ((major == 8 && (minor == 6 || minor == 9)) || major == 12)
    return {0, 8 * kib, 16 * kib, 32 * kib, 64 * kib, 100 * kib};
  if (major == 9 || (major == 10 && (minor == 0 || minor == 3)))
    return {0, 8 * kib, 16 * kib, 32 * kib, 64 * kib, 100 * kib, 132 * kib, 164 * kib, 196 * kib, 228 * kib};
  return {};
}

// The smallest carve-out that holds `bytes`; the largest when none does.
std::uint64_t carveout_holding(const std::vector<std::uint64_t>& sizes, std::uint64_t bytes) {
  const auto found = std::lower_bound(sizes.begin(), sizes.end(), bytes);
  return found == sizes.end() ? sizes.back() : *found;
}

std::optional<std::int64_t> attribute(const profiled_launch& launch, const char* name) {
  if (!launch.device_attributes)
    return std::nullopt;
  const auto found = launch.device_attributes->find(name);
  if (found == launch.device_attributes->end())
    return std::nullopt;
  return static_cast<std::int64_t>(found->second);
}

}  // namespace

// What the driver chooses. Without a preferred carve-out: the smallest carve-out in which shared memory
// allows as many blocks as the SM's block limit (or as its whole shared memory allows, if fewer), whatever
// the warps and registers allow; ncu on the H200 showed 32 KiB and 32 blocks for 256-thread blocks without
// shared memory (1 KiB the driver's), where the warps allow 8 (validation/h200.md, "Each launch's code").
// With a preferred carve-out (percent of the SM's shared memory): the smallest carve-out holding that share,
// or one block if the share holds none, as the CUDA occupancy calculator takes it. The blocks it allows are
// the carve-out over the block's allocation. validation/launch_code_checks.sh `names` checks both against
// ncu.
std::optional<ncu_shared_memory> ncu_shared_memory_of(const profiled_launch& launch) {
  const auto major = attribute(launch, "compute_capability_major");
  const auto minor = attribute(launch, "compute_capability_minor");
  const auto reserved = attribute(launch, "reserved_shared_memory_per_block");
  const auto per_sm = attribute(launch, "max_shared_memory_per_multiprocessor");
  const auto block_limit = attribute(launch, "max_blocks_per_multiprocessor");
  if (!major || !minor || !reserved || !per_sm || !block_limit || *per_sm <= 0 || *block_limit <= 0 ||
      !launch.preferred_carveout_pct)
    return std::nullopt;
  const std::vector<std::uint64_t> sizes = carveout_sizes(static_cast<int>(*major), static_cast<int>(*minor));
  if (sizes.empty())
    return std::nullopt;
  ncu_shared_memory out;
  const std::uint64_t used = launch.static_shared_bytes + launch.dynamic_shared_bytes +
                             static_cast<std::uint64_t>(std::max<std::int64_t>(*reserved, 0));
  out.allocated_per_block = (used + allocation_unit - 1) / allocation_unit * allocation_unit;
  const auto sm_bytes = static_cast<std::uint64_t>(*per_sm);
  const auto max_blocks = static_cast<std::uint64_t>(*block_limit);
  if (*launch.preferred_carveout_pct >= 0) {
    const std::uint64_t preferred =
        carveout_holding(sizes, static_cast<std::uint64_t>(*launch.preferred_carveout_pct) * sm_bytes / 100);
    out.config_size =
        preferred >= out.allocated_per_block ? preferred : carveout_holding(sizes, out.allocated_per_block);
  } else if (out.allocated_per_block == 0) {
    out.config_size = sizes.front();
  } else {
    const std::uint64_t blocks = std::min(max_blocks, sm_bytes / out.allocated_per_block);
    out.config_size = carveout_holding(sizes, std::max<std::uint64_t>(blocks, 1) * out.allocated_per_block);
  }
  out.blocks_per_sm = out.allocated_per_block == 0 ? max_blocks : out.config_size / out.allocated_per_block;
  return out;
}

}  // namespace counterguard
