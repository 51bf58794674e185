#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs on a GPU host: `exec --blame` and `baseline update --with-lines -- PROGRAM` on two planted regressions,
# each compared with ncu's source page: mathlib's transpose without its tile's padding (a shared-memory bank
# conflict in a C++ GoogleTest binary, validation/exec_programs/mathlib, built with -lineinfo) and a Triton
# kernel whose load reads every second element (validation/exec_blame/triton_strided.py, STRIDE=2). For each:
# per-line baselines of the unplanted program, the planted one gated against them with --blame (JSON and
# Markdown reports), and ncu's source page of the planted kernel (--page source --csv, SASS with its source
# lines). Needs a staged counterguard (STAGE, default .device: tools/stage_for_gpu.sh) and the programs
# validation/exec_programs/build.sh built (PROGRAMS, a folder). Results under $OUT,
# packed into $OUT/exec_blame.tar.gz.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
FINAL_OUT=${OUT:-/tmp/counterguard-exec-blame-out}
OUT=$FINAL_OUT/exec_blame
mkdir -p "$OUT"
export PATH=$PATH:/usr/local/cuda/bin
STAGE=$(cd "${STAGE:-.device}" && pwd)
CG=$STAGE/counterguard
BUILD=$(mktemp -d)
HERE=$PWD/validation

pack() { tar -czf "$FINAL_OUT/exec_blame.tar.gz" -C "$FINAL_OUT" exec_blame; cp "$OUT/statuses.txt" "$FINAL_OUT/" 2>/dev/null; return 0; }
trap pack EXIT
trap "exit 124" TERM

record() {
  local name=$1
  shift
  local start status
  start=$(date +%s%N)
  "$@" >"$OUT/$name.log" 2>&1
  status=$?
  printf '%-28s exit %3d  %6d ms  %s\n' "$name" "$status" $((($(date +%s%N) - start) / 1000000)) "$*" | tee -a "$OUT/statuses.txt"
  return 0
}

# The mathlib test binary, unplanted and planted, with line tables (as ncu's source page needs them too): built
# by validation/exec_programs/build.sh into PROGRAMS (the GPU host has no GoogleTest to build it with).
PROGRAMS=$(cd "${PROGRAMS:?PROGRAMS: the folder validation/exec_programs/build.sh wrote}" && pwd)
mkdir -p "$BUILD/mathlib_OFF" "$BUILD/mathlib_ON"
cp "$PROGRAMS/mathlib_tests" "$BUILD/mathlib_OFF/mathlib_tests"
cp "$PROGRAMS/mathlib_tests_small_tile" "$BUILD/mathlib_ON/mathlib_tests"
SUITE=$HERE/exec_programs/recorded/mathlib.yaml
record mathlib_lines "$CG" baseline update "$SUITE" --repeat 1 --with-lines --baseline-dir "$OUT/baselines" \
  -- "$BUILD/mathlib_OFF/mathlib_tests"
record mathlib_blame "$CG" exec "$SUITE" --blame --baseline-dir "$OUT/baselines" --json "$OUT/mathlib_blame.json" \
  --markdown "$OUT/mathlib_blame.md" -- "$BUILD/mathlib_ON/mathlib_tests"
record mathlib_ncu_csv ncu --section SourceCounters --page source --print-source sass,cuda --csv \
  --kernel-name regex:transpose_tiled --launch-count 1 "$BUILD/mathlib_ON/mathlib_tests"
cp "$OUT/mathlib_ncu_csv.log" "$OUT/mathlib_ncu_source.csv"

# The Triton kernel, unplanted and planted.
TSUITE=$HERE/exec_blame/triton.yaml
record triton_lines "$CG" baseline update "$TSUITE" --repeat 1 --with-lines --baseline-dir "$OUT/baselines" \
  -- python3 "$HERE/exec_blame/triton_strided.py"
record triton_blame env STRIDE=2 "$CG" exec "$TSUITE" --blame --baseline-dir "$OUT/baselines" \
  --json "$OUT/triton_blame.json" --markdown "$OUT/triton_blame.md" -- python3 "$HERE/exec_blame/triton_strided.py"
record triton_ncu_csv env STRIDE=2 ncu --section SourceCounters --page source --print-source sass,cuda --csv \
  --kernel-name regex:strided_add --launch-count 1 python3 "$HERE/exec_blame/triton_strided.py"
cp "$OUT/triton_ncu_csv.log" "$OUT/triton_ncu_source.csv"
# The injection's own account of one blame pass (CRC matching, what CUPTI reported), for the record.
record triton_trace env STRIDE=2 COUNTERGUARD_INJECTION_TRACE=1 "$CG" exec "$TSUITE" --blame --no-baselines \
  -- python3 "$HERE/exec_blame/triton_strided.py"
# Each blamed line against ncu's source page of the same launch (the first of each planted kernel).
record mathlib_vs_ncu python3 "$HERE/exec_blame_vs_ncu.py" "$OUT/mathlib_blame.json" "$OUT/mathlib_ncu_source.csv" \
  --report "$OUT/mathlib_vs_ncu.md"
record triton_vs_ncu python3 "$HERE/exec_blame_vs_ncu.py" "$OUT/triton_blame.json" "$OUT/triton_ncu_source.csv" \
  --report "$OUT/triton_vs_ncu.md"
cat "$OUT/mathlib_vs_ncu.md" "$OUT/triton_vs_ncu.md" >"$FINAL_OUT/exec_blame_vs_ncu.md" 2>/dev/null
