// SPDX-License-Identifier: Apache-2.0
#pragma once

// The built-in variants' input generators as the sequential loops they were written as on the host: what the
// index-based sequences of indexed_inputs.hpp must reproduce bit for bit (indexed_inputs_test on the CPU,
// indexed_inputs_device_test for the GPU fill). Each names the variants that use it and their seeds.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "counterguard/registry/splitmix64.hpp"

namespace counterguard::sequential_inputs {

// occupancy (seed 0x0CC0) and divergence (0xD1BE46E): static_cast<unsigned>(splitmix64(state)).
inline std::vector<std::uint32_t> splitmix64_low_words(std::uint64_t seed, std::size_t count) {
  std::vector<std::uint32_t> values(count);
  std::uint64_t state = seed;
  for (auto& value : values)
    value = static_cast<std::uint32_t>(splitmix64(state));
  return values;
}

// atomics (seed 0xA70A1C5, 1 + value % 1000) and histogram (0x4157064A, value % bins).
inline std::vector<std::uint32_t> splitmix64_below(std::uint64_t seed, std::uint64_t bound,
                                                   std::uint32_t offset, std::size_t count) {
  std::vector<std::uint32_t> values(count);
  std::uint64_t state = seed;
  for (auto& value : values)
    value = offset + static_cast<std::uint32_t>(splitmix64(state) % bound);
  return values;
}

// matmul's A (seed 0x3A7A1) and B (0x3B7B2): uniform in [-1, 1).
inline std::vector<float> splitmix64_signed_unit_floats(std::uint64_t seed, std::size_t count) {
  std::vector<float> values(count);
  for (auto& value : values)
    value = static_cast<float>(static_cast<double>(splitmix64(seed) >> 11U) * 0x1.0p-52 - 1.0);
  return values;
}

// spills/local_array (seed 4242) and the register-heavy spills variants (99): every state of the Numerical
// Recipes generator.
inline std::vector<std::uint32_t> lcg_words(std::uint32_t seed, std::size_t count) {
  std::vector<std::uint32_t> values(count);
  std::uint32_t state = seed;
  for (auto& value : values)
    value = state = state * 1664525u + 1013904223u;
  return values;
}

// texture (seed 777): small integers as floats from those states.
inline std::vector<float> lcg_small_floats(std::uint32_t seed, std::size_t count) {
  std::vector<float> values(count);
  std::uint32_t state = seed;
  for (auto& value : values) {
    state = state * 1664525u + 1013904223u;
    value = static_cast<float>(static_cast<int>(state >> 22) - 512);
  }
  return values;
}

}  // namespace counterguard::sequential_inputs
