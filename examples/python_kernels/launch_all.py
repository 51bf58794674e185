#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Launches each example kernel once, in a fixed order, for comparing counterguard's values with Nsight
Compute's on the same launches (validation/python_plugin.sh runs it under ncu, and with counterguard).

  launch_all.py                          launch, nothing profiled (run it under ncu)
  launch_all.py --counterguard OUT.json  profile each launch with counterguard.profile, write the values
"""

import argparse
import json
import sys

# The instrumented counters behind the coalescing and bank-conflict aliases: exact, so equal to ncu's.
RAW_METRICS = [
    "smsp__sass_inst_executed_op_global_ld.sum",
    "smsp__sass_inst_executed_op_global_st.sum",
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
]
ALIASES = ["global_load_sectors_per_request", "global_store_sectors_per_request", "shared_load_bank_conflicts",
           "shared_store_bank_conflicts", "launch_registers_per_thread"]
# ncu's filter for these launches (the inputs are made by PyTorch, CuPy and Numba kernels too).
KERNEL_REGEX = "copy_kernel|transpose_(un)?padded|scale_kernel"


def launches():
    """(label, launch) for every kernel, inputs made beforehand; a framework that is missing is left out."""
    found = []
    try:
        import torch
        from python_kernels.triton_copy import copy
        n = 1 << 18
        src = torch.arange(n * 32, dtype=torch.float32, device="cuda")
        dst = torch.empty(n, dtype=torch.float32, device="cuda")
        torch.cuda.synchronize()
        # Each launch binds its own inputs: a closure would see the `n` of the frameworks set up after it.
        found.append(("triton copy stride 1", lambda n=n: copy(src, dst, n, 1)))
        found.append(("triton copy stride 32", lambda n=n: copy(src, dst, n, 32)))
    except ImportError as missing:
        print(f"launch_all: no Triton launches: {missing}", file=sys.stderr)
    try:
        import cupy
        from python_kernels.cupy_transpose import transpose, transpose_kernel
        n = 1024
        a = cupy.arange(n * n, dtype=cupy.float32).reshape(n, n)
        b = cupy.empty_like(a)
        unpadded, padded = transpose_kernel("transpose_unpadded", 0), transpose_kernel("transpose_padded", 1)
        cupy.cuda.Device().synchronize()
        found.append(("cupy transpose unpadded", lambda n=n: transpose(unpadded, a, b, n)))
        found.append(("cupy transpose padded", lambda n=n: transpose(padded, a, b, n)))
    except ImportError as missing:
        print(f"launch_all: no CuPy launches: {missing}", file=sys.stderr)
    try:
        import numpy
        from python_kernels.numba_scale import numba_problem, scale
        problem = numba_problem()
        if problem is None:
            from numba import cuda
            n = 1 << 18
            src_n = cuda.to_device(numpy.arange(n, dtype=numpy.float32))
            dst_n = cuda.device_array(n, dtype=numpy.float32)
            cuda.synchronize()
            found.append(("numba scale", lambda n=n: scale(src_n, dst_n, n, 1)))
        else:
            print(f"launch_all: no Numba launch: {problem}", file=sys.stderr)
    except ImportError as missing:
        print(f"launch_all: no Numba launch: {missing}", file=sys.stderr)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counterguard", metavar="OUT", help="profile each launch and write the values here")
    arguments = parser.parse_args()
    # Compile and load every kernel first: the launches compared are the second ones, the same on both sides.
    work = launches()
    for _, launch in work:
        launch()
    records = []
    for label, launch in work:
        if arguments.counterguard:
            import counterguard
            with counterguard.profile(RAW_METRICS + ALIASES) as m:
                launch()
            for kernel in m.kernels:
                records.append({"label": label, "function": kernel.function, "mangled": kernel.mangled,
                                "metrics": kernel.metrics})
        else:
            launch()
    if arguments.counterguard:
        with open(arguments.counterguard, "w", encoding="utf-8") as out:
            json.dump({"raw_metrics": RAW_METRICS, "launches": records}, out, indent=1)
    print(f"launch_all: {len(work)} kernels launched twice: " + ", ".join(label for label, _ in work))


if __name__ == "__main__":
    main()
