#!/usr/bin/env bash
# The last device call of the session: start-up timelines, the same values, blame after a failure, the benchmark.
set -u
export COUNTERGUARD_GIT_COMMIT=$(cat .device/commit)
export PATH=$PATH:/usr/local/cuda/bin
CG=$PWD/.device/counterguard
V=$OUT/validation; mkdir -p "$V"
wall() { python3 -c "import time; print(f'{time.time() - $1:.2f}')"; }
OUT=$OUT/ev tools/h200_evidence.sh startup 2>&1 | grep -v "^timeline" | tail -12
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
echo "failing run with --blame exit $? $(wall $start) s" | tee -a "$V/walls.txt"; tail -4 "$V/blame.txt"
echo "=== benchmark"
"$CG" run cases/ --no-baselines --quiet --json "$V/builtin.json" >/dev/null 2>&1
python3 tools/benchmark_vs_ncu.py --counterguard "$CG" --builtin-results "$V/builtin.json" \
  --json "$V/benchmark.json" --markdown "$V/benchmark.md" 2>&1 | tail -14
gzip -9 "$V/builtin.json"
rm -f "$OUT/ev/evidence.tar.gz"
(cd "$OUT" && tar -czf /tmp/all.tar.gz . && mv /tmp/all.tar.gz "$OUT/all.tar.gz")
