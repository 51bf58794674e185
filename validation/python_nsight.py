#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Nsight Python (`@nsight.analyze.kernel` + `nsight.annotate`) against counterguard.profile on the same
Triton launch of examples/python_kernels, the same counters: wall time of each, and what each measured.
Nsight Python runs this script again under ncu; run it from examples/python_kernels with counterguard and the
example on PYTHONPATH.

usage: python_nsight.py <out.json>
"""

import json
import os
import sys
import time

sys.path.insert(0, ".")
from launch_all import RAW_METRICS  # noqa: E402

N = 1 << 18


def counterguard_side(src, dst, copy):
    import counterguard
    started = time.perf_counter()
    with counterguard.profile(RAW_METRICS) as m:
        copy(src, dst, N, 1)
    first = time.perf_counter() - started
    started = time.perf_counter()
    with counterguard.profile(RAW_METRICS) as m:
        copy(src, dst, N, 1)
    again = time.perf_counter() - started
    return {"seconds_first_block": first, "seconds_next_block": again, "values": m.kernels[0].metrics}


def nsight_side(src, dst, copy):
    import nsight

    def run(**metric_options):
        @nsight.analyze.kernel(**metric_options)
        def copy_benchmark(n):
            with nsight.annotate("copy"):
                copy(src, dst, n, 1)

        started = time.perf_counter()
        results = copy_benchmark(N)
        elapsed = time.perf_counter() - started
        try:
            table = results.to_dataframe().to_string()
        except Exception as failure:  # the table is reported, not relied on
            table = f"(no DataFrame: {failure})"
        return elapsed, table

    try:
        elapsed, table = run(metrics=RAW_METRICS)
        how = "metrics=[all raw counters]"
    except TypeError:  # older Nsight Python: one metric
        elapsed, table = run(metric=RAW_METRICS[2])
        how = f"metric={RAW_METRICS[2]}"
    return {"seconds": elapsed, "collected": how, "table": table}


def main():
    out = sys.argv[1]
    import torch
    from python_kernels.triton_copy import copy
    src = torch.arange(N, dtype=torch.float32, device="cuda")
    dst = torch.empty(N, dtype=torch.float32, device="cuda")
    copy(src, dst, N, 1)  # compiled before either side times it
    torch.cuda.synchronize()
    # Nsight Python runs this script again under ncu: that run (which inherits the variable) only serves it.
    parent = os.environ.setdefault("CG_NSIGHT_PARENT", str(os.getpid()))
    child = parent != str(os.getpid())
    report = {}
    try:
        import nsight  # noqa: F401
    except ImportError as missing:
        report["nsight"] = {"installed": False, "why": str(missing)}
    else:
        try:  # first: counterguard's profiler is not open yet in this process
            report["nsight"] = {"installed": True, **nsight_side(src, dst, copy)}
        except Exception as failure:  # reported as it is
            report["nsight"] = {"installed": True, "error": f"{type(failure).__name__}: {failure}"}
    if not child:
        report["counterguard"] = counterguard_side(src, dst, copy)
        with open(out, "w", encoding="utf-8") as file:
            json.dump(report, file, indent=1)
        print(json.dumps({k: {kk: vv for kk, vv in v.items() if kk != "table"} for k, v in report.items()}))


if __name__ == "__main__":
    main()
