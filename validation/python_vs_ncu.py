#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""counterguard.profile against Nsight Compute on the same launches of examples/python_kernels/launch_all.py:
ncu profiles the kernels the script launches (its raw CSV page), counterguard the same script's launches
(launch_all.py --counterguard); every raw counter of every launch must be equal. Writes a Markdown table;
exit status 1 on any difference or when nothing was compared.

usage: python_vs_ncu.py <counterguard.json> <ncu.csv> <report.md>
"""

import csv
import io
import json
import sys


def ncu_rows(path):
    with open(path, encoding="utf-8", errors="replace") as text:
        lines = [line for line in text if line.startswith('"')]
    return [row for row in csv.DictReader(io.StringIO("".join(lines))) if row.get("ID", "").strip().isdigit()]


def number(text):
    return float(text.replace(",", "")) if text not in ("", "n/a") else None


def main():
    counterguard_json, ncu_csv, report = sys.argv[1:4]
    measured = json.load(open(counterguard_json, encoding="utf-8"))
    launches = measured["launches"]
    rows = ncu_rows(ncu_csv)
    # launch_all.py launches every kernel twice and counterguard measures the second launches: the last rows.
    rows = rows[-len(launches):] if len(rows) >= len(launches) else rows
    lines = ["| launch | kernel | counter | counterguard | ncu | equal |", "|---|---|---|---|---|---|"]
    compared = differences = 0
    if len(rows) != len(launches):
        differences += 1
        lines.append(f"| - | - | launches | {len(launches)} | {len(rows)} | no |")
    for launch, row in zip(launches, rows):
        if row["Kernel Name"].strip() != launch["mangled"]:
            differences += 1
            lines.append(f"| {launch['label']} | {launch['mangled']} | kernel | {launch['mangled']} | "
                         f"{row['Kernel Name'].strip()} | no |")
            continue
        for metric in measured["raw_metrics"]:
            ours = launch["metrics"].get(metric)
            theirs = number(row.get(metric, ""))
            equal = ours is not None and theirs is not None and ours == theirs
            compared += 1
            differences += 0 if equal else 1
            lines.append(f"| {launch['label']} | {launch['function']} | `{metric}` | {ours} | {theirs} | "
                         f"{'yes' if equal else 'NO'} |")
    summary = f"{compared} counter values compared on {len(launches)} launches, {differences} differences"
    with open(report, "w", encoding="utf-8") as out:
        out.write("# counterguard.profile against ncu, same launches\n\n" + summary + "\n\n" + "\n".join(lines) + "\n")
    print(f"python_vs_ncu: {summary}")
    return 0 if compared and not differences else 1


if __name__ == "__main__":
    sys.exit(main())
