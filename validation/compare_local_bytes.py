#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Whether the hardware counter of local-memory bytes (l1tex__t_bytes_pipe_lsu_mem_local_op_{ld,st}.sum) equals
32 x the instrumented local sector count, kernel by kernel, in results files measured with both:

    counterguard run cases/ --no-baselines --json all.json \\
        --metric smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_st.sum \\
        --metric smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_ld.sum \\
        --metric local_store_bytes_hw --metric local_load_bytes_hw
    validation/compare_local_bytes.py all.json [more.json]

The hardware values are read from local_{load,store}_bytes_hw, or from local_{load,store}_bytes in results of
commits up to cc54777 (when those aliases read the hardware counter). Prints every non-zero or
differing pair and the counts; exit status 1 if any pair differs or none was found.
"""
import json
import sys

SECTORS = {"store": "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_st.sum",
           "load": "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_local_op_ld.sum"}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    same = differ = 0
    for path in sys.argv[1:]:
        with open(path) as f:
            cases = json.load(f)["cases"]
        for case in cases:
            for kernel in case["kernels"]:
                metrics = kernel["metrics"]
                for verb, sectors in SECTORS.items():
                    hardware = metrics.get(f"local_{verb}_bytes_hw", metrics.get(f"local_{verb}_bytes"))
                    counted = metrics.get(sectors)
                    if hardware is None or counted is None:
                        continue
                    equal = hardware == 32 * counted
                    same += equal
                    differ += not equal
                    if not equal or hardware != 0:
                        print(f"{case['instance']} {kernel['function']}: local {verb} bytes {hardware:.0f}, "
                              f"32 x {sectors} = {32 * counted:.0f}: {'same' if equal else 'DIFFERENT'}")
    print(f"{same} same, {differ} different")
    sys.exit(0 if same and not differ else 1)


if __name__ == "__main__":
    main()
