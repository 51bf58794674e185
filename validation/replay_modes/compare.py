#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Exact values of exec's results JSON files (one per replay mode) against each other and against ncu's CSV
(--csv --page raw), launch by launch in order, for the raw counters given.

    compare.py --metrics M1,M2 --ncu ncu.csv exec_kernel.json exec_application.json ...
Prints one line per file and exits 1 on any difference.
"""
import argparse
import csv
import json
import sys


def exec_launches(path, metrics):
    results = json.load(open(path))
    launches = []
    for case in results["cases"]:
        if case["instance"] == "exec/program":
            continue
        for kernel in case.get("kernels", []):
            launches.append([kernel["metrics"].get(m) for m in metrics])
    return launches


def ncu_launches(path, metrics):
    rows = list(csv.reader(open(path)))
    start = next(i for i, row in enumerate(rows) if "ID" in row)
    header = rows[start]
    body = [r for r in rows[start + 1:] if r and r[0].isdigit()]
    columns = [header.index(m) for m in metrics]
    return [[float(r[c].replace(",", "")) for c in columns] for r in body]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--metrics", required=True)
    parser.add_argument("--ncu", action="append", default=[])
    parser.add_argument("exec_results", nargs="+")
    args = parser.parse_args()
    metrics = args.metrics.split(",")
    reference = exec_launches(args.exec_results[0], metrics)
    failed = not reference
    print(f"{args.exec_results[0]}: {len(reference)} launches x {len(metrics)} counters (reference)")
    others = [(p, exec_launches(p, metrics)) for p in args.exec_results[1:]]
    others += [(p, ncu_launches(p, metrics)) for p in args.ncu]
    for path, launches in others:
        same = launches == reference
        differ = sum(a != b for a, b in zip(launches, reference)) + abs(len(launches) - len(reference))
        print(f"{path}: {len(launches)} launches, {'identical' if same else f'{differ} launches differ'}")
        failed = failed or not same
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
