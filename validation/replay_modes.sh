#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# exec's replay modes on programs that hold much of the GPU's memory, against ncu (docs/exec.md "Speed"):
#   jax    validation/replay_modes/jax_steps.py: JAX with its default preallocation (75% of the GPU), 40 launches
#          in NVTX "step" profiled, 10 raw counters plus two aliases
#   torch  validation/replay_modes/torch_hold.py: PyTorch holding 64 GiB, 10 launches in NVTX "measure"
#   bench  validation/exec_programs/bench: a CUDA program with 6000 launches, 5 profiled
#   checkpoint  replay_modes/checkpoint_probe.cu: CUPTI's checkpoint save and restore (with and without
#          CUPTI_CHECKPOINT_OPT_TRANSFER) while 1, 16 and 64 GiB are held
# For each: wall time alone, under `counterguard exec --replay-mode auto|kernel|application` and under ncu
# (--replay-mode kernel and application) with the same selection and counters; the exact counters of every
# profiled launch compared across the exec modes and with ncu (replay_modes/compare.py).
#   [RUN_LIMIT=S] validation/replay_modes.sh COUNTERGUARD OUT [PROGRAMS...]     (default: jax torch bench)
# Writes OUT/replay_modes/ (summary.txt, each run's results JSON, stderr and ncu CSV) and OUT/replay_modes.tar.gz.
# NCU_RUN_LIMIT=S gives ncu's runs their own limit (default RUN_LIMIT), so ncu's time on a program exec finishes
# quickly can be measured to the end.
set -uo pipefail
cg=$(realpath "$1")
out=$(realpath "$2")/replay_modes
shift 2
programs=("$@")
[[ ${#programs[@]} -eq 0 ]] && programs=(jax torch bench)
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
summary=$out/summary.txt
pack() { (cd "$out/.." && tar czf replay_modes.tar.gz replay_modes); }
say() { echo "$*" | tee -a "$summary"; }
# RUN_LIMIT=S stops each run after S seconds (exit 124: "did not finish in S s"), so one slow mode cannot take a
# GPU command's whole time.
timed() {  # NAME COMMAND...: runs it, logs, prints "NAME: S s (exit RC)"
  local name=$1; shift
  local t0=$EPOCHREALTIME
  local run_limit=${RUN_LIMIT:-0}
  [[ $name == *.ncu_* && ${NCU_RUN_LIMIT:-0} -gt 0 ]] && run_limit=$NCU_RUN_LIMIT
  local limit=(); [[ $run_limit -gt 0 ]] && limit=(timeout "$run_limit")
  "${limit[@]}" "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"
  local rc=$?
  local note=""; [[ $rc -eq 124 && ${#limit[@]} -gt 0 ]] && note=" did not finish in $run_limit s"
  say "$(printf '%-28s %7.2f s (exit %d)%s' "$name" "$(awk "BEGIN { print $EPOCHREALTIME - $t0 }")" "$rc" "$note")"
}

exact="l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"
exact+=",l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
exact+=",smsp__inst_executed.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum"
exact+=",smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_shared_ld.sum"
raw="$exact,dram__bytes_read.sum"  # ten raw counters; dram bytes are not exact, so not compared
aliases=(shared_load_bank_conflicts global_load_sectors_per_request)

say "# exec replay modes against ncu: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
say "counterguard: $("$cg" --version 2>&1 | head -1); ncu: $(ncu --version | tail -1)"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee -a "$summary"

for program in "${programs[@]}"; do
  if [[ $program == checkpoint ]]; then
    # What CUPTI's checkpoint API (a narrower save and restore than kernel replay's?) costs at 1, 16 and 64 GiB.
    say ""
    say "## checkpoint: replay_modes/checkpoint_probe.cu"
    cuda=$(dirname "$(dirname "$(command -v nvcc)")")
    nvcc -O2 -arch=sm_90 -o "$out/checkpoint_probe" "$here/replay_modes/checkpoint_probe.cu" -L"$cuda/lib" \
      -L"$cuda/lib64" -lcheckpoint -lcupti -lcuda >"$out/checkpoint_build.log" 2>&1 || say "build failed"
    for gib in 1 16 64; do
      LD_LIBRARY_PATH=$cuda/lib:$cuda/lib64:${LD_LIBRARY_PATH:-} timeout 60 "$out/checkpoint_probe" "$gib" 64 2>&1 |
        tee -a "$summary"
    done
    continue
  fi
  case $program in
    jax) cmd=(python3 "$here/replay_modes/jax_steps.py" 40); nvtx=step/; count=40; kernel=() ;;
    torch) cmd=(python3 "$here/replay_modes/torch_hold.py" 64 10); nvtx=measure/; count=10; kernel=() ;;
    bench)
      make -s -C "$here/exec_programs/bench" OUT="$out/bench_bin" >/dev/null
      cmd=("$out/bench_bin" "saxpy,stencil" --iters 3000); nvtx=""; count=5; kernel=("regex:stencil") ;;
    *) echo "unknown program $program" >&2; continue ;;
  esac
  say ""
  say "## $program: ${cmd[*]}"
  select_exec=(--launch-count "$count" --max-launches "$count")
  select_ncu=(--launch-count "$count")
  if [[ -n $nvtx ]]; then
    select_exec+=(--nvtx-include "$nvtx")
    select_ncu+=(--nvtx --nvtx-include "$nvtx")
  fi
  if [[ ${#kernel[@]} -gt 0 ]]; then
    select_exec+=(-k "${kernel[0]}" --launch-skip 100)
    select_ncu+=(-k "${kernel[0]}" --launch-skip 100)
  fi
  metrics=()
  for m in ${raw//,/ } "${aliases[@]}"; do metrics+=(--metric "$m"); done
  timed "$program.alone" "${cmd[@]}"
  results=()
  for mode in auto kernel application; do
    timed "$program.exec_$mode" "$cg" exec "${select_exec[@]}" "${metrics[@]}" --replay-mode "$mode" \
      --no-baselines --json "$out/$program.exec_$mode.json" -- "${cmd[@]}"
    grep -E "replay|pass" "$out/$program.exec_$mode.stderr" | sed 's/^/    /' | tee -a "$summary"
    results+=("$out/$program.exec_$mode.json")
  done
  ncus=()
  for mode in kernel application; do
    timed "$program.ncu_$mode" ncu --replay-mode "$mode" "${select_ncu[@]}" --metrics "$raw" --csv --page raw \
      --log-file "$out/$program.ncu_$mode.csv" "${cmd[@]}"
    ncus+=(--ncu "$out/$program.ncu_$mode.csv")
  done
  python3 "$here/replay_modes/compare.py" --metrics "$exact" "${ncus[@]}" "${results[@]}" 2>&1 | tee -a "$summary"
  pack
done
pack
say ""
say "tarball: $out/../replay_modes.tar.gz"
