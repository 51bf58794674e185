# SPDX-License-Identifier: Apache-2.0
"""A Triton kernel autotuned over configs of different BLOCK and num_warps: one kernel name, one cubin per
config. It knows nothing of counterguard. With --report F it writes what Triton compiled for each config
(num_warps, BLOCK, n_regs, n_spills, the local bytes per thread) as JSON: what the launches' static metrics
are compared with (validation/launch_code_checks.sh). Each config has its own num_warps, so a launch's
block size names its config.

    python3 triton_autotuned.py [--report F] [--sizes 65536,262144,1048576]
"""
import argparse
import json

import torch
import triton
import triton.language as tl

CONFIGS = [
    triton.Config({"BLOCK": 256}, num_warps=1),
    triton.Config({"BLOCK": 1024}, num_warps=4),
    triton.Config({"BLOCK": 8192}, num_warps=2),  # 128 values a thread of six live tensors: spills
]


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def tuned_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
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


def compiled_configs():
    """Every config Triton compiled for the kernel, from its JIT function's caches."""
    fn = tuned_kernel.fn
    found = []
    caches = getattr(fn, "device_caches", None)
    kernels = []
    if caches is not None:
        for entry in caches.values():
            kernels.extend(entry[0].values())
    else:  # older Triton: cache[device][key]
        for per_device in fn.cache.values():
            kernels.extend(per_device.values())
    for kernel in kernels:
        kernel._init_handles()
        constants = {}
        src = getattr(kernel, "src", None)
        if src is not None and hasattr(src, "constants"):
            constants = {str(k): v for k, v in src.constants.items() if isinstance(v, int)}
        found.append({"name": kernel.metadata.name, "num_warps": kernel.metadata.num_warps,
                      "block_threads": kernel.metadata.num_warps * 32, "constants": constants,
                      "n_regs": kernel.n_regs, "n_spills": kernel.n_spills,
                      "local_bytes_per_thread": kernel.n_spills * 4, "shared": kernel.metadata.shared})
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--report", default="")
    parser.add_argument("--sizes", default="65536,262144,1048576")
    args = parser.parse_args()
    for n in (int(s) for s in args.sizes.split(",")):
        x = torch.arange(n, device="cuda", dtype=torch.float32) / n
        out = torch.empty_like(x)
        tuned_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n)
        torch.cuda.synchronize()
        expected = x * 1.5 * (x + 2.0) - torch.sqrt(torch.abs(x) + 1.0) + x
        if not torch.allclose(out, expected, rtol=1e-4, atol=1e-4):
            raise SystemExit(f"wrong result at n = {n}")
        print(f"n = {n}: best config {tuned_kernel.best_config}")
    configs = compiled_configs()
    for config in configs:
        print(json.dumps(config))
    if args.report:
        with open(args.report, "w") as f:
            json.dump({"triton": triton.__version__, "configs": configs}, f, indent=2)


if __name__ == "__main__":
    main()
