// SPDX-License-Identifier: Apache-2.0
#pragma once

// The built-in variants' input sequences as functions of the element index: element i is what the
// variant's sequential generator loop gave as its i-th value, computed from (seed, i) alone. Kernel sources
// write them on the GPU (fill_elements_on_device) and recompute them in GPU checks; the host gets the same
// bits (indexed_inputs_test on the CPU against the loops, the GPU fill tests against the same loops).
#include <cstddef>
#include <cstdint>

#include "counterguard/core/host_device.hpp"
#include "counterguard/registry/linear_congruential.hpp"
#include "counterguard/registry/splitmix64.hpp"

namespace counterguard {

// static_cast<std::uint32_t>(splitmix64(state)) for each value of a loop started at state = seed.
struct splitmix64_low_words {
  std::uint64_t seed;
  COUNTERGUARD_HOST_DEVICE std::uint32_t operator()(std::size_t i) const {
    return static_cast<std::uint32_t>(splitmix64_at(seed, i));
  }
};

// offset + static_cast<std::uint32_t>(splitmix64(state) % bound) for each value of a loop started at
// state = seed: integers in [offset, offset + bound).
struct splitmix64_below {
  std::uint64_t seed;
  std::uint64_t bound;
  std::uint32_t offset;
  COUNTERGUARD_HOST_DEVICE std::uint32_t operator()(std::size_t i) const {
    return offset + static_cast<std::uint32_t>(splitmix64_at(seed, i) % bound);
  }
};

// static_cast<float>(static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-52 - 1.0) for each value of a
// loop started at state = seed: uniform in [-1, 1). Every double step is exact (a 53-bit integer, a
// power-of-two scale, the difference of two multiples of 2^-52 below 2), so only the final rounding to float
// rounds, to nearest on both sides, and a fused multiply-add gives the same bits.
struct splitmix64_signed_unit_floats {
  std::uint64_t seed;
  COUNTERGUARD_HOST_DEVICE float operator()(std::size_t i) const {
    return static_cast<float>(static_cast<double>(splitmix64_at(seed, i) >> 11U) * 0x1.0p-52 - 1.0);
  }
};

// The Numerical Recipes generator's state after i + 1 steps from `seed` (the loop
// `value = state = state * 1664525 + 1013904223`).
struct lcg_words {
  std::uint32_t seed;
  COUNTERGUARD_HOST_DEVICE std::uint32_t operator()(std::size_t i) const {
    return lcg_state_after(seed, i + 1);
  }
};

// Small integers stored as floats, static_cast<float>(static_cast<int>(state >> 22) - 512) of that state: in
// [-512, 511], so sums and 2 x + 1 are exact on the CPU and the GPU.
struct lcg_small_floats {
  std::uint32_t seed;
  COUNTERGUARD_HOST_DEVICE float operator()(std::size_t i) const {
    return static_cast<float>(static_cast<int>(lcg_state_after(seed, i + 1) >> 22) - 512);
  }
};

}  // namespace counterguard
