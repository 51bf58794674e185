# SPDX-License-Identifier: Apache-2.0
# A PyTorch + Triton script: an element-wise add whose Triton kernel is autotuned over several block sizes,
# then run in a loop. ADD_CONFIGS=wide tunes over the wider configurations of a later version.
import os

import torch
import triton
import triton.language as tl

CONFIGS = {
    "default": [
        triton.Config({"BLOCK_SIZE": 64}, num_warps=1),
        triton.Config({"BLOCK_SIZE": 128}, num_warps=1),
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
    ],
    "wide": [
        triton.Config({"BLOCK_SIZE": 64}, num_warps=1),
        triton.Config({"BLOCK_SIZE": 128}, num_warps=1),
        triton.Config({"BLOCK_SIZE": 8192}, num_warps=4),
    ],
}[os.environ.get("ADD_CONFIGS", "default")]


@triton.autotune(configs=CONFIGS, key=["n_elements"])
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def add(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)](x, y, out, n)
    return out


def main():
    torch.manual_seed(0)
    n = 1 << 22
    x = torch.rand(n, device="cuda")
    y = torch.rand(n, device="cuda")
    out = add(x, y)  # the first call tunes
    # The steady state, marked for Nsight Systems.
    with torch.cuda.nvtx.range("steady"):
        for _ in range(50):
            out = add(x, y)
    torch.cuda.synchronize()
    assert torch.allclose(out, x + y)
    print("add: ok,", add_kernel.best_config)


if __name__ == "__main__":
    main()
