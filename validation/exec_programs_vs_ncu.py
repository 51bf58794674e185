#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The ncu options that select the same launches as each case of an exec suite, for exec_vs_ncu.py crosscheck.

A case's `select:` becomes ncu's filter: the kernel by the mangled name counterguard exec profiled for it (from
the exec results: exact where the suite's pattern is a glob or a part of the demangled name), its launch ordinal as
--launch-skip N --launch-count 1, its NVTX ranges as --nvtx --nvtx-include "a/b/". A case ncu cannot select the
same way (skipped, a process or rank, several launches, no launch profiled) is listed with why, not compared.

  exec_programs_vs_ncu.py SUITE.yaml --results exec.json --output selections.json [--reasons not_compared.txt]
"""

import argparse
import json
import sys

import yaml


def nvtx_include(nvtx):
    """ncu's --nvtx-include for push/pop ranges nested as the selector lists them ("outer/inner/")."""
    if isinstance(nvtx, str):
        ranges = [part for part in nvtx.split("/") if part]
    elif isinstance(nvtx, list) and all(isinstance(part, str) for part in nvtx):
        ranges = list(nvtx)
    else:
        return None  # a domain, a start/end range: not what ncu's push/pop filter selects
    if any(any(c in part for c in "*?[") for part in ranges):
        return None
    return "/".join(ranges) + "/"


def selection(case, profiled):
    """(ncu options, None) or (None, why the case is not compared)."""
    if "skip" in case:
        return None, "skipped in the suite"
    select = case.get("select")
    if isinstance(select, str):
        select = {"kernel": select}
    if not isinstance(select, dict):
        return None, "no select: (not an exec case)"
    unsupported = set(select) - {"kernel", "launch", "nvtx"}
    if unsupported:
        return None, f"selects by {', '.join(sorted(unsupported))}, which ncu's filter does not"
    if not isinstance(select.get("launch"), int):
        return None, "selects several launches (no launch ordinal)"
    if profiled is None or len(profiled["kernels"]) != 1:
        return None, "counterguard exec profiled no single launch for it"
    options = ["--kernel-name-base", "mangled", "--kernel-name", profiled["kernels"][0]["mangled"],
               "--launch-skip", str(select["launch"]), "--launch-count", "1"]
    if "nvtx" in select:
        include = nvtx_include(select["nvtx"])
        if include is None:
            return None, f"its NVTX selector {select['nvtx']!r} is not a plain push/pop range path"
        options = ["--nvtx", "--nvtx-include", include] + options
    return options, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite")
    parser.add_argument("--results", required=True, help="the exec results JSON of the same suite")
    parser.add_argument("--output", required=True)
    parser.add_argument("--reasons", default="", help="write the cases not compared, with why")
    args = parser.parse_args()
    with open(args.suite, encoding="utf-8") as text:
        suite = yaml.safe_load(text)
    with open(args.results, encoding="utf-8") as text:
        cases = {case["instance"]: case for case in json.load(text)["cases"]}
    selections, reasons = {}, []
    for case in suite.get("cases", []):
        instance = f"{suite['suite']}/{case['name']}"
        options, why = selection(case, cases.get(instance))
        if options is None:
            reasons.append(f"- {instance}: not compared: {why}")
        else:
            selections[instance] = options
    with open(args.output, "w", encoding="utf-8") as text:
        json.dump(selections, text, indent=1)
    if args.reasons:
        with open(args.reasons, "w", encoding="utf-8") as text:
            text.write("".join(line + "\n" for line in reasons))
    print(f"{args.suite}: {len(selections)} case(s) selected for ncu, {len(reasons)} not compared")
    return 0 if selections else 1


if __name__ == "__main__":
    sys.exit(main())
