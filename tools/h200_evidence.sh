#!/usr/bin/env bash
# Runs on the GPU host (see evidence/h200/README.md): the evidence the issues ask for, written under $OUT.
# The binary comes built from the CPU machine (tools/stage_for_gpu.sh -> .device/).
# Usage: tools/h200_evidence.sh STAGE...
#   stages: info run crosscheck baseline repeat planted faults sanitize benchmark timing (evidence/h200/README.md)
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/counterguard-out}
mkdir -p "$OUT"
CG=$PWD/.device/counterguard
timer=()
[[ -x /usr/bin/time ]] && timer=(/usr/bin/time -v)
export PATH=$PATH:/usr/local/cuda/bin

# The device tool brings back at most 8 files: everything is packed into one archive at the end.
pack() {
  (cd "$OUT" && tar -czf /tmp/evidence.tar.gz --exclude evidence.tar.gz . && mv /tmp/evidence.tar.gz "$OUT/")
}
trap pack EXIT
trap "exit 124" TERM

for stage in "$@"; do
  echo "=== stage $stage ($(date -u +%H:%M:%S))"
  case "$stage" in
    info)
      nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv | tee "$OUT/gpu.txt"
      "$CG" --version
      ;;
    run)
      # Every built-in case, counter data kept for offline evaluation (committed as CI fixtures).
      "${timer[@]}" "$CG" run cases/ --no-baselines --json "$OUT/results.json" --junit "$OUT/junit.xml" \
        --markdown "$OUT/summary.md" --save-counter-data "$OUT/counterdata" --quiet >"$OUT/run.log" 2>&1
      echo "run exit status $?"
      grep -E "Elapsed|Maximum resident" "$OUT/run.log"
      grep -v -E "^\s" "$OUT/run.log" | grep -v "^\[" | tail -40
      tar -C "$OUT" -czf "$OUT/counterdata.tar.gz" counterdata && rm -rf "$OUT/counterdata"
      ls -la "$OUT/counterdata.tar.gz"
      ;;
    crosscheck)
      python3 tools/ncu_crosscheck.py --counterguard "$CG" --results "$OUT/results.json" \
        --report "$OUT/ncu_crosscheck.md" | tail -30
      ;;
    faults)
      # A faulting and a hanging kernel between healthy cases: each fails alone, the rest still runs.
      python3 harness/test/device/check_fault_isolation.py "$CG" "$OUT/fault_isolation.json" | tail -12
      ;;
    timing)
      # Where a case's profiling time goes (COUNTERGUARD_TIMING prints per-phase milliseconds).
      python3 -c "import sys; sys.path.insert(0, 'tools'); import benchmark_vs_ncu as b; b.write_suite('/tmp/bench20.yaml', 20)"
      COUNTERGUARD_TIMING=1 "$CG" run /tmp/bench20.yaml --no-baselines --quiet 2>&1 | grep '^timing' | tee "$OUT/timing.txt" | tail -8
      COUNTERGUARD_TIMING=1 "$CG" run cases/ --no-baselines --quiet 2>&1 | grep '^timing' >"$OUT/timing_builtin.txt"
      ;;
    sanitize)
      compute-sanitizer --tool memcheck --error-exitcode 9 "$CG" launch cases/ >"$OUT/memcheck.log" 2>&1
      echo "memcheck exit status $?"; tail -5 "$OUT/memcheck.log"
      ;;
    benchmark)
      python3 tools/benchmark_vs_ncu.py --counterguard "$CG" --builtin-results "$OUT/results.json" \
        --json "$OUT/benchmark.json" --markdown "$OUT/benchmark.md" | tail -25
      ;;
    baseline)
      # The nightly refresh: 5 repetitions per case, median and spread, written into baselines/.
      "$CG" baseline update cases/ --repeat 5 --summary "$OUT/baseline_update.md" >"$OUT/baseline_update.log" 2>&1
      echo "baseline update exit status $?"; tail -5 "$OUT/baseline_update.log"
      tar -czf "$OUT/baselines.tar.gz" baselines
      ;;
    repeat)
      # Ten consecutive gated runs with unchanged code against the committed baselines: zero failures expected.
      for i in $(seq 1 10); do
        "$CG" run cases/ --quiet --json "$OUT/repeat_$i.json" >"$OUT/repeat.log" 2>&1
        echo "run $i exit status $? $(tail -1 "$OUT/repeat.log")"
      done | tee "$OUT/repeat_runs.txt"
      python3 - "$OUT" <<'PY'
import glob, json, sys
rows = []
for path in sorted(glob.glob(sys.argv[1] + "/repeat_*.json"), key=lambda p: int(p.split("_")[-1][:-5])):
    r = json.load(open(path))
    failing = [f"{c['instance']}: {k['metric']}" for c in r["cases"] for k in c["checks"] if k["failing"]]
    rows.append({"file": path.split("/")[-1], "cases": len(r["cases"]), "failing_checks": failing})
json.dump(rows, open(sys.argv[1] + "/ten_runs_failing_checks.json", "w"), indent=1)
PY
      rm -f "$OUT"/repeat_*.json "$OUT/repeat.log"
      ;;
    planted)
      # One planted regression per suite against the committed baselines (tools/planted_regressions.py).
      python3 tools/planted_regressions.py --counterguard "$CG" --planted-binary .device/planted/counterguard \
        --report "$OUT/planted_regressions.md" | tail -16
      ;;
    *)
      echo "unknown stage $stage"; exit 2 ;;
  esac
done
