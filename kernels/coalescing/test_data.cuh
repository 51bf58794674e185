#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace counterguard::kernels::coalescing {

// Deterministic, never-all-zero inputs: small integers stored as floats, so sums are exact on CPU and GPU.
[[nodiscard]] inline std::vector<float> make_inputs(std::size_t count, std::uint32_t seed) {
  std::vector<float> values(count);
  std::uint32_t state = seed * 2654435761u + 1u;
  for (auto& value : values) {
    state = state * 1664525u + 1013904223u;  // Numerical Recipes LCG
    value = static_cast<float>(static_cast<int>(state >> 22) - 512);
  }
  return values;
}

}  // namespace counterguard::kernels::coalescing
