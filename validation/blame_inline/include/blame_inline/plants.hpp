// SPDX-License-Identifier: Apache-2.0
// Host launchers of the plant kernels (src/plants.cu) and what the build they come from computes.
#pragma once

#include <cuda_runtime_api.h>

namespace blame_inline {

// out[i] = 2 * in[i * stride]: `in` holds 2 * n elements.
void scale_gathered(const float* in, float* out, unsigned n, cudaStream_t stream);
// sums[j] = the sum of in[32 j] ... in[32 j + 31]; n a multiple of 256.
void tile_sums(const int* in, int* sums, unsigned n, cudaStream_t stream);
// Every one of n threads adds 1 to *counter and stores its ticket (the planted build) or 0.
void count_events(unsigned long long* counter, unsigned long long* tickets, unsigned n, cudaStream_t stream);

// What this build computes: the stride of the gather, and whether the atomic's result is kept.
[[nodiscard]] unsigned gather_stride_of_build();
[[nodiscard]] bool tickets_kept();

}  // namespace blame_inline
