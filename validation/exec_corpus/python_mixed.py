# SPDX-License-Identifier: Apache-2.0
"""A plain PyTorch program with a Triton kernel, a CuPy RawKernel and a Numba kernel, each step inside an NVTX
range (torch.cuda.nvtx). It knows nothing of counterguard; it checks its own results and exits 1 on a wrong one.

    python3 python_mixed.py [--skip-numba]
"""
import sys

import numpy as np

if not hasattr(np, "row_stack"):
    # numba-cuda imports numpy.row_stack, which numpy 2.4 removed (vstack is what it was an alias of).
    np.row_stack = np.vstack

import cupy
import torch
import triton
import triton.language as tl

N = 1 << 20


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask),
             mask=mask)


@triton.jit
def spill_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # One warp holds BLOCK values of six live tensors: far more than 255 registers a thread, so ptxas spills.
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    a = x * 1.5
    b = x + 2.0
    c = tl.sqrt(tl.abs(x) + 1.0)
    d = x * x
    e = a * b - c
    total = tl.sum(a, 0) + tl.sum(b, 0) + tl.sum(c, 0) + tl.sum(d, 0)
    tl.store(out_ptr + offsets, e + d * total * 0.0 + x, mask=mask)


TRANSPOSE = r"""
extern "C" __global__ void transpose_tile(const float* in, float* out, int n) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}
"""


def check(name, ok):
    if not ok:
        print(f"python_mixed: {name} WRONG")
        sys.exit(1)


def main():
    skip_numba = "--skip-numba" in sys.argv
    x = torch.arange(N, device="cuda", dtype=torch.float32)
    y = torch.ones(N, device="cuda", dtype=torch.float32)

    torch.cuda.nvtx.range_push("step/torch_ops")
    m = torch.randn(512, 512, device="cuda")
    z = torch.relu(m @ m.T).sum()
    torch.cuda.nvtx.range_pop()
    check("torch", bool(torch.isfinite(z)))

    torch.cuda.nvtx.range_push("step/triton_add")
    out = torch.empty_like(x)
    add_kernel[(triton.cdiv(N, 1024),)](x, y, out, N, BLOCK=1024)
    torch.cuda.nvtx.range_pop()
    check("triton add", torch.equal(out, x + y))

    torch.cuda.nvtx.range_push("step/triton_spill")
    spilled = torch.empty_like(x)
    spill_kernel[(triton.cdiv(N, 8192),)](x, spilled, N, BLOCK=8192, num_warps=1)
    torch.cuda.nvtx.range_pop()
    check("triton spill", torch.allclose(spilled, x * 1.5 * (x + 2.0) - torch.sqrt(x.abs() + 1.0) + x))

    torch.cuda.nvtx.range_push("step/cupy_transpose")
    n = 1024
    a = cupy.arange(n * n, dtype=cupy.float32).reshape(n, n)
    t = cupy.empty_like(a)
    cupy.RawKernel(TRANSPOSE, "transpose_tile")((n // 32, n // 32), (32, 32), (a, t, cupy.int32(n)))
    cupy.cuda.runtime.deviceSynchronize()
    torch.cuda.nvtx.range_pop()
    check("cupy transpose", bool((t == a.T).all()))

    if not skip_numba:
        from numba import cuda as numba_cuda

        @numba_cuda.jit
        def scale(values, factor):
            i = numba_cuda.grid(1)
            if i < values.size:
                values[i] *= factor

        values = numba_cuda.to_device(np.arange(N, dtype=np.float32))
        torch.cuda.nvtx.range_push("step/numba_scale")
        scale[N // 256, 256](values, np.float32(3.0))
        numba_cuda.synchronize()
        torch.cuda.nvtx.range_pop()
        check("numba scale", bool(np.array_equal(values.copy_to_host(), np.arange(N, dtype=np.float32) * 3)))

    torch.cuda.synchronize()
    print("python_mixed: ok")


if __name__ == "__main__":
    main()
