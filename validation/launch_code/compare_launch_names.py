#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every launch__ value counterguard reports against ncu's for the same launches, from what
validation/launch_code_checks.sh `names` recorded:

    compare_launch_names.py --out DIR

DIR holds names_exec.json (launch_names under `counterguard exec`, every launch selected, every launch__ name
counterguard reports), names_ncu.csv (the same program under ncu --metrics regex:^launch__ --page raw --csv),
names_refusals.txt (counterguard's message for each ncu name it does not report) and names_driver.log (the
program's own line per launch: what the driver says of it). Prints "N of N values equal", the names ncu
showed that counterguard neither reports nor refuses with a reason, and each difference with the launch's
inputs (for fitting a rule); exits 1 on any difference, unmeasured value or unexplained name.
"""
import argparse
import csv
import io
import json
import os
import sys


def number(text):
    return float(text.replace(",", ""))


def ncu_rows(path):
    text = open(path).read()
    rows = list(csv.reader(io.StringIO("\n".join(l for l in text.splitlines() if l.startswith('"')))))
    header, rows = rows[0], rows[2:]  # the second row holds the units
    return [dict(zip(header, row)) for row in rows], header


def exec_launches(path):
    found = []
    for case in json.load(open(path))["cases"]:
        found.extend(case["kernels"])
    return found


def driver_lines(path):
    if not os.path.exists(path):
        return []
    return [line.strip() for line in open(path) if line.startswith("launch ")]


def refusals(path):
    said = {}
    if os.path.exists(path):
        for line in open(path):
            name, _, message = line.rstrip("\n").partition("\t")
            said[name] = message
    return said


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    rows, header = ncu_rows(os.path.join(args.out, "names_ncu.csv"))
    launches = exec_launches(os.path.join(args.out, "names_exec.json"))
    drivers = driver_lines(os.path.join(args.out, "names_driver.log"))
    if len(rows) != len(launches) or not rows:
        print(f"launch names: {len(launches)} exec launches, {len(rows)} ncu rows: cannot pair them [MISMATCH]")
        return 1
    compared, unmeasured, differences, per_name = 0, [], [], {}
    reported = set()
    for index, (mine, theirs) in enumerate(zip(launches, rows)):
        metrics, missing = mine["metrics"], mine.get("unmeasured", {})
        for name in header:
            if not name.startswith("launch__"):
                continue
            if name in missing:
                reported.add(name)
                unmeasured.append(f"launch {index} {mine['function']} {name}: {missing[name]}")
                continue
            if name not in metrics:
                continue
            reported.add(name)
            compared += 1
            try:
                expected = number(theirs[name])
            except ValueError:
                differences.append(f"launch {index} {name}: ncu's value {theirs[name]!r} is not a number")
                continue
            tolerance = 0.005 if name == "launch__waves_per_multiprocessor" else 1e-9
            equal = abs(metrics[name] - expected) <= tolerance * max(1.0, abs(expected))
            per_name.setdefault(name, [0, 0])[0 if equal else 1] += 1
            if not equal:
                inputs = drivers[index] if index < len(drivers) else ""
                differences.append(f"launch {index} {mine['function']} {name}: {metrics[name]:g} != ncu "
                                   f"{expected:g}  ({inputs})")
    said = refusals(os.path.join(args.out, "names_refusals.txt"))
    ncu_names = [n for n in header if n.startswith("launch__")]
    unexplained = [n for n in ncu_names if n not in reported and "is not reported:" not in said.get(n, "")]
    equal = compared - len(differences)
    print(f"launch names: {equal} of {compared} values equal ({len(launches)} launches, {len(reported)} of ncu's "
          f"{len(ncu_names)} launch__ names reported, {len(ncu_names) - len(reported) - len(unexplained)} refused "
          "with a reason)")
    for name in sorted(per_name):
        same, other = per_name[name]
        print(f"  {name}: {same} equal, {other} differ")
    for name in ncu_names:
        if name not in reported and name in said:
            print(f"  refused {name}: {said[name]}")
    print(f"not measured: {len(unmeasured)}")
    for line in unmeasured[:10]:
        print("   ", line)
    print(f"ncu names neither reported nor refused with a reason: {unexplained or 'none'}")
    with open(os.path.join(args.out, "names_differences.txt"), "w") as listing:
        listing.write("\n".join(differences) + "\n")
    print(f"differences: {len(differences)} (all in names_differences.txt)")
    for line in differences[:40]:
        print("   ", line)
    return 1 if differences or unmeasured or unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
