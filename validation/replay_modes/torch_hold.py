# SPDX-License-Identifier: Apache-2.0
"""A PyTorch program that holds GIB gibibytes (default 64) in its caching allocator and runs a small kernel
STEPS times inside the NVTX range "measure".

    python3 torch_hold.py [GIB] [STEPS]
"""
import sys
import time

import torch

gib = float(sys.argv[1]) if len(sys.argv) > 1 else 64.0
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 10
held = torch.empty(int(gib * (1 << 30)), dtype=torch.uint8, device="cuda")
held.fill_(1)
x = torch.ones(1 << 22, device="cuda")
torch.cuda.synchronize()
started = time.perf_counter()
torch.cuda.nvtx.range_push("measure")
for _ in range(steps):
    x.mul_(1.0001).add_(1.0)
torch.cuda.synchronize()
torch.cuda.nvtx.range_pop()
print(f"torch_hold: {gib:g} GiB held, {steps} steps in {time.perf_counter() - started:.3f} s, {float(x.sum()):.6e}")
