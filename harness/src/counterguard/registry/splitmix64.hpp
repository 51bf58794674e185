// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

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

}  // namespace counterguard
