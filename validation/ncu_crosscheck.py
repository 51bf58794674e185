#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Independent cross-check: profiles the same cases with Nsight Compute (ncu) and compares every exact metric
counterguard reported.

counterguard's results JSON says, per case instance and kernel launch, the value of each metric it measured.
This script launches the same cases once more without CUPTI (`counterguard launch`) under ncu, collecting the
raw counters every exact metric needs, recomputes each metric from ncu's raw values with the formula
`counterguard metrics list --json -` documents, and reports every difference. Exit status 1 on any mismatch.

Usage: ncu_crosscheck.py --counterguard BIN --results results.json [--cases cases] [--kernel-regex R] [--report out.md]
"""
import argparse
import csv
import io
import json
import re
import subprocess
import sys
import time

from ncu_kernel_filter import BUILTIN_KERNEL_REGEX, ncu_kernel_filter

# Aliases that read instrumented counters where the hardware counter (`<alias>_hw`) counts the same thing:
# the cross-check also compares counterguard's instrumented value with ncu's hardware value.
SAME_AS_HARDWARE = ["global_load_sectors", "global_store_sectors", "global_load_requests", "global_store_requests",
                    "global_atomic_requests", "global_reduction_requests", "instructions"]


def catalog(counterguard):
    out = subprocess.run([counterguard, "metrics", "list", "--json", "-"], check=True, capture_output=True, text=True)
    return {m["name"]: m for m in json.loads(out.stdout)}


def raw_inputs(name, aliases):
    if name in aliases:
        return aliases[name]["raw_inputs"] if aliases[name]["source"] == "cupti" else []
    return [name]


def evaluate(name, raw, aliases):
    """The metric's value from raw counters, with counterguard's formula (a ratio over zero is 0)."""
    if name not in aliases:
        return raw[name]
    formula = aliases[name]["formula"]
    for counter in sorted(aliases[name]["raw_inputs"], key=len, reverse=True):
        formula = formula.replace(counter, repr(float(raw[counter])))
    try:
        return float(eval(formula, {"__builtins__": {}}))  # formulas are +-*/ of numbers only
    except ZeroDivisionError:
        return 0.0


def parse_number(text):
    text = text.replace(",", "").strip()
    return float(text) if text not in ("", "n/a") else float("nan")


def run_ncu(ncu, counterguard, cases, metrics, case_filter, kernel_regex):
    command = [ncu, "--csv", "--page", "raw", "--print-units", "base", "--clock-control", "none",
               "--print-kernel-base", "mangled", *ncu_kernel_filter(kernel_regex), "--metrics",
               ",".join(sorted(metrics)),
               counterguard, "launch", *cases]
    if case_filter:
        command += ["--filter", case_filter]
    started = time.monotonic()
    out = subprocess.run(command, capture_output=True, text=True)
    seconds = time.monotonic() - started
    lines = [line for line in out.stdout.splitlines() if line.startswith('"')]
    # `launch` exits 1 when a case fails; ncu passes that on. Only a run without any profile is fatal.
    if not lines:
        sys.stderr.write(out.stdout[-4000:] + out.stderr[-4000:])
        raise SystemExit(f"ncu produced no profile (status {out.returncode})")
    rows = list(csv.DictReader(io.StringIO("\n".join(lines))))
    rows = [r for r in rows if r.get("ID", "").strip().isdigit()]  # drop the units row
    return rows, seconds, " ".join(command)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counterguard", required=True)
    parser.add_argument("--results", required=True, help="results JSON of `counterguard run`")
    parser.add_argument("--cases", nargs="*", default=["cases"])
    parser.add_argument("--filter", default="")
    parser.add_argument("--ncu", default="ncu")
    parser.add_argument("--kernel-regex", default=BUILTIN_KERNEL_REGEX,
                        help="demangled names of the kernels the cases profile (default: the built-ins')")
    parser.add_argument("--report", default="", help="write the Markdown report here")
    args = parser.parse_args()

    aliases = catalog(args.counterguard)
    results = json.load(open(args.results))
    launched = []  # (instance, kernel) in launch order: skipped cases launch nothing
    for case in results["cases"]:
        if case["status"] == "skipped":
            continue
        for kernel in case["kernels"]:
            launched.append((case, kernel))
    exact = set()
    for case, kernel in launched:
        for name, value in case["totals"].items():
            if value["class"] == "exact" and raw_inputs(name, aliases):
                exact.add(name)
    raw = set()
    for name in exact:
        raw.update(raw_inputs(name, aliases))
        if name in SAME_AS_HARDWARE:
            raw.update(raw_inputs(name + "_hw", aliases))
    rows, seconds, command = run_ncu(args.ncu, args.counterguard, args.cases, raw, args.filter, args.kernel_regex)
    # Kernels that the name filter lets through but no case profiles (a variant's own check kernel beside its
    # measured one) are not compared; a profiled kernel's launch that either side lacks still is.
    profiled = {kernel["mangled"] for _, kernel in launched}
    helpers = [r for r in rows if r["Kernel Name"].strip() not in profiled]
    rows = [r for r in rows if r["Kernel Name"].strip() in profiled]

    lines = []
    hardware_lines = []
    mismatches = compared = hardware_compared = hardware_mismatches = 0
    if len(rows) != len(launched):
        lines.append(f"- launch count differs: ncu saw {len(rows)} kernel launches, counterguard {len(launched)}")
        mismatches += 1
    for (case, kernel), row in zip(launched, rows):
        if row["Kernel Name"].strip() != kernel["mangled"]:
            lines.append(f"- {case['instance']}: launch order differs (ncu {row['Kernel Name']}, "
                         f"counterguard {kernel['mangled']})")
            mismatches += 1
            continue
        values = {name: parse_number(row[name]) for name in raw if name in row}
        for name, measured in sorted(kernel["metrics"].items()):
            # The class the case reports: a case may declare a metric noisy (contended atomics).
            if case["totals"].get(name, {}).get("class") != "exact":
                continue
            if name not in exact or not all(r in values for r in raw_inputs(name, aliases)):
                continue
            expected = evaluate(name, values, aliases)
            compared += 1
            if abs(expected - measured) > 1e-9 * max(abs(expected), 1.0):
                mismatches += 1
                lines.append(f"- {case['instance']} `{kernel['function']}` {name}: counterguard {measured:g}, "
                             f"ncu {expected:g}")
            if name in SAME_AS_HARDWARE and all(r in values for r in raw_inputs(name + "_hw", aliases)):
                hardware = evaluate(name + "_hw", values, aliases)
                hardware_compared += 1
                if abs(hardware - measured) > 1e-9 * max(abs(hardware), 1.0):
                    hardware_mismatches += 1
                    hardware_lines.append(f"- {case['instance']} {name}: counterguard (instrumented) {measured:g}, "
                                          f"ncu hardware counter {hardware:g}")

    report = [
        "# ncu cross-check of exact metrics",
        "",
        f"- counterguard results: `{args.results}` ({results['metadata'].get('gpu_name', '?')}, "
        f"driver {results['metadata'].get('driver_version', '?')})",
        f"- ncu command: `{command}` ({seconds:.1f} s)",
        f"- kernel launches compared: {min(len(rows), len(launched))}; exact metric values compared: {compared}",
        f"- launches of kernels no case profiles, left out: {len(helpers)}"
        + (f" ({', '.join(sorted({r['Kernel Name'].strip() for r in helpers}))})" if helpers else ""),
        f"- mismatches: **{mismatches}**",
        f"- instrumented aliases against ncu's hardware counters for the same quantity: {hardware_compared} "
        f"compared, **{hardware_mismatches}** differ",
        "",
    ] + lines + ([""] + hardware_lines if hardware_lines else [])
    text = "\n".join(report) + "\n"
    sys.stdout.write(text)
    if args.report:
        open(args.report, "w").write(text)
    return 1 if mismatches or compared == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
