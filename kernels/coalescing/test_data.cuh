#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "counterguard/registry/linear_congruential.hpp"

namespace counterguard::kernels::coalescing {

// Deterministic, never-all-zero inputs: small integers stored as floats, so sums are exact on CPU and GPU.
[[nodiscard]] inline std::vector<float> make_inputs(std::size_t count, std::uint32_t seed) {
  std::vector<float> values(count);
  fill_from_lcg(values, seed * 2654435761u + 1u,
                [](std::uint32_t state) { return static_cast<float>(static_cast<int>(state >> 22) - 512); });
  return values;
}

}  // namespace counterguard::kernels::coalescing
