#pragma once

#include <cstdint>

namespace counterguard {

// The state of the 32-bit linear congruential generator state' = multiplier * state + increment (mod 2^32)
// after `steps` steps from `state`, in O(log steps) (Brown, "Random number generation with arbitrary
// strides", 1994). Lets the built-ins' sequential input generators start a chunk anywhere, so they run in
// parallel and still produce the values of the one sequential loop.
[[nodiscard]] constexpr std::uint32_t lcg_advance(std::uint32_t state, std::uint64_t steps,
                                                  std::uint32_t multiplier, std::uint32_t increment) {
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

}  // namespace counterguard
