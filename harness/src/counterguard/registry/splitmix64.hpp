// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

#include "counterguard/core/host_device.hpp"

namespace counterguard {

// The next value of the SplitMix64 sequence: a small, fast, deterministic generator for kernel inputs.
// Deterministic inputs keep data-dependent counters (histogram atomics, scattered local accesses)
// identical between runs, machines and the recorded fixtures.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31U);
}

// Value `index` (from 0) of the sequence splitmix64 gives from state `seed`: the state only advances by a
// constant, so any value is computed from (seed, index) alone, on the host or the GPU.
[[nodiscard]] COUNTERGUARD_HOST_DEVICE constexpr std::uint64_t splitmix64_at(std::uint64_t seed,
                                                                             std::uint64_t index) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ULL * index + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31U);
}

}  // namespace counterguard
