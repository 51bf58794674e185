#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Blame of each planted regression of validation/planted_regressions.py: the case's first instance is
profiled per instruction (`counterguard blame --record`) as committed and as planted, and the planted profile is
compared with the committed one (`blame --from planted --against committed`). The report gives, per plant, the
kernels before and after and the largest per-line changes, excess wavefronts and sectors first.

Usage (GPU host): planted_blame.py --counterguard BIN --out DIR --report out.md
"""
import argparse
import json
import os
import subprocess
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from planted_regressions import PLANTS  # noqa: E402  (the same plants as the regression check)

# The derived metrics say what a regression of banks, coalescing or predication moved; shown first, in this
# order (a kernel's bounds-check EXIT has predicated-off lanes by the million, and says little).
FIRST = ("shared_excess_wavefronts", "global_excess_sectors", "predicated_off_thread_instructions")


def blame(binary, suite_file, case, record, log):
    command = [binary, "blame", suite_file, "--case", f"{case}*", "--instance", "0", "--record", record]
    with open(log, "w") as out:
        return subprocess.run(command, stdout=out, stderr=subprocess.STDOUT).returncode


def kernels(profile_file):
    return sorted({f["function"] for f in json.load(open(profile_file))["functions"]})


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counterguard", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--report", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    rows = []
    for suite, case, change, edits in PLANTS:
        data = yaml.safe_load(open(f"cases/{suite}.yaml"))
        for entry in data["cases"]:
            if entry["name"] == case:
                entry.update(edits)
        planted_suite = os.path.join(args.out, f"{suite}_planted.yaml")
        yaml.safe_dump(data, open(planted_suite, "w"), sort_keys=False)
        name = f"{suite}_{case}"
        before = os.path.join(args.out, f"{name}.json")
        after = os.path.join(args.out, f"{name}_planted.json")
        status_before = blame(args.counterguard, f"cases/{suite}.yaml", f"{suite}/{case}", before,
                              os.path.join(args.out, f"{name}.log"))
        status_after = blame(args.counterguard, planted_suite, f"{suite}/{case}", after,
                             os.path.join(args.out, f"{name}_planted.log"))
        if status_before != 0 or status_after != 0:
            rows.append((suite, case, change, f"blame exit status {status_before} / {status_after}", [], ""))
            continue
        diff_json = os.path.join(args.out, f"{name}_diff.json")
        with open(os.path.join(args.out, f"{name}_diff.txt"), "w") as out:
            status = subprocess.run([args.counterguard, "blame", "--from", after, "--against", before, "--top", "0",
                                     "--json", diff_json], stdout=out, stderr=subprocess.STDOUT).returncode
        changes = json.load(open(diff_json)).get("changes", []) if status == 0 else []
        changes.sort(key=lambda c: (FIRST.index(c["metric"]) if c["metric"] in FIRST else len(FIRST),
                                    -abs(c["after"] - c["before"])))
        shown = [f"`{c['place']}  {c['sass']}  {c['metric'].replace('_', ' ')} {c['before']} -> {c['after']}`"
                 for c in changes[:3]]
        kernels_before, kernels_after = kernels(before), kernels(after)
        kernel_change = "" if kernels_before == kernels_after else \
            f"{', '.join(kernels_before)} -> {', '.join(kernels_after)}"
        rows.append((suite, case, change, f"{len(changes)} changed lines", shown, kernel_change))

    lines = ["# Planted regressions blamed per source line on the H200", "",
             f"Command: `{' '.join(sys.argv)}`", "",
             "| suite | case | planted change | kernel | blame | top changes (excess wavefronts, excess sectors, "
             "predicated-off lanes, then the rest) |",
             "|---|---|---|---|---|---|"]
    for suite, case, change, summary, shown, kernel_change in rows:
        lines.append(f"| {suite} | {case} | {change} | {kernel_change or 'same'} | {summary} | "
                     f"{'<br>'.join(shown)} |")
    text = "\n".join(lines) + "\n"
    open(args.report, "w").write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
