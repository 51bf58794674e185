#!/usr/bin/env bash
# Runs on the GPU host (see evidence/h200/README.md): the evidence the issues ask for, written under $OUT.
# The binary comes built from the CPU machine (tools/stage_for_gpu.sh -> .device/).
# Usage: tools/h200_evidence.sh STAGE...
#   stages: info run crosscheck baseline repeat planted faults sanitize benchmark timing (evidence/h200/README.md)
#           configurations floor stages environment contexts switch windows api per_case per_case_cost sharing
#           startup
#           (issue 12)
#           extras lock signals noise example (issues 9, 11, 15: evidence/h200/README.md)
#           predication sass blame blame_planted run_blame ncu_lines (issue 14), history_pool (issue 11)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-/tmp/counterguard-out}
mkdir -p "$OUT"
CG=$PWD/.device/counterguard
if [[ -z "${COUNTERGUARD_GIT_COMMIT:-}" && -s .device/commit ]]; then
  COUNTERGUARD_GIT_COMMIT=$(cat .device/commit)  # what tools/stage_for_gpu.sh built from
  export COUNTERGUARD_GIT_COMMIT
fi
timer=()
[[ -x /usr/bin/time ]] && timer=(/usr/bin/time -v)
export PATH=$PATH:/usr/local/cuda/bin

# The device tool brings back at most 8 files: everything is packed into one archive at the end.
pack() {
  (cd "$OUT" && tar -czf /tmp/evidence.tar.gz --exclude evidence.tar.gz . && mv /tmp/evidence.tar.gz "$OUT/")
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
      python3 tools/timing_summary.py "$OUT/timing_builtin.txt"
      ;;
    configurations)
      # Issue 12: the profiler configurations a worker shares between cases (COUNTERGUARD_PROFILER_CONFIGURATIONS),
      # the built-in suite gated against the committed baselines, alternating modes twice; values must agree.
      C=$OUT/configurations; mkdir -p "$C"
      gated_rounds "$C" per_case shared no_extra_passes
      python3 tools/timing_summary.py "$C"/per_case1.timing "$C"/shared1.timing "$C"/no_extra_passes1.timing | tee "$C/summary.txt"
      grep -hE '^timing (profiler configurations|configuration=)' "$C"/shared1.timing | tee -a "$C/summary.txt"
      for mode in shared no_extra_passes; do
        python3 tools/same_results.py "$C/per_case1.json" "$C/${mode}1.json" >"$C/same_$mode.txt" 2>&1
        echo "same results per_case vs $mode: exit status $?"; tail -2 "$C/same_$mode.txt"
      done
      "$CG" run cases/ --no-baselines --quiet --save-counter-data /tmp/cfg_rec --json /tmp/cfg_rec.json
      "$CG" evaluate /tmp/cfg_rec --no-baselines --quiet --json /tmp/cfg_eval.json
      python3 tools/same_results.py /tmp/cfg_rec.json /tmp/cfg_eval.json >"$C/same_evaluate.txt" 2>&1
      echo "recorded vs evaluated offline: exit status $?"; du -sh /tmp/cfg_rec | tee -a "$C/summary.txt"
      ;;
    stages)
      # Issue 12: sharing configurations by hardware counter stage (the default) against no_extra_passes, the
      # built-in suite gated twice each, alternating; the whole run's timeline (COUNTERGUARD_TIMING) and
      # `launch` alone; exact values must agree between the modes and with an offline evaluation.
      S=$OUT/stages; mkdir -p "$S"
      "$CG" plan cases/ >"$S/plan.txt"; head -1 "$S/plan.txt"
      gated_rounds "$S" no_extra_passes hardware_stages
      start=$(date +%s.%N)
      COUNTERGUARD_TIMING=1 "$CG" launch cases/ >/dev/null 2>"$S/launch.timing"
      echo "launch only: exit status $?, $(python3 -c "import time; print(f'{time.time() - $start:.2f}')") s wall" | tee -a "$S/walls.txt"
      python3 tools/timing_summary.py "$S"/no_extra_passes2.timing "$S"/hardware_stages2.timing "$S"/launch.timing | tee "$S/summary.txt"
      python3 tools/same_results.py "$S/no_extra_passes1.json" "$S/hardware_stages1.json" >"$S/same_modes.txt" 2>&1
      echo "same results no_extra_passes vs hardware_stages: exit status $?"; tail -2 "$S/same_modes.txt"
      "$CG" run cases/ --no-baselines --quiet --save-counter-data /tmp/st_rec --json /tmp/st_rec.json
      "$CG" evaluate /tmp/st_rec --no-baselines --quiet --json /tmp/st_eval.json
      python3 tools/same_results.py /tmp/st_rec.json /tmp/st_eval.json >"$S/same_evaluate.txt" 2>&1
      echo "recorded vs evaluated offline: exit status $?"
      gzip -9 "$S"/*.timing
      ;;
    api)
      # Issue 12: CUPTI's session API (one session across configurations, the default) against the range
      # profiler (an Enable per configuration), the built-in suite gated twice each, alternating; exact values
      # must agree between the two, with an offline evaluation of a session-API recording, and with the
      # previous commit's results when given (PREVIOUS_RESULTS).
      A=$OUT/api; mkdir -p "$A"
      gated_rounds "$A" COUNTERGUARD_PROFILER_API range session
      python3 tools/timing_summary.py "$A"/range2.timing "$A"/session2.timing | tee "$A/summary.txt"
      python3 tools/same_results.py "$A/range1.json" "$A/session1.json" >"$A/same_apis.txt" 2>&1
      echo "same results range vs session: exit status $?"; tail -2 "$A/same_apis.txt"
      python3 tools/same_results.py "$A/session1.json" "$A/session2.json" >"$A/same_sessions.txt" 2>&1
      echo "same results session round 1 vs 2: exit status $?"; tail -2 "$A/same_sessions.txt"
      if [[ -n "${PREVIOUS_RESULTS:-}" ]]; then
        python3 tools/same_results.py "$PREVIOUS_RESULTS" "$A/session1.json" >"$A/same_as_previous.txt" 2>&1
        echo "same results as $PREVIOUS_RESULTS: exit status $?"; tail -2 "$A/same_as_previous.txt"
      fi
      "$CG" run cases/ --no-baselines --quiet --save-counter-data /tmp/api_rec --json /tmp/api_rec.json
      "$CG" evaluate /tmp/api_rec --no-baselines --quiet --json /tmp/api_eval.json
      python3 tools/same_results.py /tmp/api_rec.json /tmp/api_eval.json >"$A/same_evaluate.txt" 2>&1
      echo "session-API recording vs evaluated offline: exit status $?"; du -sh /tmp/api_rec | tee -a "$A/summary.txt"
      gzip -9 "$A"/*.timing
      ;;
    sharing)
      # Issue 12: with one profiling session a configuration switch costs almost nothing, so is sharing
      # configurations still worth its extra counters? The built-in suite gated twice in each sharing mode.
      H=$OUT/sharing; mkdir -p "$H"
      gated_rounds "$H" per_case hardware_stages no_extra_passes
      python3 tools/timing_summary.py "$H"/per_case2.timing "$H"/hardware_stages2.timing "$H"/no_extra_passes2.timing | tee "$H/summary.txt"
      python3 tools/same_results.py "$H/hardware_stages1.json" "$H/per_case1.json" >"$H/same_modes.txt" 2>&1
      echo "same results hardware_stages vs per_case: exit status $?"; tail -2 "$H/same_modes.txt"
      rm -f "$H"/*.json; gzip -9 "$H"/*.timing
      ;;
    per_case)
      # Issue 12: where the per-case cost of the benchmark's generated cases goes (320 of them, as
      # tools/benchmark_vs_ncu.py writes them): each API's run with COUNTERGUARD_TIMING, and `launch` alone.
      P=$OUT/per_case; mkdir -p "$P"
      python3 -c "import sys; sys.path.insert(0, 'tools'); from benchmark_vs_ncu import write_suite; write_suite('/tmp/generated320.yaml', 320)"
      for api in session range; do
        start=$(date +%s.%N)
        COUNTERGUARD_PROFILER_API=$api COUNTERGUARD_TIMING=1 "$CG" run /tmp/generated320.yaml --no-baselines --quiet \
          --json "$P/$api.json" 2>"$P/$api.timing"
        echo "$api: exit status $?, $(python3 -c "import time; print(f'{time.time() - $start:.2f}')") s wall" | tee -a "$P/walls.txt"
      done
      start=$(date +%s.%N)
      COUNTERGUARD_TIMING=1 "$CG" launch /tmp/generated320.yaml >/dev/null 2>"$P/launch.timing"
      echo "launch: exit status $?, $(python3 -c "import time; print(f'{time.time() - $start:.2f}')") s wall" | tee -a "$P/walls.txt"
      python3 tools/timing_summary.py "$P"/session.timing "$P"/range.timing "$P"/launch.timing | tee "$P/summary.txt"
      rm -f "$P"/*.json; gzip -9 "$P"/*.timing
      ;;
    per_case_cost)
      # Issue 12: one benchmark-like case step by step, without CUPTI and inside the profiling session, buffers
      # allocated per case and reused (harness/test/device/per_case_cost_experiment.cu); then the generated
      # suites of 5, 80 and 320 cases with COUNTERGUARD_TIMING (every phase of a case in the worker).
      C=$OUT/per_case_cost; mkdir -p "$C"
      # Under memcheck only the part without CUPTI runs (the profiler refuses a process under compute-sanitizer).
      LD_LIBRARY_PATH=$PWD/.device/lib compute-sanitizer --tool memcheck --error-exitcode 9 \
        .device/tests/per_case_cost_experiment 2 >"$C/memcheck.txt" 2>&1
      echo "per_case_cost_experiment under memcheck: exit status $?"; tail -3 "$C/memcheck.txt"
      LD_LIBRARY_PATH=$PWD/.device/lib .device/tests/per_case_cost_experiment >"$C/experiment.txt" 2>&1
      echo "per_case_cost_experiment exit status $?"; cat "$C/experiment.txt"
      for size in 5 80 320; do
        python3 -c "import sys; sys.path.insert(0, 'tools'); from benchmark_vs_ncu import write_suite; write_suite('/tmp/generated$size.yaml', $size)"
        start=$(date +%s.%N)
        COUNTERGUARD_TIMING=1 "$CG" run "/tmp/generated$size.yaml" --no-baselines --quiet --json "$C/g$size.json" \
          2>"$C/g$size.timing"
        echo "g$size: exit status $?, $(python3 -c "import time; print(f'{time.time() - $start:.2f}')") s wall" | tee -a "$C/walls.txt"
        python3 tools/timing_summary.py "$C/g$size.timing" | tee -a "$C/summary.txt"
      done
      rm -f "$C"/*.json; gzip -9 "$C"/*.timing
      ;;
    startup)
      # Issue 12: what comes before the first case, step by step (COUNTERGUARD_TIMING marks in the parent and
      # the worker): the gated built-in suite with --device 0 and with --devices all (the queue of
      # multi_device_runner, one GPU here), three rounds alternating; then one case alone, where start-up is
      # nearly all of the run.
      S=$OUT/startup; mkdir -p "$S"
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
      # The worker's CUPTI start-up alone, one mode per process (harness/test/device/startup_experiment.cu):
      # the counter-availability query as the worker makes it, left out, cuptiProfilerInitialize before the
      # context, the query on a thread; the modes alternating within each round.
      for round in 1 2 3; do
        for mode in availability no_availability init_before_context availability_thread; do
          echo "== $mode round $round" >>"$S/experiment.txt"
          LD_LIBRARY_PATH=$PWD/.device/lib .device/tests/startup_experiment "$mode" >>"$S/experiment.txt" 2>&1
        done
      done
      cat "$S/experiment.txt"
      for f in "$S"/*.timing; do grep '^timeline' "$f" >"${f%.timing}.timeline"; done
      head -60 "$S/device1.timeline" "$S/devices1.timeline" "$S/one1.timeline"
      gzip -9 "$S"/*.json "$S"/*.timing
      ;;
    environment)
      # Issue 12: where the host work of a case goes, by the environment alone: the built-in suite (ungated) with
      # glibc's allocator told never to return memory to the system (no fresh page faults for each case's
      # host vectors), with transparent huge pages for it, and with every module loaded at context creation.
      E=$OUT/environment; mkdir -p "$E"
      keep="glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=68719476736:glibc.malloc.top_pad=268435456"
      for round in 1 2; do
        for variant in default keep_memory keep_memory_hugetlb eager_modules; do
          envs=()
          case $variant in
            keep_memory) envs=("GLIBC_TUNABLES=$keep") ;;
            keep_memory_hugetlb) envs=("GLIBC_TUNABLES=$keep:glibc.malloc.hugetlb=1") ;;
            eager_modules) envs=(CUDA_MODULE_LOADING=EAGER) ;;
          esac
          start=$(date +%s.%N)
          env "${envs[@]}" COUNTERGUARD_TIMING=1 "$CG" run cases/ --quiet --no-baselines \
            --json "$E/$variant$round.json" 2>"$E/$variant$round.timing"
          status=$?
          echo "$variant round $round: exit status $status, $(python3 -c "import time; print(f'{time.time() - $start:.2f}')") s wall" | tee -a "$E/walls.txt"
        done
      done
      for variant in default keep_memory keep_memory_hugetlb eager_modules; do
        python3 tools/timing_summary.py "$E/${variant}2.timing" | head -1 | tee -a "$E/summary.txt"
        python3 tools/same_results.py "$E/default1.json" "$E/${variant}2.json" | tail -1
      done
      gzip -9 "$E"/*.timing; rm -f "$E"/*.json
      ;;
    contexts)
      # Issue 12: where the first capture after a range profiler's Enable spends its time, and a CUDA context
      # per configuration (harness/test/device/profiler_contexts_experiment.cu).
      mkdir -p "$OUT/contexts"
      LD_LIBRARY_PATH=$PWD/.device/lib .device/tests/profiler_contexts_experiment >"$OUT/contexts/experiment.txt" 2>&1
      echo "profiler_contexts_experiment exit status $?"; cat "$OUT/contexts/experiment.txt"
      ;;
    switch)
      # Issue 12: the first capture after an Enable by replay mode and allocated memory, on the CPU or waiting,
      # and the session API's configuration switches (harness/test/device/profiler_switch_experiment.cu).
      mkdir -p "$OUT/switch"
      LD_LIBRARY_PATH=$PWD/.device/lib .device/tests/profiler_switch_experiment >"$OUT/switch/experiment.txt" 2>&1
      echo "profiler_switch_experiment exit status $?"; cat "$OUT/switch/experiment.txt"
      # Which configuration switches inside one session survive (A, D: instrumented counters only; B, C:
      # hardware counters only; E: both); exit status 139 is a crash inside CUPTI.
      for order in AA AB AC EB CAC BA CA BC CB AD DA EA AE BE BCADEA; do
        LD_LIBRARY_PATH=$PWD/.device/lib timeout 60 .device/tests/profiler_switch_experiment one "$order" \
          >>"$OUT/switch/orders.txt" 2>&1
        echo "one session, order $order: exit status $?" | tee -a "$OUT/switch/orders.txt"
      done
      ;;
    windows)
      # Issue 12: is a capture's cost per launch or per Start/Stop window (1, 4, 16 launches in one window), in
      # kernel and user replay, for instrumented and hardware counters (profiler_switch_experiment windows).
      mkdir -p "$OUT/switch"
      LD_LIBRARY_PATH=$PWD/.device/lib timeout 300 .device/tests/profiler_switch_experiment windows \
        >"$OUT/switch/windows.txt" 2>&1
      echo "profiler_switch_experiment windows exit status $?"; cat "$OUT/switch/windows.txt"
      ;;
    floor)
      # Issue 12: inputs filled on the GPU equal the CPU's (every fill kind and element type), and the host
      # work's parallel chunks on this host's cores (evidence/host_work).
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
    extras)
      # One measurement path: a run asked for metrics beyond its expectations, recorded, then evaluated
      # offline; every value the run reported must come back from the counter data (issue 15).
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
      # Two runs on one GPU at the same time: the second waits for the first instead of failing (issue 15).
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
      # The noise model's false-alarm rate and power on the H200 (issue 11).
      tools/noise_stress/run_false_alarm_check.sh .device "$OUT/noise" | tail -30
      (cd "$OUT" && tar -czf noise.tar.gz noise && rm -rf noise)
      ;;
    predication)
      # Issue 14: predicated-off lanes. The divergence suite with counter data kept (a CPU fixture), its new
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
      # The example user project (issue 9): its cases, its baselines, its GoogleTest tests, ncu on its kernels,
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
      (cd "$EX" && python3 "$OLDPWD/tools/ncu_crosscheck.py" --counterguard "$ER/reduction_stencil_counterguard" \
        --results "$OUT/example_run.json" --cases counterguard --kernel-regex '^reduction_stencil::' \
        --report "$OUT/example_ncu_crosscheck.md" | tail -8)
      tar -C "$OUT" -czf "$OUT/example_recording.tar.gz" example_recording example_baselines
      rm -rf "$OUT/example_recording" "$OUT/example_baselines"
      ;;
    history_pool)
      # Issue 11: bands pooled from the run history, and the no-churn rule. A refresh recorded in a history, three
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
      # Issue 14: per-instruction counters (CUPTI SASS metrics) joined to source lines; before/after of the
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
      # Issue 14: each planted regression of tools/planted_regressions.py, blamed per source line.
      python3 tools/planted_blame.py --counterguard "$CG" --out "$OUT/blame_planted" \
        --report "$OUT/planted_blame.md" >"$OUT/planted_blame.log" 2>&1
      echo "planted blame exit status $?"; cat "$OUT/planted_blame.md"
      ;;
    run_blame)
      # Issue 14: per-line baselines of the built-in suite (baseline update --with-lines, twice into copies of
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
      python3 tools/planted_regressions.py --counterguard "$CG" "${planted[@]}" \
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
      # Issue 14: blame per instruction against ncu's source page (SourceCounters), for the unpadded transpose
      # and the predicated divergence case.
      python3 tools/ncu_blame_crosscheck.py --counterguard "$CG" --suite cases/transpose.yaml \
        --case 'transpose/smem_unpadded?n=2048' --kernel smem_tile --out "$OUT/ncu_lines/transpose" | tail -14
      python3 tools/ncu_blame_crosscheck.py --counterguard "$CG" --suite cases/divergence.yaml \
        --case 'divergence/predicated_odd_even' --kernel predicated_odd_even --out "$OUT/ncu_lines/predicated" | tail -14
      ;;
    sass)
      # Issue 14: the instruction-to-line map with the real nvdisasm, on built-in kernels (the CPU machine has no
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
