# SPDX-License-Identifier: Apache-2.0
# A PyTorch + Triton element-wise add with one config (one cubin). STRIDE=2 plants a regression: every load
# reads every second element (twice the global sectors) on the line marked below.
import os

import torch
import triton
import triton.language as tl

STRIDE = int(os.environ.get("STRIDE", "1"))


@triton.jit
def strided_add(x_ptr, y_ptr, out_ptr, n_elements, STRIDE: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets * STRIDE, mask=mask)  # the planted line
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def main():
    n = 1 << 20
    x = torch.rand(n * STRIDE, device="cuda")
    y = torch.rand(n, device="cuda")
    out = torch.empty_like(y)
    for _ in range(3):
        strided_add[(triton.cdiv(n, 1024),)](x, y, out, n, STRIDE=STRIDE, BLOCK_SIZE=1024, num_warps=4)
    torch.cuda.synchronize()
    assert torch.allclose(out, x[:: STRIDE][:n] + y)
    print("strided_add: ok, STRIDE", STRIDE)


if __name__ == "__main__":
    main()
