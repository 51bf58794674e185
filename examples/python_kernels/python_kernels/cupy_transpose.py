# SPDX-License-Identifier: Apache-2.0
"""A CuPy raw kernel that transposes an n x n float matrix through a 32 x 32 shared-memory tile. Written row by
row and read column by column, an unpadded tile puts a warp's 32 column reads in one bank (32-way conflicts);
one float of padding per row spreads them over the 32 banks."""

import cupy

SOURCE = r"""
extern "C" __global__ void NAME(const float* in, float* out, int n) {
  __shared__ float tile[32][32 + PAD];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
"""


def transpose_kernel(name, pad):
    """The kernel `name` with `pad` floats of padding per tile row."""
    return cupy.RawKernel(SOURCE.replace("NAME", name), name, options=(f"-DPAD={pad}",))


def transpose(kernel, src, dst, n):
    """dst = src.T for n x n float32 arrays, n a multiple of 32: one 32 x 32 block of threads per tile."""
    kernel((n // 32, n // 32), (32, 32), (src, dst, cupy.int32(n)))
