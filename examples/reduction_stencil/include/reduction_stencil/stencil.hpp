// SPDX-License-Identifier: Apache-2.0
#pragma once
// A 1D box filter of radius 8: out[i] = mean(in[i-8 .. i+8]), edges clamped.

#include <cuda_runtime_api.h>

namespace reduction_stencil {

constexpr int stencil_radius = 8;
constexpr int stencil_block = 256;
constexpr int outputs_per_thread = 16;

// Through a shared-memory tile of the block's inputs and halo.
void stencil_shared(const float* in, float* out, int n, cudaStream_t stream);
// Each thread keeps a 32-float window in registers for 16 outputs; 44 registers, no spills.
void stencil_registers(const float* in, float* out, int n, cudaStream_t stream);
// The same code under __launch_bounds__(256, 8): at most 32 registers, so the window spills to local memory.
void stencil_registers_bounded(const float* in, float* out, int n, cudaStream_t stream);

}  // namespace reduction_stencil
