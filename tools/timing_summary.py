#!/usr/bin/env python3
"""Sums the per-case phase times `COUNTERGUARD_TIMING=1 counterguard run` prints on standard error, and counts
how often consecutive cases ran in different profiler configurations (each switch sets the range profiler up
again; its first replay is slow).

    COUNTERGUARD_TIMING=1 counterguard run cases/ 2>timing.txt; tools/timing_summary.py timing.txt [more.txt]
"""
import re
import sys

CASE = re.compile(r"^timing (\S+)((?: \w+=[-\d.]+)+) \(ms\)$")


def summarize(path):
    totals, cases, switches, previous = {}, 0, 0, None
    with open(path) as f:
        for line in f:
            match = CASE.match(line.strip())
            if not match:
                continue
            cases += 1
            fields = dict(part.split("=") for part in match.group(2).split())
            configuration = fields.pop("configuration", None)
            if configuration is not None and configuration != "-1":
                if previous is not None and configuration != previous:
                    switches += 1
                previous = configuration
            for name, value in fields.items():
                totals[name] = totals.get(name, 0.0) + float(value)
    phases = " ".join(f"{name}={totals[name] / 1e3:.2f}" for name in sorted(totals))
    print(f"{path}: {cases} cases, {switches} configuration switches; seconds: {phases}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        summarize(path)


if __name__ == "__main__":
    main()
