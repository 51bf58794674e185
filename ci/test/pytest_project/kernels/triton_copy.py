# SPDX-License-Identifier: Apache-2.0
"""A Triton copy reading every STRIDE-th float: STRIDE 1 is coalesced, STRIDE 32 puts each thread's word in its own
128-byte line."""

import triton
import triton.language as tl

NUM_WARPS = 4
# One element per thread: each thread issues one 4-byte load, a warp's request covers 32 words.
BLOCK = 32 * NUM_WARPS


@triton.jit
def copy_kernel(src, dst, n, STRIDE: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(dst + offsets, tl.load(src + offsets * STRIDE, mask=mask), mask=mask)


def copy(src, dst, n, stride):
    """dst[i] = src[i * stride] for i < n (float32 tensors on the GPU)."""
    copy_kernel[(triton.cdiv(n, BLOCK),)](src, dst, n, STRIDE=stride, BLOCK=BLOCK, num_warps=NUM_WARPS)
