#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Sums the per-case phase times `counterguard run -v` (or COUNTERGUARD_TIMING=1) prints on standard error, counts
how often consecutive cases of one worker ran in different profiler configurations (each switch sets the range
profiler up again; its first replay is slow), and lays out the run's steps in every process (the `timeline`
lines) from its first step on: seconds since the start, seconds since the step before, process.

    counterguard run -v cases/ 2>timing.txt; tools/timing_summary.py timing.txt [more.txt]
"""
import re
import sys

CASE = re.compile(r"^timing (\S+)((?: \w+=[-\d.]+)+) \(ms\)$")
STEP = re.compile(r"^timeline (\d+\.\d+) (\d+) (.+)$")


def summarize(path):
    totals, cases, switches, previous, steps = {}, 0, 0, {}, []
    with open(path) as f:
        for line in f:
            step = STEP.match(line.strip())
            if step:
                steps.append((float(step.group(1)), step.group(2), step.group(3)))
                continue
            match = CASE.match(line.strip())
            if not match:
                continue
            cases += 1
            fields = dict(part.split("=") for part in match.group(2).split())
            configuration = fields.pop("configuration", None)
            worker = fields.pop("worker", None)  # several GPU workers write to one stream
            if configuration is not None and configuration != "-1":
                if previous.get(worker) is not None and configuration != previous[worker]:
                    switches += 1
                previous[worker] = configuration
            for name, value in fields.items():
                totals[name] = totals.get(name, 0.0) + float(value)
    phases = " ".join(f"{name}={totals[name] / 1e3:.2f}" for name in sorted(totals))
    print(f"{path}: {cases} cases, {switches} configuration switches; seconds: {phases}")
    if steps:
        steps.sort()
        processes = {}
        for _, pid, _ in steps:
            processes.setdefault(pid, f"process {len(processes) + 1}")
        first = last = steps[0][0]
        for seconds, pid, what in steps:
            print(f"  {seconds - first:8.3f} s  +{seconds - last:7.3f}  {processes[pid]:<10} {what}")
            last = seconds


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        summarize(path)


if __name__ == "__main__":
    main()
