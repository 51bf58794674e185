#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `counterguard exec` on programs users already have, on a GPU host (docs/exec.md): a Thrust/CUB program, cuBLAS
# SGEMM, NVRTC kernels and one Python program with PyTorch, Triton, CuPy and Numba kernels (all in this folder,
# written as ordinary users of those libraries; none includes a counterguard header). For each program:
#   crashes   RUNS runs under exec with the matching suite and RUNS with selectors that match nothing (the
#             latter in parallel, each with its own lock folder: nothing is profiled); a crash is exec or the
#             program ending by a signal, or the program's own check failing
#   ncu       every exact value of the matching run against ncu on the same launches (exec_vs_ncu.py)
#   timing    the program alone, under exec and under ncu with the same selection and metrics
# and: static metrics of the JIT kernels against their compilers (jit_statics.py); the cost of a profiled
# launch against the device memory the program holds (alloc_replay.py, 1 and 2 passes, 1/16/64 GiB).
#
# Usage: validation/exec_corpus/run_corpus.sh [PROGRAM...]   (thrust cublas nvrtc python replay; default all)
#   COUNTERGUARD  the counterguard binary (default: build/counterguard, else .device/counterguard)
#   CORPUS_BIN    the compiled programs (default: compiled here with nvcc into $OUT/exec_corpus/bin)
#   RUNS (50), PYTHON_RUNS (RUNS), BENCH_REPEAT (3), PARALLEL (8)
# Writes $OUT/exec_corpus/ (summary.md first) and $OUT/exec_corpus.tar.gz.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
OUT=${OUT:-/tmp/counterguard-out}
out=$OUT/exec_corpus
mkdir -p "$out/logs"
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
CG=${COUNTERGUARD:-}
[[ -z $CG && -x $root/build/counterguard ]] && CG=$root/build/counterguard
[[ -z $CG && -x $root/.device/counterguard ]] && CG=$root/.device/counterguard
RUNS=${RUNS:-50}
PYTHON_RUNS=${PYTHON_RUNS:-$RUNS}
BENCH_REPEAT=${BENCH_REPEAT:-3}
PARALLEL=${PARALLEL:-8}
compare=$root/tools/exec_vs_ncu.py
[[ -f $root/validation/exec_vs_ncu.py ]] && compare=$root/validation/exec_vs_ncu.py
programs=("$@")
((${#programs[@]})) || programs=(thrust cublas nvrtc python replay)
summary=$out/summary.md
pack() { (cd "$OUT" && tar czf exec_corpus.tar.gz exec_corpus); }
trap pack EXIT
{
  echo "# counterguard exec on the corpus: $(date -u +%Y-%m-%d)"
  echo
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/- GPU: /'
  echo "- counterguard: $("$CG" --version 2>&1 | head -1); ncu: $(ncu --version | tail -1)"
  echo
} >"$summary"

bin=${CORPUS_BIN:-$out/bin}
if [[ -z ${CORPUS_BIN:-} ]]; then
  mkdir -p "$bin"
  nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo "$here/thrust_phases.cu" -o "$bin/thrust_phases"
  nvcc -O3 -std=c++17 -arch=sm_90 "$here/cublas_sgemm.cu" -lcublas -o "$bin/cublas_sgemm"
  g++ -O2 -std=c++17 "$here/nvrtc_kernels.cpp" -I/usr/local/cuda/include -L/usr/local/cuda/lib64 \
    -L/usr/local/cuda/lib64/stubs -lnvrtc -lcuda -Wl,-rpath,/usr/local/cuda/lib64 -o "$bin/nvrtc_kernels"
fi

# The command line of a program, its suites and what ncu and exec select for the timing comparison.
command_of() {
  case $1 in
    thrust) echo "$bin/thrust_phases" ;;
    cublas) echo "$bin/cublas_sgemm" ;;
    nvrtc) echo "$bin/nvrtc_kernels $out/nvrtc_kernels.cubin" ;;
    python) echo "python3 $here/python_mixed.py" ;;
  esac
}
suite_of() { case $1 in thrust) echo thrust_phases ;; cublas) echo cublas_sgemm ;; nvrtc) echo nvrtc_kernels ;; python) echo python_mixed ;; esac; }
bench_regex() {
  case $1 in
    thrust) echo "transform_kernel|DeviceReduceKernel|DeviceScanKernel|Onesweep" ;;
    cublas) echo "gemm|sgemm|xmma|cutlass" ;;
    nvrtc) echo "^(strided|spilling)$" ;;
    python) echo "^(add_kernel|spill_kernel|transpose_tile)$|scale" ;;
  esac
}
bench_count() { case $1 in thrust) echo 8 ;; cublas) echo 1 ;; nvrtc) echo 2 ;; python) echo 4 ;; esac; }

# One run: exec's status, the program's own verdict line, and a crash flag.
one_run() {  # name index suite extra-env...
  local name=$1 i=$2 suite=$3
  local json=$out/logs/${name}_$i.json log=$out/logs/${name}_$i.log
  local -a program_command
  read -r -a program_command <<<"$(command_of "${name%%_*}")"
  shift 3
  # The static metrics of every case too, for the comparison with the JIT compilers' own figures.
  env "$@" "$CG" exec --cases "$suite" --no-baselines --quiet --json "$json" --metric registers_per_thread \
    --metric stack_frame_bytes --metric static_shared_bytes --metric spill_store_bytes \
    -- "${program_command[@]}" >"$log" 2>&1
  local status=$? program
  program=$(python3 -c "import json,sys; c=[c for c in json.load(open(sys.argv[1]))['cases'] if c['instance']=='exec/program']; print(int(c[0]['checks'][0]['measured']) if c else -1)" "$json" 2>/dev/null || echo -1)
  local ok=1
  grep -q -E "WRONG|sorted=no" "$log" && ok=0
  echo "$i exec=$status program=$program ok=$ok"
}
export -f one_run command_of
export CG out bin here

for name in "${programs[@]}"; do
  [[ $name == replay ]] && continue
  suite=$(suite_of "$name")
  runs=$RUNS
  [[ $name == python ]] && runs=$PYTHON_RUNS
  read -r -a program_command <<<"$(command_of "$name")"
  echo "=== $name ($(date -u +%H:%M:%S))"
  # Alone: the program's own wall time and output.
  for i in 1 2 3; do
    start=$(date +%s%N); "${program_command[@]}" >"$out/logs/${name}_alone_$i.log" 2>&1; status=$?
    echo "$(( ($(date +%s%N) - start) / 1000000 )) ms status $status"
  done >"$out/${name}_alone.txt"
  # Matching selectors, one run after another (each profiles).
  for ((i = 0; i < runs; ++i)); do one_run "${name}_match" "$i" "$here/$suite.yaml"; done >"$out/${name}_match_runs.txt"
  cp "$out/logs/${name}_match_0.json" "$out/${name}_match.json" 2>/dev/null
  # Counters that differ between identical runs (a kernel that spins on a flag, as CUB's decoupled look-back
  # does, loads as often as it waits): not exact in that kernel, so not compared with ncu's single run.
  python3 - "$out/${name}_varying.json" "$out"/logs/"${name}"_match_*.json <<'PY'
import json, sys
values = {}
for path in sys.argv[2:]:
    try:
        cases = json.load(open(path))["cases"]
    except (OSError, ValueError):
        continue
    for case in cases:
        for metric, value in case["totals"].items():
            values.setdefault(f"{case['instance']} {metric}", set()).add(value["value"])
varying = {key: [min(v), max(v)] for key, v in values.items() if len(v) > 1}
json.dump(varying, open(sys.argv[1], "w"), indent=1)
PY
  # Selectors that match nothing, PARALLEL at a time (nothing is profiled; each run locks its own folder).
  seq 0 $((RUNS - 1)) | xargs -P "$PARALLEL" -I{} bash -c \
    'mkdir -p /tmp/cg-lock-{}; one_run '"${name}"'_nomatch {} '"$here/${suite}_nomatch.yaml"' COUNTERGUARD_LOCK_DIR=/tmp/cg-lock-{}' \
    >"$out/${name}_nomatch_runs.txt"
  cp "$out/logs/${name}_nomatch_0.log" "$out/${name}_nomatch_message.txt" 2>/dev/null
  for kind in match nomatch; do
    file=$out/${name}_${kind}_runs.txt
    total=$(wc -l <"$file")
    crashes=$(grep -c -E "exec=(1[2-9][0-9]|2[0-9][0-9])|program=(-1|[1-9][0-9]*)|ok=0" "$file")
    echo "| $name | $kind | $total | $crashes | $(cut -d' ' -f2 "$file" | sort | uniq -c | tr '\n' ' ') |"
  done >>"$out/crash_rows.md"
  # Every exact value against ncu on the same launches.
  python3 "$compare" crosscheck --counterguard "$CG" --results "$out/${name}_match.json" \
    --selections "$here/ncu_selections.json" --varying "$out/${name}_varying.json" --report "$out/${name}_ncu.md" -- "${program_command[@]}" \
    >"$out/logs/${name}_ncu.log" 2>&1
  echo "| $name | $(grep -o 'compared: [0-9]*; mismatches: \*\*[0-9]*\*\*' "$out/${name}_ncu.md" | tr -d '*') |" >>"$out/ncu_rows.md"
  # Wall time alone, under exec and under ncu with the same selection and metrics.
  repeat=$BENCH_REPEAT
  python3 "$compare" benchmark --counterguard "$CG" --kernel-regex "$(bench_regex "$name")" \
    --launch-count "$(bench_count "$name")" --metric global_load_sectors --metric global_load_requests \
    --metric global_store_sectors --metric shared_load_bank_conflicts --metric instructions \
    --repeat "$repeat" --json "$out/${name}_timing.json" --markdown "$out/${name}_timing.md" -- "${program_command[@]}" \
    >"$out/logs/${name}_timing.log" 2>&1
  python3 - "$out/${name}_timing.json" "$name" >>"$out/timing_rows.md" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
m, o = t["median_seconds"], t["overhead_seconds"]
ratio = o["ncu"] / o["counterguard exec"] if o["counterguard exec"] > 0 else float("inf")
print(f"| {sys.argv[2]} | {m['program']:.2f} | {m['counterguard exec']:.2f} | {m['ncu']:.2f} | "
      f"{o['counterguard exec']:.2f} | {o['ncu']:.2f} | {ratio:.1f}x | {t['launches_profiled']} |")
PY
done

if [[ " ${programs[*]} " == *" python "* || " ${programs[*]} " == *" nvrtc "* ]]; then
  jit_args=()
  [[ -f $out/python_match.json ]] && jit_args+=(--exec-json "$out/python_match.json" --python)
  [[ -f $out/nvrtc_match.json ]] && jit_args+=(--exec-json "$out/nvrtc_match.json" --nvrtc-cubin "$out/nvrtc_kernels.cubin")
  python3 "$here/jit_statics.py" "${jit_args[@]}" --report "$out/jit_statics.md" >"$out/logs/jit_statics.log" 2>&1
fi

if [[ " ${programs[*]} " == *" replay "* ]]; then
  echo "=== replay ($(date -u +%H:%M:%S))"
  for gib in 1 16 64; do
    for passes in one_pass two_passes; do
      COUNTERGUARD_INJECTION_TRACE=1 "$CG" exec --cases "$here/alloc_replay_$passes.yaml" --no-baselines --quiet \
        -- python3 "$here/alloc_replay.py" "$gib" >"$out/logs/replay_${gib}_$passes.log" 2>&1
      python3 - "$out/logs/replay_${gib}_$passes.log" "$gib" "$passes" >>"$out/replay_rows.md" <<'PY'
import re, statistics, sys
text = open(sys.argv[1]).read()
replay = [float(v) for v in re.findall(r"launch and replay ([0-9.]+) ms", text)]
passes = re.findall(r"\((\d+) passes\)", text)
print(f"| {sys.argv[2]} GiB | {passes[0] if passes else '?'} | "
      f"{statistics.median(replay[1:]) if len(replay) > 1 else float('nan'):.1f} ms | {len(replay)} |")
PY
    done
    start=$(date +%s%N)
    ncu --clock-control none --nvtx --nvtx-include "alloc_measure/" --replay-mode kernel \
      --metrics smsp__sass_inst_executed_op_shared_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
      python3 "$here/alloc_replay.py" "$gib" >"$out/logs/replay_${gib}_ncu.log" 2>&1
    echo "| $gib GiB | ncu, same counters | $(grep -o 'five launches in [0-9.]* ms' "$out/logs/replay_${gib}_ncu.log") | $(grep -c '==PROF== Profiling' "$out/logs/replay_${gib}_ncu.log") |" >>"$out/replay_rows.md"
  done
fi

{
  echo "## Crashes: runs under exec"
  echo
  echo "| program | selectors | runs | crashes | exec exit statuses |"
  echo "|---|---|---|---|---|"
  cat "$out/crash_rows.md" 2>/dev/null
  echo
  echo "## Exact values against ncu on the same launches"
  echo
  echo "| program | values |"
  echo "|---|---|"
  cat "$out/ncu_rows.md" 2>/dev/null
  echo
  echo "## Wall time (s, medians of $BENCH_REPEAT): alone, under exec, under ncu; same selection and metrics"
  echo
  echo "| program | alone | exec | ncu | exec overhead | ncu overhead | ncu/exec overhead | launches profiled |"
  echo "|---|---|---|---|---|---|---|---|"
  cat "$out/timing_rows.md" 2>/dev/null
  echo
  [[ -f $out/jit_statics.md ]] && sed -n '3p' "$out/jit_statics.md" | sed 's/^/JIT static metrics against their compilers: /' && echo
  if [[ -f $out/replay_rows.md ]]; then
    echo "## A profiled launch against the device memory the program holds (median of launches 2-5)"
    echo
    echo "| held | passes | launch and replay | launches |"
    echo "|---|---|---|---|"
    cat "$out/replay_rows.md"
  fi
} >>"$summary"
cat "$summary"
