#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a suite with N case instances of built-in kernels (axes over the problem size), for measuring how
counterguard's host memory and time grow with the number of cases (validation/measure_host_memory.py).

    validation/generate_scale_suite.py 1000 /tmp/scale.yaml
"""
import argparse
import pathlib

# Built-in variants with an `n` parameter and expectations that are formulas of it; instances cycle over them.
KERNELS = [
    ("vec_add", "coalescing/vec_add", 32,
     {"global_load_requests": '{equals: "2 * n / 32"}', "global_load_sectors_per_request": "4",
      "global_store_requests": '{equals: "n / 32"}', "spill_store_bytes": "0", "stack_frame_bytes": "0"}),
    ("soa", "coalescing/soa", 32,
     {"global_load_sectors_per_request": "4", "spill_store_bytes": "0", "registers_per_thread": "{max: 64}"}),
    ("aos", "coalescing/aos", 32,
     {"global_load_sectors_per_request": "16", "spill_store_bytes": "0"}),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("instances", type=int, help="case instances in the suite")
    parser.add_argument("output", type=pathlib.Path, help="the suite file to write")
    parser.add_argument("--suite", default="scale", help="suite name (default: scale)")
    args = parser.parse_args()
    lines = [f"suite: {args.suite}",
             f"description: {args.instances} generated instances of built-in kernels (validation/generate_scale_suite.py)",
             "cases:"]
    per_kernel = [args.instances // len(KERNELS) + (1 if i < args.instances % len(KERNELS) else 0)
                  for i in range(len(KERNELS))]
    for (name, kernel, multiple, expect), count in zip(KERNELS, per_kernel):
        if count == 0:
            continue
        sizes = ", ".join(str(multiple * 8 * (i + 1)) for i in range(count))
        lines += [f"  - name: {name}", f"    kernel: {kernel}", f"    axes: {{n: [{sizes}]}}", "    expect:"]
        lines += [f"      {metric}: {value}" for metric, value in expect.items()]
    args.output.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
