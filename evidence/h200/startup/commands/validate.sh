#!/usr/bin/env bash
# One device call: start-up timelines, same values, baselines, blame, exec, the example project, fault
# isolation, device tests, the benchmark. Everything lands under $OUT, packed at the end.
set -u
export COUNTERGUARD_GIT_COMMIT=$(cat .device/commit)
export PATH=$PATH:/usr/local/cuda/bin
CG=$PWD/.device/counterguard
V=$OUT/validation; mkdir -p "$V"
wall() { python3 -c "import time; print(f'{time.time() - $1:.2f}')"; }
OUT=$OUT/ev tools/h200_evidence.sh startup floor faults 2>&1 | tail -60
echo "=== same values"
for f in device1 device2 devices1 devices2; do
  python3 tools/same_results.py evidence/h200/session_api/final_b987fac/gated1.json.gz "$OUT/ev/startup/$f.json.gz" 2>&1 | tail -2
done | tee "$V/same_as_b987fac.txt"
echo "=== baseline update and a gated run against it"
start=$(date +%s.%N)
"$CG" baseline update cases/coalescing.yaml cases/spills.yaml --repeat 3 --baseline-dir "$V/bl" >"$V/baseline_update.txt" 2>&1
echo "baseline update exit $? $(wall $start) s" | tee -a "$V/walls.txt"
"$CG" run cases/coalescing.yaml cases/spills.yaml --baseline-dir "$V/bl" --quiet >"$V/baseline_run.txt" 2>&1
echo "run against it exit $?" | tee -a "$V/walls.txt"
ls "$V/bl"/*/ | head; tail -3 "$V/baseline_run.txt"
echo "=== two runs on one GPU at once: the second waits for the lock the first one's worker holds"
start=$(date +%s.%N)
"$CG" run cases/matmul.yaml --quiet >"$V/lock_first.txt" 2>&1 &
first=$!
sleep 0.3
"$CG" run cases/coalescing.yaml >"$V/lock_second.txt" 2>&1
echo "second run exit $?" | tee -a "$V/walls.txt"
wait $first; echo "first run exit $? (both in $(wall $start) s)" | tee -a "$V/walls.txt"
grep -h "waiting\|held" "$V/lock_first.txt" "$V/lock_second.txt" | head -3
echo "=== an unknown raw metric with a GPU: the worker refuses it"
cat >/tmp/typo.yaml <<'YAML'
suite: typo
cases:
  - name: x
    kernel: coalescing/vec_add
    expect:
      l1tex__t_sectors_pipe_lsu_mem_global_op_ldd.sum: {min: 0}
YAML
"$CG" run /tmp/typo.yaml >"$V/typo.txt" 2>&1; echo "typo run exit $?" | tee -a "$V/walls.txt"; cat "$V/typo.txt"
echo "=== blame after a failed case"
cat >/tmp/failing.yaml <<'YAML'
suite: failing
cases:
  - name: contiguous
    kernel: coalescing/vec_add
    parameters: {n: 4194304}
    expect:
      global_load_sectors_per_request: 5
YAML
start=$(date +%s.%N)
"$CG" run /tmp/failing.yaml --no-baselines --blame --markdown "$V/blame.md" >"$V/blame.txt" 2>&1
echo "failing run with --blame exit $? $(wall $start) s" | tee -a "$V/walls.txt"; tail -5 "$V/blame.txt"
echo "=== exec"
OUT=$OUT/exec tools/exec_evidence.sh launch 2>&1 | tail -8
echo "=== example"
(cd examples/reduction_stencil && ../../.device/example/reduction_stencil_counterguard run counterguard/ --quiet) >"$V/example_gated.txt" 2>&1
echo "example gated exit $?" | tee -a "$V/walls.txt"; tail -2 "$V/example_gated.txt"
.device/example/reduction_stencil_tests >"$V/example_gtest.txt" 2>&1
echo "example gtest exit $?" | tee -a "$V/walls.txt"; tail -2 "$V/example_gtest.txt"
echo "=== benchmark"
"$CG" run cases/ --no-baselines --quiet --json "$V/builtin.json" >/dev/null 2>&1
python3 tools/benchmark_vs_ncu.py --counterguard "$CG" --builtin-results "$V/builtin.json" \
  --json "$V/benchmark.json" --markdown "$V/benchmark.md" 2>&1 | tail -20
gzip -9 "$V/builtin.json"
rm -f "$OUT/ev/evidence.tar.gz"
(cd "$OUT" && tar -czf /tmp/all.tar.gz . && mv /tmp/all.tar.gz "$OUT/all.tar.gz")
