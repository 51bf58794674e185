#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`counterguard exec --blame` against Nsight Compute's source page of the same launch, line by line.

For each source line the blame names (its JSON report: cases[].blame.lines[], the planted program's values in
`after`), ncu's source page (`ncu --section SourceCounters --page source --print-source sass,cuda --csv`) gives
the SASS instructions of that line and their counters: the line's value is their sum, and the instruction the
blame shows must be one of them. Writes a Markdown report; exit 1 when a value differs or nothing was compared.

Usage: exec_blame_vs_ncu.py BLAME.json NCU_SOURCE.csv [--case INSTANCE] [--report OUT.md]
"""
import argparse
import csv
import io
import json
import os
import sys

# The blame's per-line metric -> ncu's source-page column (the same pairs ncu_blame_crosscheck.py compares).
COLUMNS = {
    "executed_instructions": "Instructions Executed",
    "shared_wavefronts": "L1 Wavefronts Shared",
    "shared_excess_wavefronts": "L1 Wavefronts Shared Excessive",
    "shared_wavefronts_ideal": "L1 Wavefronts Shared Ideal",
    "global_sectors": "L2 Theoretical Sectors Global",
    "global_excess_sectors": "L2 Theoretical Sectors Global Excessive",
}


def number(text):
    try:
        return int(float((text or "").replace(",", "").strip()))
    except ValueError:
        return None


def ncu_lines(path):
    """(file name, {line: [(sass, {column: value})]}) of ncu's source page."""
    text = open(path, errors="replace").read()
    file_name = ""
    for row in csv.reader(io.StringIO(text)):
        if len(row) == 2 and row[0] == "File Path":
            file_name = os.path.basename(row[1])
    start = text.find('"Line No"')
    if start < 0:
        return file_name, {}
    rows = list(csv.reader(io.StringIO(text[start:])))
    header = rows[0]
    lines, current = {}, None
    for row in rows[1:]:
        if len(row) != len(header):
            continue
        if row[0].strip():
            current = int(row[0])
            lines.setdefault(current, [])
        elif current is not None and row[2].startswith("0x"):
            # The second "Source" column holds the SASS; counters follow, named by the header.
            values = {name: number(value) for name, value in zip(header[4:], row[4:])}
            lines[current].append((row[3].strip(), values))
    return file_name, lines


def same_instruction(a, b):
    """ncu pads the predicate (`@!P0  LDG.E`): compared word by word."""
    return a.split() == b.split()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("blame")
    parser.add_argument("ncu_csv")
    parser.add_argument("--case", default=None, help="the case instance ncu's launch is (default: the first blamed)")
    parser.add_argument("--report", default=None)
    args = parser.parse_args()
    cases = [case for case in json.load(open(args.blame))["cases"] if case.get("blame")]
    if args.case:
        cases = [case for case in cases if case["instance"] == args.case]
    if not cases:
        print(f"exec_blame_vs_ncu: no blamed case in {args.blame}", file=sys.stderr)
        return 1
    case = cases[0]
    file_name, lines = ncu_lines(args.ncu_csv)
    rows, compared, differ = [], 0, 0
    for blamed in case["blame"]["lines"]:
        place_file, _, place_line = blamed["place"].rpartition(":")
        column = COLUMNS.get(blamed["metric"])
        instructions = lines.get(int(place_line), []) if place_file == file_name else []
        if column is None or not instructions:
            rows.append(f"| `{blamed['place']}` | {blamed['metric']} | {blamed['after']} | not on ncu's page "
                        f"({file_name}) | |")
            differ += 1
            continue
        theirs = sum(values.get(column) or 0 for _, values in instructions)
        listed = any(same_instruction(sass, blamed["sass"]) for sass, _ in instructions)
        same = theirs == blamed["after"] and listed
        compared += 1
        differ += 0 if same else 1
        rows.append(f"| `{blamed['place']}` `{blamed['sass']}` | {blamed['metric']} | {blamed['after']} | {theirs} "
                    f"(`{column}`, {len(instructions)} instructions) | {'same' if same else '**DIFFERENT**'} |")
    report = [f"# exec --blame against ncu's source page: `{case['instance']}`", "",
              f"blame `{args.blame}`, ncu `{args.ncu_csv}` (file {file_name})", "",
              "| blamed line and instruction | metric | exec --blame | ncu, that line | |", "|---|---|---:|---|---|",
              *rows, "", f"{compared} line values compared, {differ} differ."]
    text = "\n".join(report) + "\n"
    if args.report:
        open(args.report, "w").write(text)
    print(text)
    return 0 if compared and not differ else 1


if __name__ == "__main__":
    sys.exit(main())
