#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Planted regressions, one per built-in suite: each changes one case the way a careless edit would (same case
name, so its baseline applies), runs it on the GPU against the committed baselines, and checks that the run
fails naming a metric. The spills plant needs a binary built with -DCOUNTERGUARD_PLANT_REGISTER_LIMIT=32.

Usage (GPU host): planted_regressions.py --counterguard BIN [--planted-binary BIN] --report out.md
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import yaml

# (suite, case, what changes, changes to the case)
PLANTS = [
    ("atomics", "block_shuffle", "block reduction removed: one atomic per warp instead of per block",
     {"kernel": "atomics/per_thread"}),
    ("coalescing", "contiguous", "vecAdd index stride raised from 1 to 2",
     {"kernel": "coalescing/strided", "parameters": {"n": 4194304, "stride": 2}}),
    ("constant", "uniform", "the table index became lane-dependent (8 distinct words per warp)",
     {"parameters": {"distinct": 8}}),
    ("divergence", "warp_uniform", "the branch condition moved from the warp index to the lane parity",
     {"kernel": "divergence/odd_even"}),
    ("histogram", "block_shared", "items per thread cut from 64 to 8: 8x more blocks merging into global bins",
     {"parameters": {"items": 8}}),
    ("matmul", "tiled_32", "B tile stored column-major (conflicting layout)",
     {"kernel": "matmul/tiled_32_column_major"}),
    ("occupancy", "block_256", "100 KB of shared memory added to the kernel",
     {"parameters": {"block": 256, "shared_bytes": 102400}}),
    ("shared_banks", "broadcast", "lanes read every other word instead of one broadcast word",
     {"kernel": "shared_banks/strided", "parameters": {"stride": 2}}),
    ("texture", "texture_fetch", "texture fetches replaced by plain global loads",
     {"kernel": "texture/global"}),
    ("transpose", "smem_padded", "shared-memory tile padding removed",
     {"parameters": {"pad": 0}}),
]


def run(binary, suite_file, case_filter, out_json):
    result = subprocess.run([binary, "run", suite_file, "--filter", case_filter, "--quiet", "--json", out_json],
                            capture_output=True, text=True)
    failing = []
    blamed = []  # the run's source-line blame of the failed case (docs/blame.md), its top lines
    if os.path.exists(out_json):
        for case in json.load(open(out_json))["cases"]:
            blame = case.get("blame")
            if blame:
                blamed += [blame["note"]] if blame["note"] else []
                blamed += [f"`{line['place']}` `{line['sass']}` {line['metric'].replace('_', ' ')} "
                           + (f"{line['before']} -> " if line["before"] is not None else "") + str(line["after"])
                           for line in blame["lines"][:2]]
            failing += [f"{c['metric']} ({c['verdict']}: expected {c['expected']}, measured {c['measured']})"
                        for c in case["checks"] if c["failing"]]
            if case["status"] == "error":
                failing.append("error: " + case["status_reason"])
    return result.returncode, failing, blamed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counterguard", required=True)
    parser.add_argument("--planted-binary", help="counterguard built with COUNTERGUARD_PLANT_REGISTER_LIMIT=32")
    parser.add_argument("--report", required=True)
    args = parser.parse_args()

    rows = []
    with tempfile.TemporaryDirectory() as directory:
        for suite, case, change, edits in PLANTS:
            data = yaml.safe_load(open(f"cases/{suite}.yaml"))
            for entry in data["cases"]:
                if entry["name"] == case:
                    entry.update(edits)
            planted = os.path.join(directory, f"{suite}.yaml")
            yaml.safe_dump(data, open(planted, "w"), sort_keys=False)
            status, failing, blamed = run(args.counterguard, planted, f"{suite}/{case}*", planted + ".json")
            rows.append((suite, case, change, status, failing, blamed))
        if args.planted_binary:
            status, failing, blamed = run(args.planted_binary, "cases/spills.yaml", "spills/no_limit",
                                          os.path.join(directory, "spills.json"))
            rows.append(("spills", "no_limit", "kernels rebuilt with -maxrregcount=32", status, failing, blamed))

    caught = sum(1 for row in rows if row[3] == 1 and row[4])
    lines = ["# Planted regressions on the H200", "", f"Command: `{' '.join(sys.argv)}`", "",
             f"**{caught} of {len(rows)} caught** (exit status 1 with the failing metrics named).", "",
             "| suite | case | planted change | exit | failing checks | blamed source lines |",
             "|---|---|---|---:|---|---|"]
    for suite, case, change, status, failing, blamed in rows:
        shown = "<br>".join(failing[:6]) + (f"<br>(+{len(failing) - 6} more)" if len(failing) > 6 else "")
        lines.append(f"| {suite} | {case} | {change} | {status} | {shown} | {'<br>'.join(blamed) or '-'} |")
    text = "\n".join(lines) + "\n"
    open(args.report, "w").write(text)
    print(text)
    return 0 if caught == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
