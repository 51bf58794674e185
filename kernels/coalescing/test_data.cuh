#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "counterguard/registry/linear_congruential.hpp"
#include "counterguard/registry/parallel_for.hpp"

namespace counterguard::kernels::coalescing {

// Deterministic, never-all-zero inputs: small integers stored as floats, so sums are exact on CPU and GPU.
[[nodiscard]] inline std::vector<float> make_inputs(std::size_t count, std::uint32_t seed) {
  std::vector<float> values(count);
  // Numerical Recipes LCG; each chunk starts at the state before its first value, so the values are those of
  // one sequential loop.
  parallel_for(count, [&](std::size_t begin, std::size_t end) {
    std::uint32_t state = lcg_advance(seed * 2654435761u + 1u, begin, 1664525u, 1013904223u);
    for (std::size_t i = begin; i < end; ++i) {
      state = state * 1664525u + 1013904223u;
      values[i] = static_cast<float>(static_cast<int>(state >> 22) - 512);
    }
  });
  return values;
}

}  // namespace counterguard::kernels::coalescing
