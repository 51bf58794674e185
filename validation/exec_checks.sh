#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs on a GPU host: the checks behind validation/h200.md's `counterguard exec` figures (docs/exec.md),
# written under $OUT and packed into $OUT/exec_checks.tar.gz. Build and stage on the CPU machine first
# (tools/stage_for_gpu.sh -> .device/, which holds counterguard, libcounterguard_injection.so and
# tools/exec_demo's exec_demo).
# Usage: validation/exec_checks.sh STAGE...   (stages below; `all` = info launch demo processes crosscheck benchmark)
#   info        GPU, driver, versions
#   launch      (a) exec over `counterguard launch cases/` against `counterguard run cases/`: every exact and
#               static value identical (counterguard compare --fail-on-change), the recording re-evaluated offline
#   demo        (c) the plain CUDA application with NVTX ranges under exec: its suite, static checks of its binary
#   processes   ranks (fork + exec children), a crash, a hang, a failing exit status; the GPU is free afterwards
#   crosscheck  (c) every exact value of the demo's cases against ncu on the same launches
#   benchmark   wall time of exec and ncu with the same selection and metrics; BENCH_LAUNCHES
#               (default "6 60"), BENCH_ITERATIONS (the demo's, default 20: 3 selected launches each), BENCH_REPEAT
#   overhead    exec's per-launch trace (COUNTERGUARD_INJECTION_TRACE): where its time goes (OVERHEAD_LAUNCHES,
#               default 30, of BENCH_ITERATIONS)
#   setups      the injection's set-up variants (COUNTERGUARD_INJECTION_SETUP full|image|config): every exact and
#               static value identical to "full", and the time
#               of each (wall, first launch, set-up per launch)
#   gtest       (b) the example project's GoogleTest binary under exec: EXAMPLE_TESTS=<binary> and
#               EXAMPLE_CASES=<exec suite> (validation/exec/reduction_stencil_tests.yaml for examples/reduction_stencil)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-/tmp/counterguard-exec-out}
mkdir -p "$OUT"
CG=$PWD/.device/counterguard
DEMO=$PWD/.device/exec_demo
export PATH=$PATH:/usr/local/cuda/bin
if [[ -z "${COUNTERGUARD_GIT_COMMIT:-}" && -s .device/commit ]]; then
  COUNTERGUARD_GIT_COMMIT=$(cat .device/commit)  # what tools/stage_for_gpu.sh built from
fi
export COUNTERGUARD_GIT_COMMIT=${COUNTERGUARD_GIT_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}

pack() {
  (cd "$OUT" && tar -czf /tmp/exec_checks.tar.gz --exclude exec_checks.tar.gz . && mv /tmp/exec_checks.tar.gz "$OUT/")
}
trap pack EXIT
trap "exit 124" TERM

# Runs a command, records its exit status and wall time in $OUT/statuses.txt, and keeps its output.
record() {
  local name=$1
  shift
  local start end status
  start=$(date +%s%N)
  "$@" >"$OUT/$name.log" 2>&1
  status=$?
  end=$(date +%s%N)
  printf '%-20s exit %3d  %6d ms  %s\n' "$name" "$status" $(((end - start) / 1000000)) "$*" | tee -a "$OUT/statuses.txt"
  return 0
}

stages=("$@")
[[ ${#stages[@]} -eq 1 && ${stages[0]} == all ]] && stages=(info launch demo processes crosscheck benchmark)

for stage in "${stages[@]}"; do
  echo "=== stage $stage ($(date -u +%H:%M:%S))"
  case "$stage" in
    info)
      nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv | tee "$OUT/gpu.txt"
      "$CG" --version | tee -a "$OUT/gpu.txt"
      ncu --version | tail -1 | tee -a "$OUT/gpu.txt"
      ;;
    launch)
      # The same cases, profiled by `run` (registered variants) and by `exec` (an unmodified program: the
      # `launch` command, whose NVTX ranges name the cases). EXEC_REPLAY_MODE=auto|kernel|application picks
      # exec's --replay-mode (default: exec's own).
      replay_mode=()
      [[ -n ${EXEC_REPLAY_MODE:-} ]] && replay_mode=(--replay-mode "$EXEC_REPLAY_MODE")
      record a_run "$CG" run cases/ --no-baselines --quiet --json "$OUT/a_run.json"
      record a_exec "$CG" exec --cases cases/ "${replay_mode[@]}" --no-baselines --json "$OUT/a_exec.json" \
        --junit "$OUT/a_exec_junit.xml" --save-counter-data "$OUT/a_exec_recording" -- "$CG" launch cases/
      tail -3 "$OUT/a_exec.log"
      record a_compare "$CG" compare "$OUT/a_run.json" "$OUT/a_exec.json" --fail-on-change --all \
        --markdown "$OUT/a_compare.md"
      tail -5 "$OUT/a_compare.log"
      python3 - "$OUT/a_run.json" "$OUT/a_exec.json" <<'PY' | tee "$OUT/a_identical.txt"
import json, sys
run, ex = (json.load(open(p)) for p in sys.argv[1:3])
by_name = {c["instance"]: c for c in ex["cases"]}
same = differ = missing = 0
noisy = []
for case in run["cases"]:
    other = by_name.get(case["instance"])
    for metric, value in case["totals"].items():
        if other is None or metric not in other["totals"]:
            missing += 1
            continue
        theirs = other["totals"][metric]["value"]
        if value["class"] == "noisy":
            noisy.append(f"{case['instance']} {metric}: run {value['value']:g}, exec {theirs:g}")
        elif theirs == value["value"]:
            same += 1
        else:
            differ += 1
            print(f"DIFFERENT {case['instance']} {metric}: run {value['value']:g}, exec {theirs:g}")
print(f"exact and static values: {same} identical, {differ} different, {missing} missing in exec; "
      f"{len(noisy)} noisy values (not compared)")
PY
      # The recording evaluates to the same results on any machine (and can become a CPU fixture).
      record a_evaluate "$CG" evaluate "$OUT/a_exec_recording" --no-baselines --quiet --json "$OUT/a_evaluated.json"
      record a_exec_baselines "$CG" exec --cases cases/ "${replay_mode[@]}" --quiet -- "$CG" launch cases/
      tar -C "$OUT" -czf "$OUT/a_exec_recording.tar.gz" a_exec_recording && rm -rf "$OUT/a_exec_recording"
      ;;
    demo)
      record c_static "$CG" static --binary "$DEMO" --cases tools/exec_demo/demo.yaml
      record c_exec "$CG" exec --cases tools/exec_demo/demo.yaml --no-baselines --json "$OUT/c_exec.json" \
        --junit "$OUT/c_junit.xml" --markdown "$OUT/c_summary.md" --save-counter-data "$OUT/c_recording" -- "$DEMO"
      cat "$OUT/c_exec.log"
      record c_flags "$CG" exec -k 'regex:transpose_tiled<32>' --nvtx-include 'demo@solve/' -c 2 \
        --metric shared_store_bank_conflicts --no-baselines --json "$OUT/c_flags.json" -- "$DEMO"
      tail -4 "$OUT/c_flags.log"
      record c_evaluate "$CG" evaluate "$OUT/c_recording" --no-baselines --json "$OUT/c_evaluated.json"
      tar -C "$OUT" -czf "$OUT/c_recording.tar.gz" c_recording && rm -rf "$OUT/c_recording"
      ;;
    processes)
      # Two ranks (the demo forks and execs itself with OMPI_COMM_WORLD_RANK): each is a result of its own.
      record p_ranks "$CG" exec --cases tools/exec_demo/demo.yaml --no-baselines --json "$OUT/p_ranks.json" \
        -- "$DEMO" --ranks 2
      grep -E "rank|processes" "$OUT/p_ranks.log" | head -8
      record p_exit_status "$CG" exec --cases tools/exec_demo/demo.yaml --no-baselines -- "$DEMO" --exit-status 3
      record p_exit_allowed "$CG" exec --cases tools/exec_demo/demo.yaml --no-baselines --allow-program-failure \
        -- "$DEMO" --exit-status 3
      record p_crash "$CG" exec --cases tools/exec_demo/demo.yaml --no-baselines --json "$OUT/p_crash.json" \
        -- "$DEMO" --crash
      record p_hang "$CG" exec --cases tools/exec_demo/demo.yaml --no-baselines --timeout 30 -- "$DEMO" --hang
      grep -h "counterguard: " "$OUT"/p_*.log | grep -E "program|timeout|signal" | head -8
      # Nothing is left behind: no process on the GPU, and the next profiling run gets the counters at once.
      nvidia-smi --query-compute-apps=pid,process_name --format=csv | tee "$OUT/p_gpu_processes_after.txt"
      record p_after "$CG" exec --cases tools/exec_demo/demo.yaml --no-baselines --wait-for-gpu 0 -- "$DEMO"
      ;;
    crosscheck)
      [[ -f "$OUT/c_exec.json" ]] || record c_exec "$CG" exec --cases tools/exec_demo/demo.yaml --no-baselines \
        --json "$OUT/c_exec.json" -- "$DEMO"
      python3 validation/exec_vs_ncu.py crosscheck --counterguard "$CG" --results "$OUT/c_exec.json" \
        --selections validation/exec/ncu_selections.json --report "$OUT/c_ncu_crosscheck.md" -- "$DEMO" \
        >"$OUT/c_ncu_crosscheck.log" 2>&1
      echo "crosscheck exit status $?"; head -8 "$OUT/c_ncu_crosscheck.md"
      ;;
    benchmark)
      for launches in ${BENCH_LAUNCHES:-6 60}; do
        python3 validation/exec_vs_ncu.py benchmark --counterguard "$CG" --kernel-regex '(vec_add|transpose_naive|histogram)\(' \
          --nvtx-include step/ --launch-count "$launches" --metric global_load_sectors_per_request \
          --metric global_store_sectors_per_request --metric global_reduction_requests --repeat "${BENCH_REPEAT:-3}" \
          --json "$OUT/benchmark_$launches.json" --markdown "$OUT/benchmark_$launches.md" -- "$DEMO" \
          --iterations "${BENCH_ITERATIONS:-20}" \
          >"$OUT/benchmark_$launches.log" 2>&1
        echo "benchmark ($launches launches) exit status $?"; tail -8 "$OUT/benchmark_$launches.md"
      done
      ;;
    overhead)
      # Where exec's time goes: the benchmark's selection (30 launches) with the injection's per-launch trace,
      # and the demo's suite (several cases, one process configuration) traced the same way.
      COUNTERGUARD_INJECTION_TRACE=1 record o_bench "$CG" exec --kernel-name 'regex:(vec_add|transpose_naive|histogram)\(' \
        --nvtx-include step/ --launch-count "${OVERHEAD_LAUNCHES:-30}" --metric global_load_sectors_per_request \
        --metric global_store_sectors_per_request --metric global_reduction_requests --no-baselines --quiet \
        -- "$DEMO" --iterations "${BENCH_ITERATIONS:-20}"
      COUNTERGUARD_INJECTION_TRACE=1 record o_demo "$CG" exec --cases tools/exec_demo/demo.yaml --no-baselines --quiet \
        -- "$DEMO"
      for log in o_bench o_demo; do
        echo "--- $log: first launches, then the means over all"
        grep "profiled launch" "$OUT/$log.log" | head -3
        grep "profiled launch" "$OUT/$log.log" | python3 -c '
import re, sys
rows = [list(map(float, re.findall(r"([0-9.]+) ms", line))) for line in sys.stdin]
if rows:
    names = ["set-up", "launch+replay", "decode", "recording", "process record"]
    print(f"{len(rows)} launches; mean ms: " + ", ".join(f"{n} {sum(r[i] for r in rows) / len(rows):.1f}" for i, n in enumerate(names)))
    print("after the first: " + ", ".join(f"{n} {sum(r[i] for r in rows[1:]) / max(1, len(rows) - 1):.1f}" for i, n in enumerate(names)))'
        grep -E "exited with status" "$OUT/$log.log"
      done
      ;;
    setups)
      # The reference first: the sequence verified on the H200 (every step at each launch, at the first launch).
      for setup in full image config; do
        for suite in demo bench; do
          name=s_${suite}_${setup}
          if [[ $suite == demo ]]; then
            COUNTERGUARD_INJECTION_TRACE=1 COUNTERGUARD_INJECTION_SETUP=$setup \
              record "$name" "$CG" exec --cases tools/exec_demo/demo.yaml --no-baselines --quiet --json "$OUT/$name.json" \
              -- "$DEMO"
          else
            COUNTERGUARD_INJECTION_TRACE=1 COUNTERGUARD_INJECTION_SETUP=$setup \
              record "$name" "$CG" exec --kernel-name 'regex:(vec_add|transpose_naive|histogram)\(' \
              --nvtx-include step/ --launch-count 30 --metric global_load_sectors_per_request \
              --metric global_store_sectors_per_request --metric global_reduction_requests --no-baselines --quiet \
              --json "$OUT/$name.json" -- "$DEMO" --iterations 20
          fi
        done
      done
      python3 - "$OUT" <<'PY' | tee "$OUT/s_setups.md"
import json, re, sys
from pathlib import Path
out = Path(sys.argv[1])
def values(path):
    data = json.load(open(path))
    return {(c["instance"], m): (v["value"], v["class"]) for c in data["cases"] for m, v in c["totals"].items()}
def trace(log):
    text = open(log, errors="replace").read()
    rows = [list(map(float, re.findall(r"([0-9.]+) ms", l))) for l in text.splitlines() if "profiled launch" in l]
    wall = [float(w) for w in re.findall(r"results and reports [0-9.]+ ms; total ([0-9.]+) ms", text)]
    return rows, (wall[0] if wall else float("nan"))
print("| run | statuses | exact/static identical to full | different | wall ms (exec steps) | first launch set-up ms | set-up ms per later launch | recording ms |")
print("|---|---|---|---|---|---|---|---|")
for suite in ("demo", "bench"):
    reference = values(out / f"s_{suite}_full.json")
    for variant in ("full", "image", "config"):
        name = f"s_{suite}_{variant}"
        try:
            mine = values(out / f"{name}.json")
        except Exception as e:
            print(f"| {name} | no results ({e}) | | | | | | |")
            continue
        same = differ = 0
        for key, (value, klass) in reference.items():
            if klass == "noisy":
                continue
            if mine.get(key, (None,))[0] == value:
                same += 1
            else:
                differ += 1
                print(f"DIFFERENT {name} {key}: full {value}, {variant} {mine.get(key)}", file=sys.stderr)
        rows, wall = trace(out / f"{name}.log")
        first = rows[0][0] if rows else float("nan")
        later = sum(r[0] for r in rows[1:]) / max(1, len(rows) - 1)
        recording = sum(r[3] for r in rows) / max(1, len(rows))
        print(f"| {name} | {len(rows)} launches | {same} | {differ} | {wall:.0f} | {first:.1f} | {later:.2f} | {recording:.2f} |")
PY
      for log in s_bench_full s_bench_image s_bench_config; do
        echo "--- $log"
        grep -E "trace: (setup|context profiler|begin|profiled launch [01] |exec steps)" \
          "$OUT/$log.log" | head -14
      done
      ;;
    gtest)
      if [[ -z "${EXAMPLE_TESTS:-}" || -z "${EXAMPLE_CASES:-}" ]]; then
        echo "gtest: set EXAMPLE_TESTS=<GoogleTest binary> and EXAMPLE_CASES=<exec suite>"
        continue
      fi
      record b_gtest "$CG" exec --cases "$EXAMPLE_CASES" --no-baselines --json "$OUT/b_gtest.json" \
        --junit "$OUT/b_gtest_junit.xml" -- "$EXAMPLE_TESTS"
      tail -20 "$OUT/b_gtest.log"
      ;;
    *)
      echo "unknown stage $stage"
      ;;
  esac
done
