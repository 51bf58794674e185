#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The three programs of validation/exec_programs (a GoogleTest binary, a command-line benchmark, a PyTorch +
# Triton script), each under `counterguard exec` with its committed recorded suite (validation/exec_programs/
# recorded/) and under Nsight Compute with the same selection (the kernel by its mangled name, its launch ordinal,
# its NVTX range) and the same raw counters: every exact value compared (exec_vs_ncu.py crosscheck, the selections
# from exec_programs_vs_ncu.py). Writes OUT/exec_programs_vs_ncu/ (per program: exec.json, selections.json,
# report.md, logs), OUT/exec_programs_vs_ncu.md (the summary) and OUT/exec_programs_vs_ncu.tar.gz.
#   validation/exec_programs_vs_ncu.sh COUNTERGUARD PROGRAMS_DIR [OUT] [PROGRAM...]
# PROGRAMS_DIR holds mathlib_tests, bench and add_autotune.py (the folder validation/exec_lifecycle.sh takes); when
# it does not exist they are built into it as validation/exec_programs/*/ say. PROGRAM: mathlib, bench, triton
# (default: all three).
set -uo pipefail
[[ $# -ge 2 ]] || { sed -n '3,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
cg=$(realpath "$1")
if [[ ! -d $2 ]]; then
  mkdir -p "$2/mathlib-build"
  if ! { cmake -S "$here/exec_programs/mathlib" -B "$2/mathlib-build" -DCMAKE_BUILD_TYPE=Release &&
         cmake --build "$2/mathlib-build" && cp "$2/mathlib-build/mathlib_tests" "$2/" &&
         make -C "$here/exec_programs/bench" OUT="$(realpath "$2")/bench" &&
         cp "$here/exec_programs/triton_add/add_autotune.py" "$2/"; } >"$2/build.log" 2>&1; then
    echo "exec_programs_vs_ncu: building the programs failed: $2/build.log" >&2
    exit 2
  fi
fi
programs=$(realpath "$2")
out=$(realpath "${3:-${OUT:-/tmp/counterguard-out}}")
shift $(($# < 3 ? $# : 3))
wanted=("$@")
((${#wanted[@]})) || wanted=(mathlib bench triton)
work="$out/exec_programs_vs_ncu"
summary="$out/exec_programs_vs_ncu.md"
rm -rf "$work"
mkdir -p "$work"
export TRITON_CACHE_DIR="$work/triton_cache"
# Triton's autotuner picks by timing, and under ncu (every launch serialised) it can pick another config than
# under exec, so the two would measure different kernels. With its results cached (Triton's own knob, in the
# shared cache above) and one run before exec's filling it, exec and every ncu run launch the same kernels: the
# tuned config, with no trials.
export TRITON_CACHE_AUTOTUNING=1
declare -A command=(
  [mathlib]="$programs/mathlib_tests"
  [bench]="$programs/bench saxpy,stencil --iters 3000"
  [triton]="python3 $programs/add_autotune.py"
)
{
  echo "# counterguard exec against ncu on the three exec programs"
  echo
  echo "- counterguard: \`$cg\` ($("$cg" --version 2>&1 | head -1)); ncu: $(ncu --version 2>&1 | tail -1)"
  echo "- GPU: $(nvidia-smi -L 2>&1 | head -1)"
  echo
  echo "| program | exact values compared | mismatches | cases not compared |"
  echo "|---|---|---|---|"
} >"$summary"
status=0
start=$SECONDS
for name in "${wanted[@]}"; do
  program=${command[$name]:-}
  [[ -n $program ]] || { echo "exec_programs_vs_ncu: unknown program '$name'; valid: mathlib, bench, triton" >&2; exit 2; }
  dir="$work/$name"
  mkdir -p "$dir"
  suite="$here/exec_programs/recorded/$name.yaml"
  # shellcheck disable=SC2086
  [[ $name == triton ]] && $program >"$dir/autotune.log" 2>&1
  # shellcheck disable=SC2086  # the program's words
  "$cg" exec "$suite" --no-baselines --quiet --json "$dir/exec.json" -- $program >"$dir/exec.log" 2>&1
  echo "[$((SECONDS - start))s] $name: exec exit $?" >&2
  python3 "$here/exec_programs_vs_ncu.py" "$suite" --results "$dir/exec.json" --output "$dir/selections.json" \
    --reasons "$dir/not_compared.md" >>"$dir/exec.log" 2>&1
  # shellcheck disable=SC2086
  python3 "$here/exec_vs_ncu.py" crosscheck --counterguard "$cg" --results "$dir/exec.json" \
    --selections "$dir/selections.json" --report "$dir/report.md" -- $program >"$dir/ncu.log" 2>&1
  checked=$?
  ((checked == 0)) || status=1
  line=$(grep -m1 'exact metric values compared' "$dir/report.md" 2>/dev/null)
  compared=$(sed -n 's/.*compared: \([0-9]*\);.*/\1/p' <<<"$line")
  mismatches=$(sed -n 's/.*mismatches: \*\*\([0-9]*\)\*\*.*/\1/p' <<<"$line")
  echo "| $name | ${compared:-?} | ${mismatches:-?} | $(wc -l <"$dir/not_compared.md" 2>/dev/null || echo '?') |" >>"$summary"
  echo "[$((SECONDS - start))s] $name: ncu crosscheck exit $checked ($line)" >&2
done
{
  echo
  echo "Took $((SECONDS - start)) s. Mismatches and the cases not compared, per program: exec_programs_vs_ncu/*/report.md and"
  echo "not_compared.md. Exit status $status (1: a mismatch, or a program with nothing compared)."
} >>"$summary"
cat "$summary"
tar -czf "$out/exec_programs_vs_ncu.tar.gz" -C "$out" exec_programs_vs_ncu exec_programs_vs_ncu.md
exit "$status"
