#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Per-instruction cross-check of `counterguard blame` against Nsight Compute's source page.

Runs, on the GPU host, for one case instance:
  counterguard blame SUITE --case CASE --json blame.json          (CUPTI SASS metrics, joined per PC)
  ncu --section SourceCounters --page source --print-source sass --csv --kernel-name KERNEL --launch-count 1
      counterguard launch SUITE --filter CASE                      (ncu's per-instruction source page)
and compares, instruction by instruction (PC offsets from the function start), the counters both report:
executed instructions, shared wavefronts and their excess, global sectors. Writes a Markdown report.

Usage: ncu_blame_crosscheck.py --counterguard BIN --suite cases/transpose.yaml --case NAME --kernel K --out DIR
       [--offline: compare the files a run left in DIR again]
"""
import argparse
import csv
import io
import json
import os
import subprocess
import sys

# counterguard blame metric -> the ncu source-page column (matched case-insensitively, exact header text).
COLUMNS = {
    "executed_instructions": ["Instructions Executed", "Warp Instructions Executed"],
    "shared_wavefronts": ["L1 Wavefronts Shared"],
    "shared_excess_wavefronts": ["L1 Wavefronts Shared Excessive"],
    "shared_wavefronts_ideal": ["L1 Wavefronts Shared Ideal"],
    "global_sectors": ["L2 Theoretical Sectors Global"],
    "global_excess_sectors": ["L2 Theoretical Sectors Global Excessive"],
    "thread_executed_instructions": ["Thread Instructions Executed"],
    "predicated_on_thread_instructions": ["Predicated-On Thread Instructions Executed"],
}


def number(text):
    text = (text or "").replace(",", "").strip()
    try:
        return int(float(text))
    except ValueError:
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counterguard", required=True)
    parser.add_argument("--suite", required=True)
    parser.add_argument("--case", required=True)
    parser.add_argument("--kernel", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--offline", action="store_true",
                        help="compare blame.json and ncu_source_page.csv already in --out (no GPU)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    blame_json = os.path.join(args.out, "blame.json")
    page = os.path.join(args.out, "ncu_source_page.csv")
    command = ["ncu", "--section", "SourceCounters", "--page", "source", "--print-source", "sass", "--csv",
               "--clock-control", "none", "--kernel-name", args.kernel, "--launch-count", "1",
               args.counterguard, "launch", args.suite, "--filter", args.case]
    if not args.offline:
        subprocess.run([args.counterguard, "blame", args.suite, "--case", args.case, "--json", blame_json],
                       stdout=subprocess.DEVNULL, check=True)
        ncu = subprocess.run(command, capture_output=True, text=True)
        open(page, "w").write(ncu.stdout)
        if ncu.returncode != 0:
            print(ncu.stderr[-2000:], file=sys.stderr)
    ours = {}  # pc offset -> metric -> value
    for function in json.load(open(blame_json))["blame"]:
        for line in function["lines"]:
            for instruction in line["instructions"]:
                ours[instruction["pc_offset"]] = (line["place"], instruction["sass"], instruction["values"])

    text = open(page).read()
    start = text.find('"Address"')  # after ncu's messages and its "Kernel Name" line
    rows = list(csv.DictReader(io.StringIO(text[start:]))) if start >= 0 else []
    if not rows:
        print(f"ncu gave no source page (see {page})", file=sys.stderr)
        return 2
    headers = {h.lower(): h for h in rows[0].keys()}
    address_column = headers.get("address")
    addresses = [int(r[address_column], 16) for r in rows if r.get(address_column)]
    base = min(addresses)
    compared, mismatches, lines = 0, [], []
    for metric, candidates in COLUMNS.items():
        column = next((headers[c.lower()] for c in candidates if c.lower() in headers), None)
        if column is None:
            lines.append(f"- `{metric}`: ncu's source page has no column {candidates}")
            continue
        count, differ = 0, 0
        for row in rows:
            if not row.get(address_column):
                continue
            pc = int(row[address_column], 16) - base
            theirs = number(row[column])
            if theirs is None or pc not in ours:
                continue
            mine = ours[pc][2].get(metric, 0)
            count += 1
            if mine != theirs:
                differ += 1
                mismatches.append(f"| {pc:04x} | {ours[pc][0]} | `{ours[pc][1]}` | {metric} | {mine} | {theirs} |")
        compared += count
        lines.append(f"- `{metric}` vs ncu `{column}`: {count} instructions compared, **{differ} differ**")
    report = ["# counterguard blame against ncu's source page, per instruction", "",
              f"Case `{args.case}`, kernel `{args.kernel}`.", "",
              "Commands:", f"- `{args.counterguard} blame {args.suite} --case '{args.case}' --json blame.json`",
              "- `" + " ".join(command) + "`", "", *lines, "",
              f"{compared} instruction values compared, {len(mismatches)} differ."]
    if mismatches:
        report += ["", "| PC | line | SASS | metric | counterguard | ncu |", "|---|---|---|---|---:|---:|",
                   *mismatches[:40]]
    text = "\n".join(report) + "\n"
    open(os.path.join(args.out, "ncu_blame_crosscheck.md"), "w").write(text)
    print(text)
    return 0 if compared > 0 and not mismatches else 1


if __name__ == "__main__":
    sys.exit(main())
