#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs on a host with two (or more) identical GPUs (device kind nvidia-h200-x2): the checks behind "past one
# GPU" (docs/scaling.md), written under $OUT and packed into $OUT/checks.tar.gz.
#   devices  the built-in suite on one GPU and with --devices all (with and without --cost-from), three runs
#            each, alternating: wall times, their ratio, peak RSS, and validation/same_results.py on
#            every results file against the first single-GPU one (same cases, statuses and exact values)
#   ctest    a throwaway CMake project that registers the built-in cases with counterguard_add_case_tests
#            against the staged binary, then `ctest -j 2 --resource-spec-file` (tools/write_ctest_resource_spec.sh):
#            wall time
#   ctest_nospec  the same without the resource spec (every test on GPU 0, queued by its lock): the control
#            whose wall time `ctest` should about halve
#   interrupt  SIGINT to `run --devices all` mid-run: exit status 130, no worker process left, no results file
#   queue1   (also on a one-GPU host) `--devices 0` (the queue, streamed worker) against `--device 0`
# The binary comes built from the CPU machine (tools/stage_for_gpu.sh -> .device/).
# Usage: OUT=/some/dir validation/multi_gpu_checks.sh [STAGE...]
#   (default: info devices interrupt ctest ctest_nospec, about 6 minutes on two H200s)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
REPO=$PWD
OUT=${OUT:-/tmp/counterguard-multi-gpu}
mkdir -p "$OUT"
CG=$REPO/.device/counterguard
export PATH=$PATH:/usr/local/cuda/bin
stages=("$@")
[[ ${#stages[@]} -eq 0 ]] && stages=(info devices interrupt ctest ctest_nospec)

pack() {
  (cd "$OUT" && tar -czf /tmp/checks.tar.gz --exclude checks.tar.gz . && mv /tmp/checks.tar.gz "$OUT/")
}
trap pack EXIT
trap "exit 124" TERM

# timed NAME COMMAND...: runs it, logs to $OUT/NAME.log, appends "NAME wall_s peak_rss_mib exit" to times.txt.
timed() {
  local name=$1
  shift
  python3 - "$OUT/$name.log" "$@" <<'PY' | tee -a "$OUT/times.txt"
import os, subprocess, sys, time
log, command = sys.argv[1], sys.argv[2:]
started = time.monotonic()
with open(log, "w") as out:
    process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    _, status, usage = os.wait4(process.pid, 0)
print(f"{os.path.basename(log)[:-4]} {time.monotonic() - started:.2f} {usage.ru_maxrss / 1024:.1f} "
      f"{os.waitstatus_to_exitcode(status)}")
PY
}

for stage in "${stages[@]}"; do
  echo "=== stage $stage ($(date -u +%H:%M:%S))"
  case "$stage" in
    info)
      nvidia-smi --query-gpu=index,name,uuid,driver_version,clocks.sm,clocks.mem --format=csv | tee "$OUT/gpus.txt"
      "$CG" --version
      ;;
    devices)
      : >"$OUT/times.txt"
      "$CG" run cases/ --quiet --no-baselines --device 0 >/dev/null 2>&1  # warm-up: driver and module loading
      for i in 1 2 3; do
        timed "single_$i" "$CG" run cases/ --device 0 --json "$OUT/single_$i.json"
        timed "all_$i" "$CG" run cases/ --devices all --json "$OUT/all_$i.json"
        timed "all_cost_$i" "$CG" run cases/ --devices all --cost-from "$OUT/single_1.json" \
          --json "$OUT/all_cost_$i.json"
      done
      for f in "$OUT"/single_[23].json "$OUT"/all_*.json; do
        echo "--- $(basename "$f") against single_1.json"
        python3 validation/same_results.py "$OUT/single_1.json" "$f" | tail -5
      done | tee "$OUT/same_results.txt"
      python3 - "$OUT/times.txt" <<'PY' | tee "$OUT/summary.txt"
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
by = {}
for name, wall, rss, status in rows:
    by.setdefault(name.rsplit("_", 1)[0], []).append((float(wall), float(rss), int(status)))
single = statistics.median(w for w, _, _ in by["single"])
for kind, runs in by.items():
    wall = statistics.median(w for w, _, _ in runs)
    print(f"{kind:10s} median wall {wall:6.2f} s  ({wall / single:.2f}x single)  peak RSS "
          f"{max(r for _, r, _ in runs):.0f} MiB  exit {sorted(set(s for _, _, s in runs))}")
PY
      grep -h "GPU [0-9])" "$OUT"/all_1.log | awk '{print $NF}' | sort | uniq -c | tee "$OUT/cases_per_gpu.txt"
      ;;
    ctest | ctest_nospec)
      project=/tmp/counterguard-case-tests
      rm -rf "$project" && mkdir -p "$project/src"
      cat >"$project/src/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(counterguard_case_tests LANGUAGES NONE)
add_executable(counterguard IMPORTED)
set_target_properties(counterguard PROPERTIES IMPORTED_LOCATION "$CG")
include("$REPO/cmake/CounterguardCaseTests.cmake")
enable_testing()
counterguard_add_case_tests(counterguard CASES "$REPO/cases" WORKING_DIRECTORY "$REPO")
CMAKE
      cmake -S "$project/src" -B "$project/build" >"$OUT/${stage}_configure.log" 2>&1
      ctest --test-dir "$project/build" -N -L gpu | tail -2
      spec=()
      if [[ $stage == ctest ]]; then
        tools/write_ctest_resource_spec.sh "$OUT/gpus.json"
        spec=(--resource-spec-file "$OUT/gpus.json")
      fi
      timed "$stage" ctest --test-dir "$project/build" -L gpu -j 2 "${spec[@]}" --output-on-failure \
        --output-junit "$OUT/${stage}_junit.xml"
      tail -4 "$OUT/$stage.log"
      python3 - "$OUT/${stage}_junit.xml" "$OUT/times.txt" "$stage" <<'PY' | tee "$OUT/${stage}_summary.txt"
import sys, xml.etree.ElementTree as ET
tests = ET.parse(sys.argv[1]).getroot().iter("testcase")
times = [float(t.get("time", 0)) for t in tests]
wall = [float(l.split()[1]) for l in open(sys.argv[2]) if l.split()[0] == sys.argv[3]][-1]
# Compare the wall time with the other ctest stage: a test waiting for a GPU's lock counts its wait as its time.
print(f"{len(times)} tests, wall {wall:.1f} s, sum of the tests' times {sum(times):.1f} s")
PY
      ;;
    interrupt)
      "$CG" run cases/ --devices all --json "$OUT/interrupted.json" >"$OUT/interrupt.log" 2>&1 &
      pid=$!
      sleep 4
      kill -INT "$pid"
      wait "$pid"
      echo "exit status $? (expected 130)" | tee "$OUT/interrupt.txt"
      sleep 1
      echo "worker processes left: $(pgrep -c -f "counterguard __worker" || true)" | tee -a "$OUT/interrupt.txt"
      echo "results file written: $([[ -e $OUT/interrupted.json ]] && echo yes || echo no)" | tee -a "$OUT/interrupt.txt"
      tail -3 "$OUT/interrupt.log"
      ;;
    queue1)
      timed queue1_device "$CG" run cases/ --device 0 --json "$OUT/queue1_device.json"
      timed queue1_devices "$CG" run cases/ --devices 0 --json "$OUT/queue1_devices.json"
      python3 validation/same_results.py "$OUT/queue1_device.json" "$OUT/queue1_devices.json" | tail -5 |
        tee "$OUT/queue1_same_results.txt"
      ;;
    *) echo "unknown stage $stage" ;;
  esac
done
