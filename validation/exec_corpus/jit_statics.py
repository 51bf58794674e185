#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Static metrics of the corpus's JIT-compiled kernels as their own compilers report them, against what
`counterguard exec` read from the modules the driver loaded.

    jit_statics.py --exec-json python.json [--exec-json nvrtc.json] [--nvrtc-cubin F] [--report F]

Triton: CompiledKernel.n_regs and n_spills (Triton's n_spills is the local memory size / 4), and cuobjdump of
its cubin (registers, stack, and the bytes its STL instructions store); CuPy: RawKernel.attributes; NVRTC:
cuobjdump of the cubin the program wrote; Numba: the dispatcher's register and local-memory queries.
Exit status 1 on any mismatch or when nothing was compared.
"""
import argparse
import json
import os
import re
import runpy
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def cuobjdump_resources(cubin):
    text = subprocess.run(["cuobjdump", "-res-usage", cubin], capture_output=True, text=True).stdout
    found = {}
    for name, body in re.findall(r"Function (\S+):\s*\n\s*(REG:.*)", text):
        values = dict(re.findall(r"(\w+(?:\[\d+\])?):(\d+)", body))
        found[name] = {"registers": int(values.get("REG", 0)), "stack_frame_bytes": int(values.get("STACK", 0)),
                       "static_shared_bytes": int(values.get("SHARED", 0))}
    return found


def stl_bytes(cubin, function):
    """The bytes the function's STL instructions store (each spill store is one STL)."""
    text = subprocess.run(["cuobjdump", "-sass", "-fun", function, cubin], capture_output=True, text=True).stdout
    total = 0
    for width in re.findall(r"\bSTL(\.64|\.128|\.U8|\.S8|\.U16|\.S16)?\b", text):
        total += {".64": 8, ".128": 16, ".U8": 1, ".S8": 1, ".U16": 2, ".S16": 2}.get(width, 4)
    return total


def triton_and_cupy(scratch):
    import numpy as np
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack
    sys.argv = ["python_mixed.py", "--skip-numba"]
    program = runpy.run_path(os.path.join(HERE, "python_mixed.py"), run_name="jit_statics")
    import cupy
    import torch
    x = torch.arange(1 << 20, device="cuda", dtype=torch.float32)
    out = torch.empty_like(x)
    reported = {}
    for case, kernel, args, options in (
            ("python_mixed/triton_add", program["add_kernel"], (x, torch.ones_like(x), out, 1 << 20),
             {"BLOCK": 1024}),
            ("python_mixed/triton_spill", program["spill_kernel"], (x, out, 1 << 20),
             {"BLOCK": 8192, "num_warps": 1})):
        compiled = kernel[(1,)](*args, **options)
        cubin = os.path.join(scratch, case.split("/")[1] + ".cubin")
        with open(cubin, "wb") as f:
            f.write(compiled.asm["cubin"])
        name = compiled.metadata.name
        dump = cuobjdump_resources(cubin).get(name, {})
        reported[case] = {
            "registers": compiled.n_regs, "stack_frame_bytes": compiled.n_spills * 4,
            "spill_store_bytes": stl_bytes(cubin, name),
            "also": {"cuobjdump": dump, "triton n_spills": compiled.n_spills}}
    attributes = cupy.RawKernel(program["TRANSPOSE"], "transpose_tile").attributes
    reported["python_mixed/cupy_transpose"] = {
        "registers": attributes["num_regs"], "stack_frame_bytes": attributes["local_size_bytes"],
        "static_shared_bytes": attributes["shared_size_bytes"], "also": {"cupy attributes": attributes}}
    return reported


def numba():
    import numpy as np
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack
    from numba import cuda as numba_cuda
    from numba import float32

    @numba_cuda.jit
    def scale(values, factor):
        i = numba_cuda.grid(1)
        if i < values.size:
            values[i] *= factor

    values = numba_cuda.to_device(np.arange(1024, dtype=np.float32))
    scale[4, 256](values, np.float32(3.0))
    def one(value):  # without a signature numba answers per compiled signature
        return next(iter(value.values())) if isinstance(value, dict) else value

    return {"python_mixed/numba_scale": {
        "registers": one(scale.get_regs_per_thread()),
        "stack_frame_bytes": one(scale.get_local_mem_per_thread())}}


def nvrtc(cubin):
    found = cuobjdump_resources(cubin)
    reported = {}
    for name in ("strided", "spilling"):
        if name in found:
            reported["nvrtc_kernels/" + name] = dict(found[name], spill_store_bytes=stl_bytes(cubin, name))
    return reported


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--exec-json", action="append", required=True)
    parser.add_argument("--nvrtc-cubin", default="")
    parser.add_argument("--python", action="store_true", help="also the Triton, CuPy and Numba kernels")
    parser.add_argument("--report", default="")
    args = parser.parse_args()
    measured = {}
    for path in args.exec_json:
        for case in json.load(open(path))["cases"]:
            measured[case["instance"]] = {name: value["value"] for name, value in case["totals"].items()}
    reported, problems = {}, []
    scratch = tempfile.mkdtemp(prefix="jit-statics-")
    if args.nvrtc_cubin:
        reported.update(nvrtc(args.nvrtc_cubin))
    if args.python:
        for part in (triton_and_cupy, numba):
            try:
                reported.update(part(scratch) if part is triton_and_cupy else part())
            except Exception as e:  # a compiler's own query failing is reported, not fatal
                problems.append(f"{part.__name__}: {type(e).__name__}: {e}")
    lines, compared, mismatches = [], 0, 0
    for case, values in sorted(reported.items()):
        for metric in ("registers", "stack_frame_bytes", "spill_store_bytes", "static_shared_bytes"):
            if metric not in values:
                continue
            name = "registers_per_thread" if metric == "registers" else metric
            got = measured.get(case, {}).get(name)
            compared += 1
            same = got is not None and abs(got - values[metric]) < 0.5
            mismatches += 0 if same else 1
            lines.append(f"| {case} | {name} | {values[metric]} | {got if got is not None else 'MISSING'} | "
                         f"{'equal' if same else '**differs**'} |")
    text = "\n".join(["# Static metrics of JIT-compiled kernels: their compilers against counterguard exec", "",
                      f"{compared} values compared, {mismatches} differ", "",
                      "| case | metric | compiler | counterguard exec | |", "|---|---|---|---|---|", *lines, "",
                      *(f"- not compared: {p}" for p in problems),
                      "", "Details: " + json.dumps(reported, default=str)]) + "\n"
    sys.stdout.write(text)
    if args.report:
        open(args.report, "w").write(text)
    return 1 if mismatches or compared == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
