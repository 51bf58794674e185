#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""GPU test: runs harness/test/device/fault_isolation.yaml and checks that the faulting and the hanging case
fail alone while the healthy cases around them pass. Usage: check_fault_isolation.py COUNTERGUARD [RESULTS]"""
import json
import subprocess
import sys
import tempfile

counterguard = sys.argv[1]
results = sys.argv[2] if len(sys.argv) > 2 else tempfile.mktemp(suffix=".json")
suite = __file__.replace("check_fault_isolation.py", "fault_isolation.yaml")
run = subprocess.run([counterguard, "run", suite, "--require-gpu", "--no-baselines", "--case-timeout", "10",
                      "--json", results], capture_output=True, text=True)
print(run.stdout[-3000:], run.stderr[-3000:])
cases = {c["case"]: c for c in json.load(open(results))["cases"]}
problems = []
if run.returncode != 1:
    problems.append(f"exit status {run.returncode}, expected 1")
for healthy in ("before", "after_fault", "after_hang"):
    if cases[healthy]["status"] != "passed":
        problems.append(f"{healthy}: {cases[healthy]['status']} {cases[healthy]['status_reason']}")
if cases["faults"]["status"] != "error" or "cudaErrorIllegalAddress" not in cases["faults"]["status_reason"]:
    problems.append(f"faults: {cases['faults']['status']} {cases['faults']['status_reason']}")
if cases["hangs"]["status"] != "error" or "timed out" not in cases["hangs"]["status_reason"]:
    problems.append(f"hangs: {cases['hangs']['status']} {cases['hangs']['status_reason']}")
print("\n".join(problems) if problems else "fault isolation: the bad cases failed alone, the others passed")
sys.exit(1 if problems else 0)
