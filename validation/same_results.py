#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that two results JSON files (`counterguard run --json`) describe the same run of the same cases:
the same instances in the same order with the same statuses, verification and checks, and the same values for
every exact and static metric. Timing (`seconds`, `started_at`), the command line and the values of noisy
metrics (hardware counters that move between any two runs) are not compared; noisy checks must still agree on
being measured. Exit status 0 when the same, 1 otherwise (each difference printed). With
--ignore-baseline-checks, checks against stored baselines are left out of both files (to compare a gated run
with an ungated one).

    validation/same_results.py [--ignore-baseline-checks] single.json multi.json
"""
import json
import sys


def without_baseline_checks(results):
    for case in results["cases"]:
        case["checks"] = [c for c in case["checks"] if c["origin"] != "baseline"]
    return results


def differences(a, b):
    found = []
    names_a = [c["instance"] for c in a["cases"]]
    names_b = [c["instance"] for c in b["cases"]]
    if names_a != names_b:
        found.append(f"instances differ: {len(names_a)} vs {len(names_b)} cases, first difference at "
                     f"{next((i for i, (x, y) in enumerate(zip(names_a, names_b)) if x != y), min(len(names_a), len(names_b)))}")
        return found
    for ca, cb in zip(a["cases"], b["cases"]):
        name = ca["instance"]
        for field in ("status", "verified", "kernel", "parameters"):
            if ca[field] != cb[field]:
                found.append(f"{name}: {field} {ca[field]!r} vs {cb[field]!r}")
        for metric, total in ca["totals"].items():
            other = cb["totals"].get(metric)
            if other is None:
                found.append(f"{name}: {metric} missing in the second file")
            elif total["class"] != "noisy" and total["value"] != other["value"]:
                found.append(f"{name}: {metric} ({total['class']}) {total['value']} vs {other['value']}")
        checks_a = [(c["metric"], c["kernel"], c["origin"]) for c in ca["checks"]]
        checks_b = [(c["metric"], c["kernel"], c["origin"]) for c in cb["checks"]]
        if checks_a != checks_b:
            found.append(f"{name}: different checks")
            continue
        for x, y in zip(ca["checks"], cb["checks"]):
            noisy = ca["totals"].get(x["metric"], {}).get("class") == "noisy"
            if not noisy and (x["verdict"], x["measured"]) != (y["verdict"], y["measured"]):
                found.append(f"{name}: check {x['metric']} {x['verdict']} {x['measured']} vs "
                             f"{y['verdict']} {y['measured']}")
            if noisy and (x["measured"] is None) != (y["measured"] is None):
                found.append(f"{name}: noisy check {x['metric']} measured in one file only")
    if a["metadata"]["gpu_key"] != b["metadata"]["gpu_key"]:
        found.append(f"gpu_key {a['metadata']['gpu_key']} vs {b['metadata']['gpu_key']}")
    return found


def main():
    arguments = sys.argv[1:]
    ignore_baselines = "--ignore-baseline-checks" in arguments
    arguments = [a for a in arguments if a != "--ignore-baseline-checks"]
    if len(arguments) != 2:
        sys.exit(__doc__)
    with open(arguments[0]) as fa, open(arguments[1]) as fb:
        a, b = json.load(fa), json.load(fb)
    if ignore_baselines:
        a, b = without_baseline_checks(a), without_baseline_checks(b)
    found = differences(a, b)
    for line in found:
        print(line)
    exact = sum(1 for c in a["cases"] for t in c["totals"].values() if t["class"] != "noisy")
    print(f"{len(a['cases'])} cases, {exact} exact and static values compared: "
          f"{'same' if not found else str(len(found)) + ' differences'}")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
