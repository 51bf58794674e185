#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Evidence for the noise model of noisy baseline checks (docs/baselines.md, "Noise model"), on a GPU host:
#   1. refresh the baselines of validation/noise/noise.yaml once (baseline update --repeat 5) into a scratch
#      baseline directory;
#   2. run the unchanged suite RUNS (50) times against them, one process per run, and count false alarms
#      (exit status and the failing checks of each run's --json);
#   3. run planted changes (modified copies of the suite: parameters only) against the same baselines,
#      PLANT_RUNS (3) times each; each must fail with a regression of the metric it plants.
# Writes OUT_DIR/summary.md and OUT_DIR/summary.json, the refreshed baseline file, the refresh's change list,
# the log and runs.tar.gz (every results JSON).
#
# Usage: validation/noise/run_false_alarm_check.sh BUILD_DIR OUT_DIR
#   BUILD_DIR holds the counterguard binary (build/, or the .device/ folder of tools/stage_for_gpu.sh).
#   RUNS=50 REPEAT=5 PLANT_RUNS=3 may be overridden from the environment.
# GPU time: a run of this suite is about 8 profiled cases (tens of ms each with hardware counters) plus a
# CPU fill and check of 2^24 floats and the worker's CUPTI set-up: about 2-3 s of wall time. 5 refresh
# repetitions (one process) + 50 gated runs + 4 plants x 3 runs = about 70 suite runs: about 3-4 minutes.
set -uo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 BUILD_DIR OUT_DIR" >&2
  exit 2
fi
BUILD_DIR=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" || exit 2
OUT_DIR=$(cd "$2" && pwd)
CG=$BUILD_DIR/counterguard
if [[ ! -x $CG ]]; then
  echo "$0: no counterguard binary in $BUILD_DIR" >&2
  exit 2
fi
HERE=$(cd "$(dirname "$0")" && pwd)
SUITE=$HERE/noise.yaml
RUNS=${RUNS:-50}
REPEAT=${REPEAT:-5}
PLANT_RUNS=${PLANT_RUNS:-3}
SCRATCH=$(mktemp -d /tmp/counterguard-noise-XXXXXX)
BASELINES=$SCRATCH/baselines
LOG=$OUT_DIR/noise_stress.log
mkdir -p "$SCRATCH/runs" "$SCRATCH/plants"
: >"$LOG"
started=$(date +%s)

echo "== refresh: baseline update --repeat $REPEAT" | tee -a "$LOG"
if ! "$CG" baseline update "$SUITE" --repeat "$REPEAT" --baseline-dir "$BASELINES" \
    --summary "$OUT_DIR/refresh.md" >>"$LOG" 2>&1; then
  echo "$0: the baseline refresh failed (see $LOG)" >&2
  exit 1
fi
refreshed=$(find "$BASELINES" -name noise_stress.yaml 2>/dev/null | head -1)
if [[ -z $refreshed ]]; then
  echo "$0: the refresh recorded nothing (no GPU? see $LOG)" >&2
  exit 1
fi
cp "$refreshed" "$OUT_DIR/noise_stress.baseline.yaml"
refresh_done=$(date +%s)

echo "== $RUNS gated runs of the unchanged suite" | tee -a "$LOG"
for ((i = 1; i <= RUNS; ++i)); do
  "$CG" run "$SUITE" --baseline-dir "$BASELINES" --json "$SCRATCH/runs/run_$i.json" --quiet >>"$LOG" 2>&1
  status=$?
  echo "$i $status" >>"$SCRATCH/runs/exit_status.txt"
  echo "run $i: exit status $status" | tee -a "$LOG"
done
gated_done=$(date +%s)

# Planted changes: a copy of the suite with one parameter changed (the instance name stays the same, so the
# baseline of the unchanged case judges it). Each line: name|case|old text|new text|metric that must regress.
#   dram_plus_30pct: vec_add n 2^24 -> 21810381 = 1.3 * 2^24 (rounded up): bytes read 2 * 4 * n go from
#     134217728 to 174483048 (+30.0000%), bytes written 4 * n from 67108864 to 87241524 (+30%).
#   conflicts_doubled: strided stride 2, loads 8 -> 16: conflicts warps * loads * (stride - 1) go from
#     128 * 8 * 1 = 1024 to 128 * 16 * 1 = 2048 (x2): the small count doubled.
#   padding_removed: transpose pad 1 -> 0 at n = 2048: store conflicts go from thousands of arbitration
#     conflicts (~5.6k) to 31 * 2048 * 2048 / 32 = 4063232 + noise (x ~700; pad 0 does not double them).
#   occupancy_drop: hash_rounds block 256 -> 32: theoretical occupancy 100% -> 50%, achieved ~85% -> ~13%
#     (higher is better: a drop is the regression).
plants=(
  "dram_plus_30pct|dram_stream|parameters: {n: 16777216}|parameters: {n: 21810381}|dram_read_bytes"
  "conflicts_doubled|conflicts_doubling|parameters: {stride: 2, warps: 128, loads: 8}|parameters: {stride: 2, warps: 128, loads: 16}|shared_load_bank_conflicts_hw"
  "padding_removed|conflicts_small|parameters: {n: 2048, pad: 1}|parameters: {n: 2048, pad: 0}|shared_store_bank_conflicts_hw"
  "occupancy_drop|occupancy_full|parameters: {block: 256}|parameters: {block: 32}|achieved_occupancy"
)
echo "== planted changes, $PLANT_RUNS runs each" | tee -a "$LOG"
: >"$SCRATCH/plants/plants.txt"
for plant in "${plants[@]}"; do
  IFS='|' read -r name case_name old new metric <<<"$plant"
  mkdir -p "$SCRATCH/plants/$name"
  # Replace the parameter line of that case only; refuse to go on if it is not there exactly once.
  if ! python3 - "$SUITE" "$SCRATCH/plants/$name/noise.yaml" "$case_name" "$old" "$new" <<'PY'; then
import sys
source, target, case_name, old, new = sys.argv[1:]
text = open(source).read()
start = text.index(f"  - name: {case_name}\n")
end = text.find("\n  - name: ", start + 1)
end = len(text) if end < 0 else end
block = text[start:end]
if block.count(old) != 1:
    sys.exit(f"plant: '{old}' is not in case {case_name} exactly once")
open(target, "w").write(text[:start] + block.replace(old, new) + text[end:])
PY
    echo "$0: could not plant $name" >&2
    exit 1
  fi
  for ((i = 1; i <= PLANT_RUNS; ++i)); do
    "$CG" run "$SCRATCH/plants/$name/noise.yaml" --baseline-dir "$BASELINES" \
      --json "$SCRATCH/plants/$name/run_$i.json" --quiet >>"$LOG" 2>&1
    status=$?
    echo "$name|$case_name|$metric|$i|$status" >>"$SCRATCH/plants/plants.txt"
    echo "plant $name run $i: exit status $status" | tee -a "$LOG"
  done
done
finished=$(date +%s)

python3 - "$SCRATCH" "$OUT_DIR" "$RUNS" "$REPEAT" "$((refresh_done - started))" "$((gated_done - refresh_done))" \
  "$((finished - gated_done))" <<'PY'
import json, math, os, re, sys

scratch, out_dir, runs, repeat, refresh_s, gated_s, plants_s = sys.argv[1:]
runs, repeat = int(runs), int(repeat)

def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None

band_re = re.compile(r"in \[([^,]+), ([^\]]+)\]")
statuses = dict(line.split() for line in open(os.path.join(scratch, "runs", "exit_status.txt")))
per_run, metrics, failing_checks = [], {}, []
total_checks = 0
for i in range(1, runs + 1):
    status = int(statuses.get(str(i), -1))
    doc = load(os.path.join(scratch, "runs", f"run_{i}.json"))
    failing = []
    if doc is not None:
        for case in doc["cases"]:
            for check in case["checks"]:
                if check["origin"] != "baseline":
                    if check["failing"]:
                        failing.append({"instance": case["instance"], "metric": check["metric"],
                                        "verdict": check["verdict"], "message": check["message"]})
                    continue
                total_checks += 1
                key = (case["instance"], check["kernel"] or "total", check["metric"])
                entry = metrics.setdefault(key, {"values": [], "band": None, "alarms": 0})
                if check["measured"] is not None:
                    entry["values"].append(check["measured"])
                match = band_re.search(check["expected"])
                if match:
                    entry["band"] = [float(match.group(1)), float(match.group(2))]
                elif "must stay 0" in check["expected"]:
                    entry["band"] = [0.0, 0.0]
                if check["failing"]:
                    entry["alarms"] += 1
                    failing.append({"instance": case["instance"], "metric": check["metric"],
                                    "verdict": check["verdict"], "message": check["message"]})
    failing_checks.extend(dict(f, run=i) for f in failing)
    per_run.append({"run": i, "exit_status": status, "results": doc is not None, "failing_checks": len(failing)})

def spread(values):
    if not values:
        return None, None
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)) if len(values) > 1 else 0.0
    return mean, sd

metric_rows = []
for (instance, kernel, metric), entry in sorted(metrics.items()):
    mean, sd = spread(entry["values"])
    row = {"instance": instance, "kernel": kernel, "metric": metric, "n": len(entry["values"]),
           "mean": mean, "sd": sd, "min": min(entry["values"], default=None),
           "max": max(entry["values"], default=None), "band": entry["band"], "false_alarms": entry["alarms"]}
    if entry["band"] and sd and mean is not None:
        row["margin_high_sd"] = (entry["band"][1] - mean) / sd  # distance to the band's upper edge in run sds
        row["margin_low_sd"] = (mean - entry["band"][0]) / sd
    metric_rows.append(row)

plants = {}
for line in open(os.path.join(scratch, "plants", "plants.txt")):
    name, case_name, metric, i, status = line.strip().split("|")
    doc = load(os.path.join(scratch, "plants", name, f"run_{i}.json"))
    regressed = []
    if doc is not None:
        for case in doc["cases"]:
            for check in case["checks"]:
                if check["origin"] == "baseline" and check["verdict"] == "regression" and check["failing"]:
                    regressed.append(f"{case['instance']}: {check['metric']}")
    caught = int(status) == 1 and f"noise_stress/{case_name}: {metric}" in regressed
    p = plants.setdefault(name, {"case": case_name, "metric": metric, "runs": 0, "caught": 0, "details": []})
    p["runs"] += 1
    p["caught"] += int(caught)
    p["details"].append({"run": int(i), "exit_status": int(status), "regressions": regressed})

false_alarm_runs = sum(1 for r in per_run if r["failing_checks"] > 0 or r["exit_status"] != 0)
alarms = len(failing_checks)
# 95% upper bound of the per-check rate: the "rule of three" for no event, else a normal approximation.
upper = 3.0 / total_checks if total_checks and alarms == 0 else (
    (alarms + 1.96 * math.sqrt(alarms)) / total_checks if total_checks else None)
summary = {
    "gated_runs": runs, "refresh_repetitions": repeat,
    "runs_with_false_alarms": false_alarm_runs,
    "noisy_baseline_checks": total_checks, "false_alarm_checks": alarms,
    "false_alarm_rate_per_check": alarms / total_checks if total_checks else None,
    "false_alarm_rate_per_check_upper_95": upper,
    "wall_seconds": {"refresh": int(refresh_s), "gated_runs": int(gated_s), "plants": int(plants_s)},
    "runs": per_run, "failing_checks": failing_checks, "metrics": metric_rows, "plants": plants,
    "all_plants_caught": all(p["caught"] == p["runs"] for p in plants.values()),
}
with open(os.path.join(out_dir, "summary.json"), "w") as f:
    json.dump(summary, f, indent=2)

def fmt(v, digits=6):
    return "-" if v is None else (f"{v:.{digits}g}" if isinstance(v, float) else str(v))

md = ["# Noise stress: false alarms of noisy baseline checks", "",
      f"Baselines refreshed once with `baseline update --repeat {repeat}`; {runs} gated runs of the unchanged "
      f"suite, one process each; planted changes against the same baselines. Wall time: refresh {refresh_s} s, "
      f"gated runs {gated_s} s, plants {plants_s} s.", "",
      f"- runs with a false alarm (or a non-zero exit status): **{false_alarm_runs} of {runs}**",
      f"- noisy baseline checks: {total_checks}; failing: **{alarms}**; per-check rate {fmt(summary['false_alarm_rate_per_check'], 3)}"
      f" (95% upper bound {fmt(upper, 3)})",
      f"- planted changes caught: " + ", ".join(f"{n} {p['caught']}/{p['runs']}" for n, p in plants.items()), ""]
if failing_checks:
    md += ["## Failing checks of the unchanged suite", ""]
    md += [f"- run {f['run']}: {f['message']}" for f in failing_checks]
    md.append("")
md += ["## Run-to-run spread of each metric and its band", "",
       "| instance | kernel | metric | n | mean | sd | min | max | band | margin above (sd) | false alarms |",
       "|---|---|---|---|---|---|---|---|---|---|---|"]
for r in metric_rows:
    band = "-" if not r["band"] else f"[{fmt(r['band'][0])}, {fmt(r['band'][1])}]"
    md.append(f"| `{r['instance']}` | {r['kernel']} | `{r['metric']}` | {r['n']} | {fmt(r['mean'])} | {fmt(r['sd'], 3)} | "
              f"{fmt(r['min'])} | {fmt(r['max'])} | {band} | {fmt(r.get('margin_high_sd'), 3)} | {r['false_alarms']} |")
md += ["", "## Planted changes", "", "| plant | case | metric that must regress | caught | regressions named |",
       "|---|---|---|---|---|"]
for name, p in plants.items():
    named = sorted({x for d in p["details"] for x in d["regressions"]})
    md.append(f"| {name} | `{p['case']}` | `{p['metric']}` | {p['caught']}/{p['runs']} | {'; '.join(named) or '-'} |")
with open(os.path.join(out_dir, "summary.md"), "w") as f:
    f.write("\n".join(md) + "\n")
print("\n".join(md[:8]))
PY

tar -C "$SCRATCH" -czf "$OUT_DIR/runs.tar.gz" runs plants
rm -rf "$SCRATCH"
echo "== done in $((finished - started)) s; summary: $OUT_DIR/summary.md" | tee -a "$LOG"
