#!/usr/bin/env bash
# Runs on the GPU host (see docs/gpu-runs.md): the evidence the issues ask for, written under $OUT.
# The binary comes built from the CPU machine (tools/stage_for_gpu.sh -> .device/).
# Usage: tools/h200_evidence.sh STAGE...   stages: info run crosscheck sanitize benchmark baseline repeat planted
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/counterguard-out}
mkdir -p "$OUT"
CG=$PWD/.device/counterguard
timer=()
[[ -x /usr/bin/time ]] && timer=(/usr/bin/time -v)
export PATH=$PATH:/usr/local/cuda/bin

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
    sanitize)
      compute-sanitizer --tool memcheck --error-exitcode 9 "$CG" launch cases/ >"$OUT/memcheck.log" 2>&1
      echo "memcheck exit status $?"; tail -5 "$OUT/memcheck.log"
      ;;
    *)
      echo "unknown stage $stage"; exit 2 ;;
  esac
done
