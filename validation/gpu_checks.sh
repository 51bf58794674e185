#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs on a GPU host: the checks behind validation/h200.md, each stage writing under $OUT (packed into
# $OUT/checks.tar.gz at the end). The binaries come built from the CPU machine (tools/stage_for_gpu.sh ->
# .device/); validation/README.md says how to carry them.
# Usage: validation/gpu_checks.sh STAGE...
#   info         the GPU, driver and counterguard version
#   run          the built-in suite ungated, counter data kept (the CPU tests' recording is such a run)
#   suite_time   the gated built-in suite three times with --device 0 and --devices all, one case alone
#   same_values  a gated run against validation/reference/h200_builtin_gated.json.gz (exact and static values)
#   crosscheck   ncu on the same launches (after `run`): every exact value equal
#   benchmark    counterguard against ncu, whole suite and per generated case (after `run`)
#   timing       where a case's time goes (COUNTERGUARD_TIMING)
#   api          the range profiler against the session API: the same exact values
#   baseline     baseline update --repeat 5 into baselines/
#   repeat       ten gated runs of unchanged code: no failing check
#   planted      one planted regression per suite: each caught
#   faults       a faulting and a hanging kernel fail alone
#   sanitize     compute-sanitizer memcheck over `launch cases/`
#   floor        the GPU input fill equals the CPU's; host work timed on this host's cores
#   extras       --metric extras recorded and evaluated offline: the same values
#   lock signals two runs on one GPU; SIGTERM / SIGINT leave nothing behind
#   noise        the noise model's false-alarm rate and its power (validation/noise)
#   predication  predicated-off lanes against ncu
#   example      the example project: its cases, baselines, GoogleTest tests, ncu, a planted regression
#   fail_fast    -x stops a run of real GPU workers at a planted failure; -v prints each process's timeline,
#                and exec -v the injection library's steps
#   history_pool bands pooled from the history; the no-churn rule
#   blame blame_planted run_blame ncu_lines sass   source-line blame, against ncu's source page
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-/tmp/counterguard-out}
mkdir -p "$OUT"
CG=$PWD/.device/counterguard
if [[ -z "${COUNTERGUARD_GIT_COMMIT:-}" && -s .device/commit ]]; then
  COUNTERGUARD_GIT_COMMIT=$(cat .device/commit)  # what tools/stage_for_gpu.sh built from (the tree's .git may differ)
  export COUNTERGUARD_GIT_COMMIT
fi
timer=()
[[ -x /usr/bin/time ]] && timer=(/usr/bin/time -v)
export PATH=$PATH:/usr/local/cuda/bin

# A GPU host's job may bring back only a few files: everything is packed into one archive at the end.
pack() {
  (cd "$OUT" && tar -czf /tmp/checks.tar.gz --exclude checks.tar.gz . && mv /tmp/checks.tar.gz "$OUT/")
}
trap pack EXIT
trap "exit 124" TERM

# gated_rounds DIR [VARIABLE] MODE...: the built-in suite gated in each mode of VARIABLE
# (COUNTERGUARD_PROFILER_CONFIGURATIONS unless named: an upper-case first argument after DIR), two rounds
# alternating: DIR/<mode><round>.json and .timing, wall times appended to DIR/walls.txt.
gated_rounds() {
  local dir=$1 variable=COUNTERGUARD_PROFILER_CONFIGURATIONS
  shift
  if [[ $1 =~ ^[A-Z_]+$ ]]; then variable=$1; shift; fi
  for round in 1 2; do
    for mode in "$@"; do
      local start status
      start=$(date +%s.%N)
      env "$variable=$mode" COUNTERGUARD_TIMING=1 "$CG" run cases/ --quiet \
        --json "$dir/$mode$round.json" 2>"$dir/$mode$round.timing"
      status=$?
      echo "$mode round $round: exit status $status, $(python3 -c "import time; print(f'{time.time() - $start:.2f}')") s wall" | tee -a "$dir/walls.txt"
    done
  done
}

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
      python3 validation/ncu_crosscheck.py --counterguard "$CG" --results "$OUT/results.json" \
        --report "$OUT/ncu_crosscheck.md" | tail -30
      ;;
    faults)
      # A faulting and a hanging kernel between healthy cases: each fails alone, the rest still runs.
      python3 harness/test/device/check_fault_isolation.py "$CG" "$OUT/fault_isolation.json" | tail -12
      ;;
    timing)
      # Where a case's profiling time goes (COUNTERGUARD_TIMING prints per-phase milliseconds).
      python3 -c "import sys; sys.path.insert(0, 'validation'); import benchmark_vs_ncu as b; b.write_suite('/tmp/bench20.yaml', 20)"
      COUNTERGUARD_TIMING=1 "$CG" run /tmp/bench20.yaml --no-baselines --quiet 2>&1 | grep '^timing' | tee "$OUT/timing.txt" | tail -8
      COUNTERGUARD_TIMING=1 "$CG" run cases/ --no-baselines --quiet 2>&1 | grep '^timing' >"$OUT/timing_builtin.txt"
      python3 tools/timing_summary.py "$OUT/timing_builtin.txt"
      ;;
    suite_time)
      # The gated built-in suite with --device 0 and with --devices all (one worker per GPU), three rounds
      # alternating, and one case alone (start-up is nearly all of it); COUNTERGUARD_TIMING marks every step.
      S=$OUT/suite_time; mkdir -p "$S"
      for round in 1 2 3; do
        for mode in device devices; do
          flag=(--device 0); [[ $mode == devices ]] && flag=(--devices all)
          start=$(date +%s.%N)
          COUNTERGUARD_TIMING=1 "$CG" run cases/ "${flag[@]}" --quiet --json "$S/$mode$round.json" 2>"$S/$mode$round.timing"
          echo "$mode round $round: exit status $?, $(python3 -c "import time; print(f'{time.time() - $start:.2f}')") s wall" | tee -a "$S/walls.txt"
        done
      done
      for round in 1 2 3; do
        start=$(date +%s.%N)
        COUNTERGUARD_TIMING=1 "$CG" run cases/coalescing.yaml --filter coalescing/contiguous --quiet \
          --json "$S/one$round.json" 2>"$S/one$round.timing"
        echo "one case round $round: exit status $?, $(python3 -c "import time; print(f'{time.time() - $start:.2f}')") s wall" | tee -a "$S/walls.txt"
      done
      for f in "$S"/*.timing; do grep '^timeline' "$f" >"${f%.timing}.timeline"; done
      python3 tools/timing_summary.py "$S/device2.timing" | head -20
      gzip -9 "$S"/*.json "$S"/*.timing
      ;;
    fail_fast)
      # The coalescing suite with its first case's expectation planted wrong (4 -> 3 sectors per request).
      F=$OUT/fail_fast; mkdir -p "$F"
      sed '0,/global_load_sectors_per_request: 4/s//global_load_sectors_per_request: 3/' cases/coalescing.yaml \
        >"$F/coalescing.yaml"
      for flag in "--device 0" "--devices all"; do
        name=${flag//[ -]/}
        # shellcheck disable=SC2086 # the flag is two words
        "$CG" run "$F/coalescing.yaml" -x -v $flag --no-baselines --json "$F/$name.json" >"$F/$name.log" 2>&1
        echo "run -x -v $flag: exit status $? (1 expected)"
        python3 - "$F/$name.json" "$F/$name.log" <<'PY' | tee -a "$F/verdict.txt"
import json, sys
cases = json.load(open(sys.argv[1]))["cases"]
log = open(sys.argv[2]).read().splitlines()
statuses = [c["status"] for c in cases]
stopped = [c for c in cases if c["status_reason"].startswith("not run: --fail-fast stopped the run after")]
print(f"{sys.argv[1]}: {len(cases)} instances: first {statuses[0]}; {len(stopped)} not run after it "
      f"({sum(s == 'passed' for s in statuses)} passed, {sum(s == 'failed' for s in statuses)} failed); "
      f"-v: {sum(l.startswith('timing') for l in log)} timing lines, {sum(l.startswith('timeline') for l in log)} timeline lines")
PY
      done
      "$CG" exec -v --cases tools/exec_demo/demo.yaml --no-baselines --json "$F/exec.json" -- .device/exec_demo \
        >"$F/exec.log" 2>&1
      echo "exec -v: exit status $?; $(grep -c 'trace: ' "$F/exec.log") injection trace lines"
      ;;
    same_values)
      # Today's exact and static values against the reference gated run (validation/reference): the same
      # instances, statuses, verification and values; noisy values only measured in both.
      V=$OUT/same_values; mkdir -p "$V"
      "$CG" run cases/ --quiet --json "$V/gated.json" >"$V/gated.log" 2>&1; echo "gated run exit status $?"
      tail -1 "$V/gated.log"
      python3 validation/same_results.py <(zcat validation/reference/h200_builtin_gated.json.gz) "$V/gated.json" \
        | tail -5 | tee "$V/same_as_reference.txt"
      gzip -9 "$V/gated.json"
      ;;
    api)
      # The range profiler (COUNTERGUARD_PROFILER_API=range, an Enable per configuration) against CUPTI's
      # session API (the default), the built-in suite gated twice each, alternating: the same exact values.
      A=$OUT/api; mkdir -p "$A"
      gated_rounds "$A" COUNTERGUARD_PROFILER_API range session
      python3 tools/timing_summary.py "$A"/range2.timing "$A"/session2.timing | tee "$A/summary.txt"
      python3 validation/same_results.py "$A/range1.json" "$A/session1.json" >"$A/same_apis.txt" 2>&1
      echo "same results range vs session: exit status $?"; tail -2 "$A/same_apis.txt"
      gzip -9 "$A"/*.timing "$A"/*.json
      ;;
    floor)
      # Inputs filled on the GPU equal the CPU's (every fill kind and element type), and the host work's
      # parallel chunks timed on this host's cores (harness/test/registry/host_work_benchmark).
      F=$OUT/floor; mkdir -p "$F"
      LD_LIBRARY_PATH=$PWD/.device/lib .device/tests/device_fill_tests >"$F/device_fill_tests.log" 2>&1; echo "device_fill_tests exit status $?"
      tail -3 "$F/device_fill_tests.log"
      LD_LIBRARY_PATH=$PWD/.device/lib .device/tests/host_work_benchmark >"$F/host_work_benchmark_h200.txt" 2>&1; echo "host_work_benchmark exit status $?"
      cat "$F/host_work_benchmark_h200.txt"
      ;;
    sanitize)
      compute-sanitizer --tool memcheck --error-exitcode 9 "$CG" launch cases/ >"$OUT/memcheck.log" 2>&1
      echo "memcheck exit status $?"; tail -5 "$OUT/memcheck.log"
      ;;
    benchmark)
      python3 validation/benchmark_vs_ncu.py --counterguard "$CG" --builtin-results "$OUT/results.json" \
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
      # One planted regression per suite against the committed baselines (validation/planted_regressions.py).
      python3 validation/planted_regressions.py --counterguard "$CG" --planted-binary .device/planted/counterguard \
        --report "$OUT/planted_regressions.md" | tail -16
      ;;
    extras)
      # One measurement path: a run asked for metrics beyond its expectations, recorded, then evaluated
      # offline; every value the run reported must come back from the counter data .
      "$CG" run cases/transpose.yaml cases/coalescing.yaml --metric dram_read_bytes \
        --metric l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum --no-baselines --quiet \
        --save-counter-data "$OUT/extras" --json "$OUT/extras_run.json" >"$OUT/extras.log" 2>&1
      echo "extras run exit status $?"
      "$CG" evaluate "$OUT/extras" --no-baselines --quiet --json "$OUT/extras_evaluated.json" >>"$OUT/extras.log" 2>&1
      echo "extras evaluate exit status $?"
      python3 - "$OUT" <<'PY' | tee "$OUT/extras_compare.txt"
import json, sys, math
run = json.load(open(sys.argv[1] + "/extras_run.json"))
ev = json.load(open(sys.argv[1] + "/extras_evaluated.json"))
evc = {c["instance"]: c for c in ev["cases"]}
compared = differ = extra = 0
for c in run["cases"]:
    for k, v in c["totals"].items():
        e = evc[c["instance"]]["totals"].get(k)
        compared += 1
        extra += k in ("dram_read_bytes", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
        if e is None or e["value"] != v["value"]:
            differ += 1
            print("differs:", c["instance"], k, v["value"], None if e is None else e["value"])
print(f"{compared} case totals compared ({extra} of them the two --metric extras), {differ} differ")
PY
      cp -r "$OUT/extras" "$OUT/extras_recording" && tar -C "$OUT" -czf "$OUT/extras_recording.tar.gz" extras_recording
      rm -rf "$OUT/extras_recording"
      ;;
    lock)
      # Two runs on one GPU at the same time: the second waits for the first instead of failing .
      ("$CG" run cases/transpose.yaml --no-baselines --quiet >"$OUT/lock_first.log" 2>&1; echo "first exit $?" >>"$OUT/lock_first.log") &
      sleep 1
      "$CG" run cases/transpose.yaml --no-baselines --quiet >"$OUT/lock_second.log" 2>&1; echo "second exit $?" >>"$OUT/lock_second.log"
      wait
      tail -2 "$OUT/lock_first.log"; grep -E "waiting for GPU|exit" "$OUT/lock_second.log"
      # An expired wait is exit 3, not a CUPTI error.
      ("$CG" run cases/ --no-baselines --quiet >/dev/null 2>&1) &
      sleep 2
      "$CG" run cases/transpose.yaml --no-baselines --quiet --wait-for-gpu 1 >"$OUT/lock_expired.log" 2>&1
      echo "expired wait exit $?" | tee -a "$OUT/lock_expired.log"; tail -2 "$OUT/lock_expired.log"
      wait
      ;;
    signals)
      # SIGTERM and SIGINT to a run: conventional status, no worker left holding the GPU, nothing written.
      for signal in TERM INT; do
        "$CG" run cases/ --no-baselines --quiet --json "$OUT/signal_$signal.json" >"$OUT/signal_$signal.log" 2>&1 &
        parent=$!
        sleep 4
        kill -$signal $parent
        wait $parent; status=$?
        sleep 1
        left=$(pgrep -f "counterguard __worker" | wc -l)
        echo "SIG$signal: exit status $status, workers left $left, results written: $([[ -e $OUT/signal_$signal.json ]] && echo yes || echo no)" | tee -a "$OUT/signals.txt"
        tail -1 "$OUT/signal_$signal.log" | tee -a "$OUT/signals.txt"
      done
      "$CG" run cases/transpose.yaml --no-baselines --quiet --require-gpu >"$OUT/after_signals.log" 2>&1
      echo "a run right after: exit status $?" | tee -a "$OUT/signals.txt"
      ;;
    noise)
      # The noise model's false-alarm rate and power on the H200 .
      validation/noise/run_false_alarm_check.sh .device "$OUT/noise" | tail -30
      (cd "$OUT" && tar -czf noise.tar.gz noise && rm -rf noise)
      ;;
    predication)
      # predicated-off lanes. The divergence suite with counter data kept (a CPU fixture), its new
      # predicated case's baseline, and ncu's instrumented counters on the same kernels as the oracle.
      "$CG" run cases/divergence.yaml --no-baselines --json "$OUT/divergence.json" \
        --save-counter-data "$OUT/divergence_counterdata" >"$OUT/divergence.log" 2>&1
      echo "divergence exit status $?"; tail -12 "$OUT/divergence.log"
      ncu --csv --page raw --print-units base \
        --metrics smsp__sass_inst_executed.sum,smsp__sass_thread_inst_executed.sum,smsp__sass_thread_inst_executed_pred_on.sum,smsp__sass_branch_targets_threads_divergent.sum \
        "$CG" launch cases/divergence.yaml >"$OUT/divergence_ncu.csv" 2>"$OUT/divergence_ncu.err"
      echo "ncu exit status $?"; grep -c '^"' "$OUT/divergence_ncu.csv"
      "$CG" baseline update cases/divergence.yaml --filter 'divergence/predicated*' --repeat 3 \
        --summary "$OUT/divergence_baseline.md" >"$OUT/divergence_baseline.log" 2>&1
      echo "baseline update exit status $?"; mkdir -p "$OUT/baselines" && cp -r baselines/. "$OUT/baselines/"
      tar -C "$OUT" -czf "$OUT/divergence_counterdata.tar.gz" divergence_counterdata && rm -rf "$OUT/divergence_counterdata"
      ;;
    example)
      # The example user project : its cases, its baselines, its GoogleTest tests, ncu on its kernels,
      # and a planted regression that must fail the right test.
      EX=$PWD/examples/reduction_stencil
      ER=$PWD/.device/example
      (cd "$EX" && "$ER/reduction_stencil_counterguard" run counterguard/ --no-baselines --json "$OUT/example_run.json" \
        --save-counter-data "$OUT/example_recording" --quiet >"$OUT/example.log" 2>&1; echo "example run exit status $?")
      (cd "$EX" && "$ER/reduction_stencil_counterguard" baseline update counterguard/ --repeat 5 \
        --baseline-dir "$OUT/example_baselines" >>"$OUT/example.log" 2>&1; echo "example baseline exit status $?")
      (cd "$EX" && "$ER/reduction_stencil_counterguard" run counterguard/ --baseline-dir "$OUT/example_baselines" \
        --quiet >>"$OUT/example.log" 2>&1; echo "example gated run exit status $?")
      "$ER/reduction_stencil_tests" >"$OUT/example_gtest.log" 2>&1; echo "example gtest exit status $?"
      tail -4 "$OUT/example_gtest.log"
      "$ER/planted/reduction_stencil_tests" >"$OUT/example_gtest_planted.log" 2>&1; echo "planted gtest exit status $?"
      grep -E "^\[  FAILED|Failure|measured" "$OUT/example_gtest_planted.log" | head -12
      # ncu's demangled name of a kernel template (register_window<8>) begins with its return type, void.
      (cd "$EX" && python3 "$OLDPWD/validation/ncu_crosscheck.py" --counterguard "$ER/reduction_stencil_counterguard" \
        --results "$OUT/example_run.json" --cases counterguard --kernel-regex '^(void )?reduction_stencil::' \
        --report "$OUT/example_ncu_crosscheck.md" | tail -8)
      tar -C "$OUT" -czf "$OUT/example_recording.tar.gz" example_recording example_baselines
      rm -rf "$OUT/example_recording" "$OUT/example_baselines"
      ;;
    history_pool)
      # bands pooled from the run history, and the no-churn rule. A refresh recorded in a history, three
      # gated runs recorded there, a second refresh: nothing changes (baseline diff). Then --replace-all
      # --from-history 20 rebuilds every noisy band from the history (entries say from_history: k).
      H=$OUT/history_pool; mkdir -p "$H"; rm -f /tmp/pool.db
      sel=(cases/shared_banks.yaml cases/transpose.yaml)
      "$CG" baseline update "${sel[@]}" --repeat 3 --replace-all --history /tmp/pool.db \
        --baseline-dir "$H/baselines" >"$H/refresh1.log" 2>&1; echo "refresh 1 exit status $?"
      cp -r "$H/baselines" "$H/baselines_first"
      for i in 1 2 3; do
        "$CG" run "${sel[@]}" --baseline-dir "$H/baselines" --history /tmp/pool.db --quiet \
          >"$H/run$i.log" 2>&1; echo "gated run $i exit status $?"
      done
      "$CG" baseline update "${sel[@]}" --repeat 3 --history /tmp/pool.db --baseline-dir "$H/baselines" \
        >"$H/refresh2.log" 2>&1; echo "refresh 2 (no-churn) exit status $?"
      "$CG" baseline diff "$H/baselines_first" "$H/baselines" >"$H/diff_after_refresh2.txt" 2>&1
      echo "baseline diff after refresh 2: exit status $?"; tail -3 "$H/diff_after_refresh2.txt"
      diff -r "$H/baselines_first" "$H/baselines" >/dev/null && echo "refresh 2: files byte-identical"
      "$CG" baseline update "${sel[@]}" --repeat 3 --replace-all --from-history 20 --history /tmp/pool.db \
        --baseline-dir "$H/baselines" >"$H/refresh3.log" 2>&1; echo "refresh 3 (--from-history 20) exit status $?"
      grep -rhoE "from_history: [0-9]+" "$H/baselines" | sort | uniq -c
      "$CG" run "${sel[@]}" --baseline-dir "$H/baselines" --quiet >"$H/run_pooled.log" 2>&1
      echo "gated run against pooled bands exit status $?"
      cp /tmp/pool.db "$H/history.db"
      ;;
    blame)
      # per-instruction counters (CUPTI SASS metrics) joined to source lines; before/after of the
      # padding and the stride regressions; ncu's source counters for the same kernels as the oracle.
      B=$OUT/blame; mkdir -p "$B"
      "$CG" blame --list-metrics --trace >"$B/list_metrics.log" 2>&1; echo "list-metrics exit status $?"
      grep -c "smsp__sass" "$B/list_metrics.log"
      for spec in "shared_banks.yaml:shared_banks/power_of_two_stride?stride=32:s32" \
                  "shared_banks.yaml:shared_banks/power_of_two_stride?stride=1:s1" \
                  "transpose.yaml:transpose/smem_unpadded?n=2048:unpadded" \
                  "transpose.yaml:transpose/smem_padded?n=2048:padded" \
                  "coalescing.yaml:coalescing/strided?stride=32:stride32" \
                  "coalescing.yaml:coalescing/strided?stride=1:stride1" \
                  "divergence.yaml:divergence/predicated_odd_even:predicated" \
                  "spills.yaml:spills/maxrreg32:spills"; do
        IFS=: read -r file case name <<<"$spec"
        "$CG" blame "cases/$file" --case "$case" --trace --record "$B/$name.json" --json "$B/$name.blame.json" \
          >"$B/$name.log" 2>&1; echo "blame $name exit status $?"
      done
      head -40 "$B/s32.log"
      for pair in s32:s1 unpadded:padded stride32:stride1; do
        after=${pair%%:*}; before=${pair#*:}
        "$CG" blame --from "$B/$after.json" --against "$B/$before.json" >"$B/diff_${after}_vs_${before}.txt" 2>&1
        echo "diff $after vs $before exit status $?"; grep -A4 -i "change" "$B/diff_${after}_vs_${before}.txt" | head -8
      done
      # Blame of an unchanged kernel is the same on a second run.
      "$CG" blame cases/transpose.yaml --case 'transpose/smem_unpadded?n=2048' --record "$B/unpadded_again.json" \
        >"$B/unpadded_again.log" 2>&1
      "$CG" blame --from "$B/unpadded_again.json" --against "$B/unpadded.json" >"$B/diff_unpadded_again.txt" 2>&1
      echo "second run against the first: exit status $?"; tail -3 "$B/diff_unpadded_again.txt"
      # ncu's per-source-line view of the same kernel (the oracle for the join).
      ncu --section SourceCounters --print-details all --kernel-name regex:smem_tile --launch-count 1 \
        "$CG" launch cases/transpose.yaml --filter 'transpose/smem_unpadded?n=2048' >"$B/ncu_source_unpadded.txt" 2>&1
      echo "ncu source counters exit status $?"
      ncu --page source --csv --print-source sass --kernel-name regex:smem_tile --launch-count 1 \
        --metrics smsp__sass_inst_executed,smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared,smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal \
        "$CG" launch cases/transpose.yaml --filter 'transpose/smem_unpadded?n=2048' >"$B/ncu_sass_unpadded.csv" 2>&1
      echo "ncu sass page exit status $?"; head -5 "$B/ncu_sass_unpadded.csv" | cut -c1-300
      ;;
    blame_planted)
      # each planted regression of validation/planted_regressions.py, blamed per source line.
      python3 validation/planted_blame.py --counterguard "$CG" --out "$OUT/blame_planted" \
        --report "$OUT/planted_blame.md" >"$OUT/planted_blame.log" 2>&1
      echo "planted blame exit status $?"; cat "$OUT/planted_blame.md"
      ;;
    run_blame)
      # per-line baselines of the built-in suite (baseline update --with-lines, twice into copies of
      # baselines/: equal bytes is the determinism check), then every planted regression gated by `run` with
      # its automatic blame against them, and one blamed run with every report.
      B=$OUT/run_blame; mkdir -p "$B/lines"
      "$CG" blame cases/transpose.yaml --case 'transpose/smem_padded?n=2048' --trace >"$B/blame_one.log" 2>&1
      echo "blame of one case exit status $?"; grep -iE "error|SetConfig" "$B/blame_one.log" | head -5
      "$CG" blame cases/transpose.yaml --case 'transpose/smem_padded*' --case 'transpose/naive*' --record-dir /tmp/rd \
        --quiet --trace >"$B/blame_record_dir.log" 2>&1
      echo "blame --record-dir exit status $?"; grep -iE "error|SetConfig" "$B/blame_record_dir.log" | head -5; ls /tmp/rd
      for attempt in 1 2; do
        rm -rf "/tmp/lines$attempt"; cp -r baselines "/tmp/lines$attempt"
        "${timer[@]}" "$CG" baseline update cases/ --baseline-dir "/tmp/lines$attempt" --repeat 1 --with-lines \
          >"$B/update$attempt.log" 2>&1
        echo "baseline update --with-lines ($attempt) exit status $?"
      done
      grep -E "per-line|Elapsed|Maximum resident" "$B/update1.log"
      for f in /tmp/lines1/*/*.lines.json; do
        cp "$f" "$B/lines/"
        if cmp -s "$f" "/tmp/lines2/${f#/tmp/lines1/}"; then echo "identical: ${f##*/}"; else echo "DIFFERENT: ${f##*/}"; fi
      done | tee "$B/determinism.txt"
      du -b /tmp/lines1/*/*.lines.json | tee "$B/sizes.txt"
      cp /tmp/lines1/*/*.lines.json baselines/*/  # this copy of the tree: what the planted runs compare with
      planted=(); [[ -x .device/planted/counterguard ]] && planted=(--planted-binary .device/planted/counterguard)
      python3 validation/planted_regressions.py --counterguard "$CG" "${planted[@]}" \
        --report "$B/planted_regressions.md" | tail -16
      python3 - <<'PY'
import yaml
data = yaml.safe_load(open("cases/transpose.yaml"))
for entry in data["cases"]:
    if entry["name"] == "smem_padded":
        entry["parameters"]["pad"] = 0
yaml.safe_dump(data, open("/tmp/planted_transpose.yaml", "w"), sort_keys=False)
PY
      "$CG" run /tmp/planted_transpose.yaml --filter 'transpose/smem_padded*' --json "$B/run.json" \
        --markdown "$B/run.md" --html "$B/run.html" --junit "$B/run_junit.xml" >"$B/run_console.txt" 2>&1
      echo "planted transpose run exit status $?"; tail -20 "$B/run_console.txt"
      "$CG" run /tmp/planted_transpose.yaml --filter 'transpose/smem_padded*' --no-blame --json "$B/run_no_blame.json" \
        >/dev/null 2>&1; echo "with --no-blame exit status $?"
      ;;
    ncu_lines)
      # blame per instruction against ncu's source page (SourceCounters), for the unpadded transpose
      # and the predicated divergence case.
      python3 validation/ncu_blame_crosscheck.py --counterguard "$CG" --suite cases/transpose.yaml \
        --case 'transpose/smem_unpadded?n=2048' --kernel smem_tile --out "$OUT/ncu_lines/transpose" | tail -14
      python3 validation/ncu_blame_crosscheck.py --counterguard "$CG" --suite cases/divergence.yaml \
        --case 'divergence/predicated_odd_even' --kernel predicated_odd_even --out "$OUT/ncu_lines/predicated" | tail -14
      ;;
    sass)
      # the instruction-to-line map with the real nvdisasm, on built-in kernels (the CPU machine has no
      # nvdisasm): text, JSON (a CPU fixture), and the statics tests that need nvdisasm.
      S=$OUT/sass; mkdir -p "$S"
      "$CG" sass --binary "$CG" --kernel smem_tile >"$S/smem_tile.txt" 2>&1; echo "sass smem_tile exit status $?"
      "$CG" sass --binary "$CG" --kernel smem_tile --json "$S/smem_tile.json" >/dev/null 2>&1; echo "sass --json exit status $?"
      "$CG" sass --binary "$CG" --kernel naive --lines-only >"$S/naive_lines.txt" 2>&1; echo "sass naive exit status $?"
      head -30 "$S/smem_tile.txt"; grep -A14 "per source line" "$S/smem_tile.txt"
      nvdisasm --version | tail -1 >"$S/nvdisasm_version.txt"
      ;;
    *)
      echo "unknown stage $stage"; exit 2 ;;
  esac
done
