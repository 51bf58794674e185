#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The checks behind validation/h200.md's "Each launch's code" figures, from what
validation/launch_code_checks.sh recorded:

    compare_launch_code.py --out DIR

DIR holds, where the stage ran: triton_exec.json + triton_configs.json (an autotuned Triton kernel under
exec, every launch selected, and Triton's n_regs / n_spills per config), cupy_exec.json + cupy_report.json
(two CuPy RawModules with a kernel `twin` each), jax_exec.json (a JAX program), rc_exec.json + rc_ncu.csv
(kernels of 10 to 55 registers under exec and under ncu, the same launches), profile_report.json
(counterguard.profile over a Triton kernel launched before the block). Prints one line per check and exits 1
on any mismatch or when a check had nothing to compare.
"""
import argparse
import csv
import io
import json
import os
import sys

problems = []


def launches(path):
    """Every launch of every case of an exec results file."""
    found = []
    for case in json.load(open(path))["cases"]:
        found.extend(case["kernels"])
    return found


def report(name, compared, mismatches, detail=""):
    status = "ok" if compared and not mismatches else "MISMATCH" if mismatches else "NOTHING COMPARED"
    print(f"{name}: {compared - len(mismatches)} of {compared} equal{detail} [{status}]")
    for m in mismatches[:8]:
        print("   ", m)
    if mismatches or not compared:
        problems.append(name)


def same_code_as_driver(name, items):
    """Each launch's static metrics against what the driver states of the function it ran (launch metrics)."""
    mismatches, compared, unknown = [], 0, 0
    for k in items:
        m = k["metrics"]
        if "registers_per_thread" not in m:
            unknown += 1
            continue
        compared += 1
        expected = {"launch__registers_per_thread": max(16, m["registers_per_thread"]),
                    "launch_local_bytes_per_thread": m["stack_frame_bytes"],
                    "launch__shared_mem_per_block_static": m["static_shared_bytes"]}
        bad = {key: (m.get(key), value) for key, value in expected.items() if m.get(key) != value}
        if bad:
            mismatches.append(f"launch {k['launch_index']} {k['function']}: {bad}")
    names = {}
    for k in items:
        if "registers_per_thread" in k["metrics"]:
            names.setdefault(k["function"], set()).add(k["metrics"]["registers_per_thread"])
    shared = {n: sorted(r) for n, r in names.items() if len(r) > 1}
    # Spill bytes come from a cubin alone: a launch without them had only what the driver states.
    from_cubin = sum(1 for k in items if "spill_store_bytes" in k["metrics"])
    report(f"{name}: static metrics agree with the launched function's driver attributes", compared, mismatches,
           f"; {from_cubin} of {len(items)} launches read from their function's own cubin, {unknown} without "
           f"static metrics; names with several register counts: {shared}")


def triton(out):
    configs = json.load(open(os.path.join(out, "triton_configs.json")))["configs"]
    by_block = {c["block_threads"]: c for c in configs}
    every_launch = launches(os.path.join(out, "triton_exec.json"))
    # The program's other kernels (PyTorch's arange, division, allclose) are checked against the driver only.
    items = [k for k in every_launch if k["function"] == configs[0]["name"]]
    mismatches, per_config = [], {}
    for k in items:
        m = k["metrics"]
        config = by_block.get(int(m.get("launch__block_size", -1)))
        if config is None:
            mismatches.append(f"launch {k['launch_index']}: block {m.get('launch__block_size')} is no config's")
            continue
        per_config[config["num_warps"]] = per_config.get(config["num_warps"], 0) + 1
        expected = {"registers_per_thread": config["n_regs"], "stack_frame_bytes": config["n_spills"] * 4}
        bad = {key: (m.get(key), value) for key, value in expected.items() if m.get(key) != value}
        if (m.get("spill_store_bytes", -1) > 0) != (config["n_spills"] > 0):
            bad["spill_store_bytes"] = (m.get("spill_store_bytes"), f"n_spills {config['n_spills']}")
        if bad:
            mismatches.append(f"launch {k['launch_index']} (num_warps {config['num_warps']}): {bad}")
    configs_text = ", ".join(f"num_warps {c['num_warps']} BLOCK {list(c['constants'].values())}: n_regs "
                             f"{c['n_regs']} n_spills {c['n_spills']} ({per_config.get(c['num_warps'], 0)} "
                             "launches)" for c in configs)
    report("triton autotuned: each launch's registers and stack equal Triton's n_regs / n_spills of its config",
           len(items), mismatches, f" ({configs_text})")
    same_code_as_driver("triton program (every kernel)", every_launch)
    ncu_path = os.path.join(out, "triton_ncu.csv")
    if os.path.exists(ncu_path):
        # ncu's long CSV: one row per launch and metric. Its launches are another run's (the autotuner's
        # benchmark is timed), so they are compared config by config (a block size is one config).
        text = open(ncu_path).read()
        rows = list(csv.DictReader(io.StringIO("\n".join(l for l in text.splitlines() if l.startswith('"')))))
        per_launch = {}
        for row in rows:
            per_launch.setdefault(row["ID"], {})[row["Metric Name"]] = number(row["Metric Value"])
        ncu_registers = {int(v["launch__block_size"]): v["launch__registers_per_thread"] for v in per_launch.values()}
        mismatches, compared = [], 0
        for k in items:
            block = int(k["metrics"]["launch__block_size"])
            if block in ncu_registers:
                compared += 1
                if k["metrics"].get("launch__registers_per_thread") != ncu_registers[block]:
                    mismatches.append(f"launch {k['launch_index']} block {block}: "
                                      f"{k['metrics'].get('launch__registers_per_thread')} != ncu {ncu_registers[block]}")
        report("triton autotuned: launch__registers_per_thread equal ncu's for the launch's config", compared,
               mismatches, f" (ncu: {ncu_registers} over {len(per_launch)} launches)")


def cupy(out):
    modules = json.load(open(os.path.join(out, "cupy_report.json")))
    by_block = {m["block_threads"]: (label, m) for label, m in modules.items()}
    items = launches(os.path.join(out, "cupy_exec.json"))
    mismatches, compared = [], 0
    for k in items:
        if k["function"] != "twin":
            continue
        compared += 1
        label, module = by_block[int(k["metrics"]["launch__block_size"])]
        if k["metrics"].get("registers_per_thread") != module["num_regs"]:
            mismatches.append(f"launch {k['launch_index']} (module {label}): "
                              f"{k['metrics'].get('registers_per_thread')} != {module['num_regs']}")
    report("cupy two RawModules: each launch's registers equal its module's RawKernel num_regs", compared,
           mismatches, f" (A {modules['A']['num_regs']}, B {modules['B']['num_regs']} registers)")
    same_code_as_driver("cupy", items)


def jax(out):
    same_code_as_driver("jax", launches(os.path.join(out, "jax_exec.json")))


def number(text):
    return float(text.replace(",", ""))


def against_ncu(out):
    text = open(os.path.join(out, "rc_ncu.csv")).read()
    rows = list(csv.reader(io.StringIO("\n".join(l for l in text.splitlines() if l.startswith('"')))))
    header, rows = rows[0], rows[2:]
    items = launches(os.path.join(out, "rc_exec.json"))
    if len(items) != len(rows):
        problems.append("launch metrics against ncu")
        print(f"launch metrics against ncu: {len(items)} exec launches, {len(rows)} ncu rows [MISMATCH]")
        return
    mismatches, compared, names = [], 0, set()
    for k, row in zip(items, rows):
        ncu = dict(zip(header, row))
        for metric, value in k["metrics"].items():
            if metric not in ncu or not (metric.startswith("launch__") or metric.startswith("device__attribute_")
                                         or metric == "sm__maximum_warps_per_active_cycle_pct"):
                continue
            try:
                theirs = number(ncu[metric])
            except ValueError:
                continue
            compared += 1
            names.add(metric)
            tolerance = 0.005 if metric == "launch__waves_per_multiprocessor" else 1e-9
            if abs(theirs - value) > tolerance * max(1.0, abs(theirs)):
                mismatches.append(f"launch {k['launch_index']} {k['function']} {metric}: {value} != ncu {theirs}")
        occupancy = k["metrics"].get("theoretical_occupancy")
        if occupancy is not None and "sm__maximum_warps_per_active_cycle_pct" in ncu:
            compared += 1
            if abs(occupancy - number(ncu["sm__maximum_warps_per_active_cycle_pct"])) > 1e-6:
                mismatches.append(f"launch {k['launch_index']} theoretical_occupancy {occupancy}")
        registers = k["metrics"].get("launch_registers_per_thread")
        if registers is not None:
            compared += 1
            if registers != number(ncu["launch__registers_per_thread"]):
                mismatches.append(f"launch {k['launch_index']} launch_registers_per_thread {registers}")
    report("launch metrics equal ncu's on the same launches", compared, mismatches,
           f" ({len(items)} launches, {len(names)} ncu names)")


def profile(out):
    data = json.load(open(os.path.join(out, "profile_report.json")))
    mismatches, compared = [], 0
    for block, entry in data.items():
        triton_values, measured = entry["triton"], entry["measured"]
        compared += 1
        if measured.get("registers_per_thread") != triton_values["n_regs"]:
            mismatches.append(f"{block}: registers {measured.get('registers_per_thread')} != {triton_values['n_regs']}")
        if measured.get("stack_frame_bytes") != triton_values["local_bytes"]:
            mismatches.append(f"{block}: stack {measured.get('stack_frame_bytes')} != {triton_values['local_bytes']}")
    before = data["before_the_block"]
    spills_said = "spill_store_bytes" in before["unmeasured"] and "before counterguard" in before["unmeasured"][
        "spill_store_bytes"]
    if not spills_said:
        mismatches.append(f"before the block: spill_store_bytes not reported as unmeasured with why: {before}")
    if "spill_store_bytes" not in data["inside_the_block"]["measured"]:
        mismatches.append("inside the block: spill_store_bytes not measured")
    report("counterguard.profile: Triton kernels launched before and inside the block", compared, mismatches,
           f"; before the block: {before['unmeasured'].get('spill_store_bytes', '')!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    for check, files in ((triton, ["triton_exec.json", "triton_configs.json"]),
                         (cupy, ["cupy_exec.json", "cupy_report.json"]), (jax, ["jax_exec.json"]),
                         (against_ncu, ["rc_exec.json", "rc_ncu.csv"]), (profile, ["profile_report.json"])):
        missing = [f for f in files if not os.path.exists(os.path.join(args.out, f))]
        if missing:
            print(f"{check.__name__}: not run ({', '.join(missing)} missing) [NOTHING COMPARED]")
            problems.append(check.__name__)
            continue
        try:
            check(args.out)
        except (KeyError, ValueError, IndexError) as e:
            print(f"{check.__name__}: cannot compare: {e!r} [MISMATCH]")
            problems.append(check.__name__)
    print("problems:", ", ".join(problems) if problems else "none")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
