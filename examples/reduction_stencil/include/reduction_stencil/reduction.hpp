// SPDX-License-Identifier: Apache-2.0
#pragma once
// Block-wise sums: each block of `block_size` threads sums `block_size` consecutive floats into
// partial[block].

#include <cuda_runtime_api.h>

namespace reduction_stencil {

constexpr int block_size = 256;

// Interleaved addressing: at step s, thread t adds element 2*s*t + s into 2*s*t. The shared-memory accesses
// of a warp are 2*s words apart, so they collide in banks (the textbook's second version).
void reduce_interleaved(const float* in, float* partial, int n, cudaStream_t stream);
// Sequential addressing: thread t adds element t + s into t. Consecutive words: no bank conflicts.
void reduce_sequential(const float* in, float* partial, int n, cudaStream_t stream);
// Warp shuffles inside each warp, one shared-memory word per warp.
void reduce_warp_shuffle(const float* in, float* partial, int n, cudaStream_t stream);

}  // namespace reduction_stencil
