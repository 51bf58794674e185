#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the programs of validation/exec_programs into DIR, as their authors build them, on a machine with nvcc
# and GoogleTest (the GPU host has no GoogleTest: build here and carry DIR):
#   mathlib_tests, mathlib_tests_small_tile   the GoogleTest binary, with and without the tile's padding
#   bench, bench_spill                        the benchmark, the second with -maxrregcount=24
#   add_autotune.py                           the PyTorch + Triton script
# Both mathlib builds carry line tables (-lineinfo: ncu's source page and `exec --blame` read them; the machine
# code is the same). The folder validation/exec_lifecycle.sh, exec_programs_vs_ncu.sh and exec_blame.sh take.
#   validation/exec_programs/build.sh DIR
set -euo pipefail
[[ $# -eq 1 ]] || { sed -n '3,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$1"
out=$(realpath "$1")
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
for plant in OFF ON; do
  cmake -S "$here/mathlib" -B "$build/mathlib_$plant" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_FLAGS=-lineinfo \
    -DMATHLIB_SMALL_TILE=$plant >/dev/null
  cmake --build "$build/mathlib_$plant" >/dev/null
done
cp "$build/mathlib_OFF/mathlib_tests" "$out/mathlib_tests"
cp "$build/mathlib_ON/mathlib_tests" "$out/mathlib_tests_small_tile"
make -s -C "$here/bench" OUT="$out/bench" >/dev/null
make -s -B -C "$here/bench" OUT="$out/bench_spill" MAXRREG=24 >/dev/null
cp "$here/triton_add/add_autotune.py" "$out/"
ls -l "$out"
