# SPDX-License-Identifier: Apache-2.0
"""A PyTorch program that holds GIB gibibytes in its caching allocator, then runs a small kernel five times inside
the NVTX range "alloc_measure": how the cost of a profiled launch depends on the memory a program holds.

    python3 alloc_replay.py GIB
"""
import sys
import time

import torch

gib = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
held = torch.empty(int(gib * (1 << 30)), dtype=torch.uint8, device="cuda")
held.fill_(1)
x = torch.ones(1 << 20, device="cuda")
torch.cuda.synchronize()
started = time.perf_counter()
torch.cuda.nvtx.range_push("alloc_measure")
for _ in range(5):
    x.mul_(1.0001)
torch.cuda.synchronize()
torch.cuda.nvtx.range_pop()
elapsed = time.perf_counter() - started
print(f"alloc_replay: {gib:g} GiB held, five launches in {elapsed * 1000:.1f} ms")
