// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "counterguard/core/host_device.hpp"
#include "counterguard/registry/parallel_for.hpp"

namespace counterguard {

// The state of the 32-bit linear congruential generator state' = multiplier * state + increment (mod 2^32)
// after `steps` steps from `state`, in O(log steps) (Brown, "Random number generation with arbitrary
// strides", 1994). Lets the built-ins' sequential input generators start a chunk anywhere, so they run in
// parallel and still produce the values of the one sequential loop; kernel sources call it on the GPU too.
[[nodiscard]] COUNTERGUARD_HOST_DEVICE constexpr std::uint32_t lcg_advance(std::uint32_t state,
                                                                           std::uint64_t steps,
                                                                           std::uint32_t multiplier,
                                                                           std::uint32_t increment) {
  std::uint32_t total_multiplier = 1;
  std::uint32_t total_increment = 0;
  while (steps > 0) {
    if ((steps & 1U) != 0) {
      total_multiplier *= multiplier;
      total_increment = total_increment * multiplier + increment;
    }
    increment = (multiplier + 1) * increment;
    multiplier *= multiplier;
    steps >>= 1U;
  }
  return total_multiplier * state + total_increment;
}

// The Numerical Recipes generator (multiplier 1664525, increment 1013904223), the built-ins' input sequence.
inline constexpr std::uint32_t lcg_multiplier = 1664525u;
inline constexpr std::uint32_t lcg_increment = 1013904223u;

// Its state after `steps` steps from `seed`: element steps - 1 of the sequence, from the index alone.
[[nodiscard]] COUNTERGUARD_HOST_DEVICE constexpr std::uint32_t lcg_state_after(std::uint32_t seed,
                                                                               std::uint64_t steps) {
  return lcg_advance(seed, steps, lcg_multiplier, lcg_increment);
}

// values[i] = make(the state after i + 1 steps from `seed`) of that generator: computed in chunks over the
// host's cores, each starting where the one sequential loop would be, so the values are that loop's.
template <typename T, typename Make>
void fill_from_lcg(std::vector<T>& values, std::uint32_t seed, Make make) {
  constexpr std::uint32_t multiplier = lcg_multiplier;
  constexpr std::uint32_t increment = lcg_increment;
  parallel_for(values.size(), [&](std::size_t begin, std::size_t end) {
    std::uint32_t state = lcg_advance(seed, begin, multiplier, increment);
    for (std::size_t i = begin; i < end; ++i) {
      state = state * multiplier + increment;
      values[i] = make(state);
    }
  });
}

}  // namespace counterguard
