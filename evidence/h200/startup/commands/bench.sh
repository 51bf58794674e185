#!/usr/bin/env bash
# The benchmark with its peak resident set counting the worker that finishes exiting after `run` returns.
set -u
export COUNTERGUARD_GIT_COMMIT=$(cat .device/commit)
export PATH=$PATH:/usr/local/cuda/bin
CG=$PWD/.device/counterguard
V=$OUT/benchmark; mkdir -p "$V"
"$CG" run cases/ --no-baselines --quiet --json "$V/builtin.json" >/dev/null 2>&1
python3 tools/benchmark_vs_ncu.py --counterguard "$CG" --builtin-results "$V/builtin.json" \
  --json "$V/benchmark.json" --markdown "$V/benchmark.md" 2>&1 | tail -14
python3 tools/same_results.py --ignore-baseline-checks <(zcat evidence/h200/session_api/final_b987fac/gated1.json.gz) "$V/builtin.json" | tail -1
gzip -9 "$V/builtin.json"
