#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Blame through inlined code (issue 30, docs/blame.md): regressions planted in a header of a project
# (validation/blame_inline/), in cooperative groups' reduction and in the toolkit's atomicAdd, each blamed by
# `counterguard run` on the line that calls the inlined code, cross-checked with nvdisasm -gi's inline frames
# and ncu's source page.
#
#   validation/blame_inline.sh build   # CPU machine, after build/ is built: installs counterguard into a prefix,
#                                      # builds the project twice (unplanted, planted) against it and puts the
#                                      # two runners into build/blame_inline/device (carry that folder)
#   validation/blame_inline.sh gpu     # GPU host: baselines of the unplanted build (with per-line baselines),
#                                      # the planted build gated against them, blame --against, sass chains,
#                                      # nvdisasm -gi, ncu; everything under $OUT as blame_inline.tar.gz and a
#                                      # summary (validation/blame_inline/summarize.py) on stdout
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
DEVICE=build/blame_inline/device
SUITE=validation/blame_inline/blame_inline.yaml

build() {
  set -e
  local prefix=build/blame_inline/prefix
  rm -rf build/blame_inline
  cmake --install build --prefix "$prefix" >/dev/null
  for variant in base planted; do
    local plant=OFF
    [[ $variant == planted ]] && plant=ON
    cmake -S validation/blame_inline -B "build/blame_inline/$variant" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc -DCMAKE_PREFIX_PATH="$PWD/$prefix" \
      -DBLAME_INLINE_PLANT=$plant >/dev/null
    cmake --build "build/blame_inline/$variant"
    mkdir -p "$DEVICE/$variant"
    cp "build/blame_inline/$variant/blame_inline_counterguard" "$DEVICE/$variant/"
  done
  # Both runners load the same installed libraries: carried once, copied next to the planted one on the GPU host.
  mkdir -p "$DEVICE/base/lib"
  cp -L build/blame_inline/base/lib/*.so* "$DEVICE/base/lib/"
  du -sh "$DEVICE"
}

gpu() {
  local out=${OUT:-/tmp/counterguard-out}
  local work=$out/blame_inline
  local base=$PWD/$DEVICE/base/blame_inline_counterguard
  local planted=$PWD/$DEVICE/planted/blame_inline_counterguard
  mkdir -p "$work"
  [[ -d $DEVICE/planted/lib ]] || cp -r "$DEVICE/base/lib" "$DEVICE/planted/lib"
  export PATH=$PATH:/usr/local/cuda/bin
  # Expanded now: the function's locals are gone when the shell exits.
  # shellcheck disable=SC2064
  trap "tar -czf '$out/blame_inline.tar.gz' -C '$out' blame_inline" EXIT
  {
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    ncu --version | tail -1
    nvdisasm --version | tail -1
    "$planted" --version
  } >"$work/versions.txt" 2>&1
  cat "$work/versions.txt"
  cp -r validation/blame_inline "$work/project"

  # The unplanted build's baselines, with the per-line baselines run compares a regressed case's blame with.
  "$base" baseline update "$SUITE" --baseline-dir "$work/baselines" --repeat 1 --with-lines \
    >"$work/baseline_update.log" 2>&1
  echo "baseline update --with-lines (unplanted) exit status $?"
  "$base" run "$SUITE" --baseline-dir "$work/baselines" --json "$work/base_run.json" >"$work/base_run.txt" 2>&1
  echo "run (unplanted) against its baselines exit status $? (0: the baselines hold)"
  # The planted build gated against them: every case regresses and `run` blames it itself.
  "$planted" run "$SUITE" --baseline-dir "$work/baselines" --json "$work/planted_run.json" \
    --markdown "$work/planted_run.md" --html "$work/planted_run.html" --junit "$work/planted_run.xml" \
    >"$work/planted_run.txt" 2>&1
  echo "run (planted) exit status $? (1: regressions)"
  sed -n '/source lines of/,/^$/p' "$work/planted_run.txt"

  local case kernel
  for spec in helper_gather:scale_gathered group_sum:tile_sums count_events:count_events; do
    case=${spec%%:*}
    kernel=${spec#*:}
    # Per instruction, both builds: blame's own before/after (each profile joined to its own binary).
    "$base" blame "$SUITE" --case "blame_inline/$case" --record "$work/base_$case.json" --quiet \
      >"$work/blame_base_$case.log" 2>&1
    "$planted" blame "$SUITE" --case "blame_inline/$case" --record "$work/planted_$case.json" \
      >"$work/blame_planted_$case.log" 2>&1
    "$planted" blame --from "$work/planted_$case.json" --against "$work/base_$case.json" --top 0 \
      --json "$work/diff_$case.json" >"$work/diff_$case.txt" 2>&1
    echo "blame $case: planted against unplanted exit status $?"
    # The inline chains counterguard reads for every instruction of the planted kernel.
    "$planted" sass --binary "$planted" --kernel "$kernel" --json "$work/sass_$kernel.json" \
      >"$work/sass_$kernel.txt" 2>&1
    # ncu's source page of the same launch: per instruction (SASS), per CUDA source line, and both together
    # (the view that shows the CUDA lines with their SASS, inlined code included).
    for view in sass cuda cuda,sass; do
      ncu --section SourceCounters --page source --print-source "$view" --csv --clock-control none \
        --kernel-name "regex:$kernel" --launch-count 1 \
        "$planted" launch "$SUITE" --filter "blame_inline/$case" >"$work/ncu_${case}_${view/,/_}.csv" 2>&1
      echo "ncu source page ($view) of $case exit status $?"
    done
  done
  # nvdisasm's own inline frames (-gi) for every cubin of the planted runner.
  mkdir -p "$work/cubins"
  (cd "$work/cubins" && cuobjdump -xelf all "$planted" >/dev/null 2>&1)
  for cubin in "$work"/cubins/*.cubin; do
    [[ -e $cubin ]] || continue
    nvdisasm -gi -c "$cubin" 2>&1 || true
  done >"$work/nvdisasm_gi.txt"
  rm -rf "$work/cubins"
  python3 validation/blame_inline/summarize.py "$work"
}

case "${1:-}" in
  build) build ;;
  gpu) gpu ;;
  *)
    echo "usage: $0 build|gpu" >&2
    exit 2
    ;;
esac
