# SPDX-License-Identifier: Apache-2.0
"""counterguard.profile over Triton kernels: one compiled and launched before the first block (its module
loaded before counterguard watched the process), one compiled inside the block. Writes, with --report F, what
each block measured per launch next to Triton's n_regs and n_spills for the kernel."""
import argparse
import json

import torch
import triton
import triton.language as tl

import counterguard

METRICS = ["registers_per_thread", "stack_frame_bytes", "spill_store_bytes", "static_shared_bytes",
           "launch__registers_per_thread", "launch_local_bytes_per_thread"]


@triton.jit
def warm_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, x * x + 1.0, mask=mask)


@triton.jit
def fresh_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    a = x * 1.5
    b = x + 2.0
    c = tl.sqrt(tl.abs(x) + 1.0)
    total = tl.sum(a, 0) + tl.sum(b, 0) + tl.sum(c, 0)
    tl.store(out_ptr + offsets, a * b - c + total * 0.0, mask=mask)


def block(kernel, x, out, n, options):
    with counterguard.profile(METRICS) as m:
        compiled = kernel[(triton.cdiv(n, options["BLOCK"]),)](x, out, n, **options)
        torch.cuda.synchronize()
    launch = m.kernels[0]
    return {"triton": {"n_regs": compiled.n_regs, "n_spills": compiled.n_spills,
                       "local_bytes": compiled.n_spills * 4},
            "measured": launch.metrics, "unmeasured": launch.unmeasured,
            "spill_store_bytes_error": _missing(m, "spill_store_bytes")}


def _missing(m, metric):
    try:
        m[metric]
        return ""
    except KeyError as e:
        return str(e)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--report", default="")
    args = parser.parse_args()
    n = 1 << 20
    x = torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    warm_kernel[(n // 1024,)](x, out, n, BLOCK=1024)  # compiled and loaded before any block
    torch.cuda.synchronize()
    report = {"before_the_block": block(warm_kernel, x, out, n, {"BLOCK": 1024}),
              "inside_the_block": block(fresh_kernel, x, out, n, {"BLOCK": 8192, "num_warps": 2})}
    print(json.dumps(report, indent=2))
    if args.report:
        with open(args.report, "w") as f:
            json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
