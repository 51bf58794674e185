#pragma once

#include <cstddef>
#include <cstdint>

#include "counterguard/registry/device_elementwise.cuh"
#include "counterguard/registry/linear_congruential.hpp"

namespace counterguard::kernels::coalescing {

// Deterministic, never-all-zero inputs: small integers stored as floats, so sums are exact on CPU and GPU.
// Element i of input `seed` is the value of the Numerical Recipes generator's state after i + 1 steps.
__host__ __device__ inline float input_from_state(std::uint32_t state) {
  return static_cast<float>(static_cast<int>(state >> 22) - 512);
}

__host__ __device__ inline std::uint32_t input_seed(std::uint32_t seed) {
  return seed * 2654435761u + 1u;
}

// Element i of input `seed`, from i alone: inputs are written and outputs checked on the GPU.
__host__ __device__ inline float input_value(std::uint32_t seed, std::uint64_t i) {
  return input_from_state(lcg_state_after(input_seed(seed), i + 1));
}

// Each source's own fill type: its fill kernel gets a name of its own in the program (the static resource
// report and `static --binary` name every kernel once).
namespace {

// Input `seed` as a fill (fill_elements_on_device).
struct generated_input {
  std::uint32_t seed;
  __host__ __device__ float operator()(std::size_t i) const { return input_value(seed, i); }
};

}  // namespace

}  // namespace counterguard::kernels::coalescing
// SPDX-License-Identifier: Apache-2.0
