#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`counterguard exec` against Nsight Compute (ncu) on the same launches of an unmodified program.

crosscheck: for every case of an exec results JSON, runs the program under ncu with the options that select
  the same launches (a JSON file: case instance -> ncu options), collects the raw counters of the case's exact
  metrics, recomputes each metric with counterguard's formula and compares it launch by launch. Exit status 1
  on any mismatch, or when nothing was compared.
benchmark: wall time of the program alone, under `counterguard exec` and under ncu, with the same selection
  (--kernel-regex on the demangled name, --nvtx-include, --launch-count) and the same metrics, repeated and
  interleaved; reports the medians and how many times longer ncu took.

Usage:
  exec_vs_ncu.py crosscheck --counterguard BIN --results exec.json --selections sel.json [--report F] -- prog args
  exec_vs_ncu.py benchmark --counterguard BIN --kernel-regex R --nvtx-include N --launch-count K
                 --metric M [--metric M ...] [--repeat 3] [--json F] [--markdown F] -- prog args
"""
import argparse
import csv
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ncu_crosscheck as nc  # noqa: E402  (the formulas and the CSV reading of the built-in cross-check)


def ncu_rows(ncu, options, raw, program):
    command = [ncu, "--csv", "--page", "raw", "--print-units", "base", "--clock-control", "none",
               "--print-kernel-base", "mangled", *options, "--metrics", ",".join(sorted(raw)), *program]
    out = subprocess.run(command, capture_output=True, text=True)
    lines = [line for line in out.stdout.splitlines() if line.startswith('"')]
    if not lines:
        return [], " ".join(command), out.stdout[-2000:] + out.stderr[-2000:]
    rows = [r for r in csv.DictReader(io.StringIO("\n".join(lines))) if r.get("ID", "").strip().isdigit()]
    return rows, " ".join(command), ""


def crosscheck(args):
    aliases = nc.catalog(args.counterguard)
    results = json.load(open(args.results))
    selections = json.load(open(args.selections))
    varying = json.load(open(args.varying)) if args.varying else {}
    lines, commands = [], []
    compared = mismatches = 0
    for case in results["cases"]:
        if case["instance"] == "exec/program" or case["status"] == "skipped":
            continue
        if case["instance"] not in selections:
            lines.append(f"- {case['instance']}: no ncu selection given, not compared")
            continue
        exact = [name for name, value in case["totals"].items()
                 if value["class"] == "exact" and nc.raw_inputs(name, aliases)]
        raw = set()
        for name in exact:
            raw.update(nc.raw_inputs(name, aliases))
        if not raw:
            lines.append(f"- {case['instance']}: no exact counter metric, not compared")
            continue
        rows, command, failure = ncu_rows(args.ncu, selections[case["instance"]], raw, args.program)
        commands.append(f"- `{command}`")
        if failure:
            mismatches += 1
            lines.append(f"- {case['instance']}: ncu produced no profile: {failure}")
            continue
        if len(rows) != len(case["kernels"]):
            mismatches += 1
            lines.append(f"- {case['instance']}: ncu profiled {len(rows)} launches, counterguard {len(case['kernels'])}")
        for row, kernel in zip(rows, case["kernels"]):
            if row["Kernel Name"].strip() != kernel["mangled"]:
                mismatches += 1
                lines.append(f"- {case['instance']}: ncu profiled {row['Kernel Name']}, counterguard {kernel['mangled']}")
                continue
            values = {name: nc.parse_number(row[name]) for name in raw if name in row}
            for name in sorted(exact):
                if name not in kernel["metrics"] or not all(r in values for r in nc.raw_inputs(name, aliases)):
                    continue
                expected = nc.evaluate(name, values, aliases)
                measured = kernel["metrics"][name]
                if f"{case['instance']} {name}" in varying:
                    low, high = varying[f"{case['instance']} {name}"]
                    lines.append(f"- {case['instance']} launch {kernel['launch_index']} {name}: varies between "
                                 f"identical runs ({low:g} to {high:g}; ncu {expected:g}): not exact in this "
                                 "kernel, not compared")
                    continue
                compared += 1
                same = abs(expected - measured) <= 1e-9 * max(abs(expected), 1.0)
                mismatches += 0 if same else 1
                lines.append(f"- {case['instance']} launch {kernel['launch_index']} `{kernel['function']}` {name}: "
                             f"counterguard exec {measured:g}, ncu {expected:g}{'' if same else ' **MISMATCH**'}")
    report = ["# counterguard exec against ncu on the same launches", "",
              f"- exec results: `{args.results}` ({results['metadata'].get('gpu_name', '?')}, "
              f"driver {results['metadata'].get('driver_version', '?')})",
              f"- program: `{' '.join(args.program)}`",
              f"- exact metric values compared: {compared}; mismatches: **{mismatches}**", "",
              "ncu commands:", *commands, "", *lines]
    text = "\n".join(report) + "\n"
    sys.stdout.write(text)
    if args.report:
        open(args.report, "w").write(text)
    return 1 if mismatches or compared == 0 else 0


def timed(command, env=None):
    started = time.monotonic()
    out = subprocess.run(command, capture_output=True, text=True, env=env)
    return time.monotonic() - started, out


def benchmark(args):
    aliases = nc.catalog(args.counterguard)
    raw = set()
    for name in args.metric:
        raw.update(nc.raw_inputs(name, aliases))
    scratch = tempfile.mkdtemp(prefix="exec-bench-")
    exec_json = os.path.join(scratch, "exec.json")
    commands = {
        "program": list(args.program),
        "counterguard exec": [args.counterguard, "exec", "--kernel-name", "regex:" + args.kernel_regex,
                              *(["--nvtx-include", args.nvtx_include] if args.nvtx_include else []),
                              "--launch-count", str(args.launch_count),
                              *sum((["--metric", m] for m in args.metric), []), "--no-baselines", "--quiet",
                              "--json", exec_json, "--", *args.program],
        "ncu": [args.ncu, "--csv", "--page", "raw", "--print-units", "base", "--clock-control", "none",
                *(["--nvtx", "--nvtx-include", args.nvtx_include] if args.nvtx_include else []),
                "--kernel-name-base", "demangled",
                "--kernel-name", "regex:" + args.kernel_regex, "--launch-count", str(args.launch_count),
                "--metrics", ",".join(sorted(raw)), *args.program],
    }
    seconds = {name: [] for name in commands}
    profiled = {}
    for _ in range(args.repeat):
        for name, command in commands.items():  # interleaved: drift hits every tool alike
            elapsed, out = timed(command)
            if out.returncode != 0 and name != "ncu":
                sys.stderr.write(out.stdout[-3000:] + out.stderr[-3000:])
                raise SystemExit(f"{name} failed with status {out.returncode}")
            seconds[name].append(elapsed)
            if name == "ncu":
                lines = [line for line in out.stdout.splitlines() if line.startswith('"')]
                rows = csv.DictReader(io.StringIO("\n".join(lines)))
                profiled[name] = sum(1 for r in rows if r.get("ID", "").strip().isdigit())
            elif name == "counterguard exec":
                result = json.load(open(exec_json))
                profiled[name] = sum(len(c["kernels"]) for c in result["cases"] if c["instance"] != "exec/program")
    median = {name: statistics.median(values) for name, values in seconds.items()}
    overhead = {name: median[name] - median["program"] for name in ("counterguard exec", "ncu")}
    summary = {
        "program": args.program, "metrics": args.metric, "raw_counters": sorted(raw),
        "selection": {"kernel_regex": args.kernel_regex, "nvtx_include": args.nvtx_include,
                      "launch_count": args.launch_count},
        "repeat": args.repeat, "seconds": seconds, "median_seconds": median, "overhead_seconds": overhead,
        "launches_profiled": profiled, "commands": {k: " ".join(v) for k, v in commands.items()},
        "ncu_wall_time_over_exec": median["ncu"] / median["counterguard exec"],
        "ncu_overhead_over_exec_overhead": overhead["ncu"] / overhead["counterguard exec"]
        if overhead["counterguard exec"] > 0 else None,
    }
    lines = ["# counterguard exec against ncu: wall time, same selection and metrics", "",
             f"- program: `{' '.join(args.program)}`; {args.repeat} interleaved repetitions, medians",
             f"- selection: kernels matching `{args.kernel_regex}`"
             + (f" inside NVTX `{args.nvtx_include}`" if args.nvtx_include else "") + ", "
             f"first {args.launch_count} launches; metrics: {', '.join(args.metric)} ({len(raw)} raw counters)",
             "", "| run | median wall s | over the program alone s | launches profiled |", "|---|---|---|---|"]
    for name in commands:
        extra = f"{overhead[name]:.3f}" if name in overhead else "-"
        lines.append(f"| {name} | {median[name]:.3f} | {extra} | {profiled.get(name, '-')} |")
    lines += ["", f"- ncu took **{summary['ncu_wall_time_over_exec']:.1f}x** the wall time of counterguard exec"
              + (f"; its overhead over the program is {summary['ncu_overhead_over_exec_overhead']:.1f}x exec's"
                 if summary["ncu_overhead_over_exec_overhead"] else ""), ""]
    text = "\n".join(lines)
    sys.stdout.write(text)
    if args.json:
        json.dump(summary, open(args.json, "w"), indent=1)
    if args.markdown:
        open(args.markdown, "w").write(text)
    return 0


def main():
    argv = sys.argv[1:]
    program = []
    if "--" in argv:
        program = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="mode", required=True)
    check = sub.add_parser("crosscheck")
    check.add_argument("--counterguard", required=True)
    check.add_argument("--results", required=True)
    check.add_argument("--selections", required=True)
    check.add_argument("--ncu", default="ncu")
    check.add_argument("--report", default="")
    check.add_argument("--varying", default="", help="JSON of '<instance> <metric>' that differ between runs")
    bench = sub.add_parser("benchmark")
    bench.add_argument("--counterguard", required=True)
    bench.add_argument("--ncu", default="ncu")
    bench.add_argument("--kernel-regex", required=True)
    bench.add_argument("--nvtx-include", default="", help="ncu's form; none: any NVTX context")
    bench.add_argument("--launch-count", type=int, required=True)
    bench.add_argument("--metric", action="append", required=True)
    bench.add_argument("--repeat", type=int, default=3)
    bench.add_argument("--json", default="")
    bench.add_argument("--markdown", default="")
    args = parser.parse_args(argv)
    if not program:
        parser.error("give the program after '--'")
    args.program = program
    return crosscheck(args) if args.mode == "crosscheck" else benchmark(args)


if __name__ == "__main__":
    sys.exit(main())
