// SPDX-License-Identifier: Apache-2.0
#include "reduction_stencil/reference.hpp"

#include <algorithm>

#include "reduction_stencil/reduction.hpp"
#include "reduction_stencil/stencil.hpp"

namespace reduction_stencil {

std::vector<float> block_sums(const std::vector<float>& in) {
  std::vector<float> sums((in.size() + block_size - 1) / block_size, 0.0f);
  for (std::size_t i = 0; i < in.size(); ++i)
    sums[i / block_size] += in[i];
  return sums;
}

std::vector<float> box_filter(const std::vector<float>& in) {
  const auto n = static_cast<long>(in.size());
  std::vector<float> out(in.size());
  for (long i = 0; i < n; ++i) {
    float sum = 0.0f;
    for (long k = -stencil_radius; k <= stencil_radius; ++k)
      sum += in[static_cast<std::size_t>(std::clamp(i + k, 0L, n - 1))];
    out[static_cast<std::size_t>(i)] = sum / (2 * stencil_radius + 1);
  }
  return out;
}

}  // namespace reduction_stencil
