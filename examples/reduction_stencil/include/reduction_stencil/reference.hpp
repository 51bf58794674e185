// SPDX-License-Identifier: Apache-2.0
#pragma once
// CPU references for the GPU kernels: what their outputs must be.

#include <vector>

namespace reduction_stencil {

// partial[b] = sum of in[b * block_size .. (b + 1) * block_size), missing elements counting as 0.
[[nodiscard]] std::vector<float> block_sums(const std::vector<float>& in);

// out[i] = mean of in[i - stencil_radius .. i + stencil_radius], indices clamped to [0, n).
[[nodiscard]] std::vector<float> box_filter(const std::vector<float>& in);

}  // namespace reduction_stencil
