#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs on a GPU host: the checks behind validation/h200.md's "Each launch's code" figures: static
# metrics of the function each launch ran, launch metrics as ncu defines them. Results under $OUT, packed
# into $OUT/launch_code.tar.gz. The probes are built here with nvcc; `exec` and `python` need a staged
# counterguard (STAGE=<folder with counterguard, libcounterguard_injection.so, lib/>, default .device).
# Usage: validation/launch_code_checks.sh STAGE...
#   probe    ncu's launch__ and device__attribute_ metrics for kernels at 10..55 registers (also under
#            -maxrregcount=24 and __launch_bounds__), against the driver's counts; which API call each module
#            load arrives in, and what cuFuncGetModule says at a launch (module_events); Triton's n_regs and
#            n_spills for each config of an autotuned kernel
#   exec     under `counterguard exec`, every launch selected: the autotuned Triton kernel (and under ncu),
#            two CuPy RawModules with a kernel `twin` each, a JAX program, the register-count kernels (and
#            under ncu, the same launches); then compare_launch_code.py
#   python   counterguard.profile over a Triton kernel launched before the block and one inside it (needs
#            $STAGE/python: validation/python_plugin.sh stage, copied)
#   names    every launch__ name counterguard reports against ncu on the same launches of launch_names.cu
#            (static and dynamic shared memory across the carve-outs, preferred carve-outs, named barriers,
#            several streams, a second context); counterguard's message for each ncu name it does not
#            report; then compare_launch_names.py ("N of N values equal")
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
FINAL_OUT=${OUT:-/tmp/counterguard-launch-code-out}
OUT=$FINAL_OUT/launch_code
mkdir -p "$OUT"
export PATH=$PATH:/usr/local/cuda/bin
HERE=$PWD/validation/launch_code
BUILD=$(mktemp -d)
STAGE=$(cd "${STAGE:-.device}" 2>/dev/null && pwd)
CG=$STAGE/counterguard
STATIC_METRICS=(registers_per_thread stack_frame_bytes spill_store_bytes spill_load_bytes static_shared_bytes)
LAUNCH_METRICS=(launch_registers_per_thread launch_local_bytes_per_thread theoretical_occupancy
  launch__registers_per_thread launch__block_size launch__shared_mem_per_block_static)

# `counterguard exec` selecting every launch (NAME: the results file), measuring METRICS...
exec_all() {
  local name=$1
  shift
  local metrics=()
  while [[ $1 != -- ]]; do
    metrics+=(--metric "$1")
    shift
  done
  shift
  record "$name" "$CG" exec -k 'regex:.*' --max-launches 100000 --no-baselines --json "$OUT/$name.json" \
    "${metrics[@]}" -- "$@"
}

# Everything is written under $OUT/launch_code and packed into one archive at the end (the device tool brings
# back a few files only); the comparison and the statuses are also left beside it.
pack() {
  tar -czf "$FINAL_OUT/launch_code.tar.gz" -C "$FINAL_OUT" launch_code
  cp "$OUT/statuses.txt" "$OUT/compare.txt" "$FINAL_OUT/" 2>/dev/null
  return 0
}
trap pack EXIT
trap "exit 124" TERM

record() {
  local name=$1
  shift
  local start end status
  start=$(date +%s%N)
  "$@" >"$OUT/$name.log" 2>&1
  status=$?
  end=$(date +%s%N)
  printf '%-24s exit %3d  %6d ms  %s\n' "$name" "$status" $(((end - start) / 1000000)) "$*" | tee -a "$OUT/statuses.txt"
  return 0
}

build_probes() {
  nvcc -O3 -arch=sm_90 -Xptxas -v -o "$BUILD/register_counts" "$HERE/register_counts.cu" >"$OUT/ptxas_default.txt" 2>&1
  nvcc -O3 -arch=sm_90 -maxrregcount=24 -Xptxas -v -o "$BUILD/register_counts_max24" "$HERE/register_counts.cu" \
    >"$OUT/ptxas_max24.txt" 2>&1
  for work in 1 16 40; do
    nvcc -cubin -arch=sm_90 -O3 -DTWIN_WORK=$work -Xptxas -v -o "$BUILD/twin_$work.cubin" "$HERE/twin.cu" \
      >>"$OUT/ptxas_twin.txt" 2>&1
  done
  nvcc -O2 -arch=sm_90 -x cu -o "$BUILD/module_events" "$HERE/module_events.cpp" -lcuda \
    -L/usr/local/cuda/lib64 -L/usr/local/cuda/extras/CUPTI/lib64 -lcupti \
    -Xlinker -rpath=/usr/local/cuda/lib64 -Xlinker -rpath=/usr/local/cuda/extras/CUPTI/lib64 >"$OUT/build_module_events.txt" 2>&1
}

for stage in "$@"; do
  echo "=== stage $stage ($(date -u +%H:%M:%S))"
  case "$stage" in
    probe)
      nvidia-smi --query-gpu=name,driver_version --format=csv | tee "$OUT/gpu.txt"
      ncu --version | tail -1 | tee -a "$OUT/gpu.txt"
      python3 -c "import triton, cupy, jax; print('triton', triton.__version__, 'cupy', cupy.__version__, 'jax', jax.__version__)" \
        2>&1 | tail -1 | tee -a "$OUT/gpu.txt"
      build_probes
      for binary in register_counts register_counts_max24; do
        record "${binary}_driver" "$BUILD/$binary"
        # Every metric the launch statistics and occupancy sections collect, per kernel.
        record "${binary}_ncu" ncu --section LaunchStats --section Occupancy --page raw --csv "$BUILD/$binary"
      done
      record ncu_launch_metric_names ncu --metrics regex:^launch__,regex:^device__attribute_ --page raw --csv \
        -k regex:copy "$BUILD/register_counts"
      record ncu_query_metrics ncu --query-metrics-mode all --query-metrics --chip gh100
      record module_events_lazy env CUDA_MODULE_LOADING=LAZY "$BUILD/module_events" "$BUILD/twin_1.cubin" \
        "$BUILD/twin_16.cubin" "$BUILD/twin_40.cubin"
      record module_events_eager env CUDA_MODULE_LOADING=EAGER "$BUILD/module_events" "$BUILD/twin_1.cubin" \
        "$BUILD/twin_16.cubin" "$BUILD/twin_40.cubin"
      record triton_configs python3 "$HERE/triton_autotuned.py" --report "$OUT/triton_configs.json"
      record triton_ncu ncu --metrics launch__registers_per_thread,launch__block_size,launch__grid_size \
        --csv -k regex:tuned_kernel -c 30 python3 "$HERE/triton_autotuned.py" --sizes 65536
      cp "$BUILD"/*.cubin "$OUT/" 2>/dev/null
      ;;
    exec)
      build_probes
      "$CG" --version | tee "$OUT/version.txt"
      record triton_configs python3 "$HERE/triton_autotuned.py" --report "$OUT/triton_configs.json"
      exec_all triton_exec "${STATIC_METRICS[@]}" "${LAUNCH_METRICS[@]}" -- python3 "$HERE/triton_autotuned.py"
      ncu --metrics launch__registers_per_thread,launch__block_size --csv -k regex:tuned_kernel -c 60 \
        python3 "$HERE/triton_autotuned.py" --sizes 65536 >"$OUT/triton_ncu.csv" 2>&1
      record cupy_report python3 "$HERE/cupy_two_modules.py" --report "$OUT/cupy_report.json"
      # With the injection's trace: which module each load and launch bound (in cupy_exec.log).
      COUNTERGUARD_INJECTION_TRACE=1 exec_all cupy_exec "${STATIC_METRICS[@]}" "${LAUNCH_METRICS[@]}" -- \
        python3 "$HERE/cupy_two_modules.py"
      exec_all jax_exec "${STATIC_METRICS[@]}" "${LAUNCH_METRICS[@]}" -- python3 "$HERE/jax_program.py"
      mapfile -t ncu_names < <("$CG" metrics list --ncu)
      exec_all rc_exec "${ncu_names[@]}" "${LAUNCH_METRICS[@]}" -- "$BUILD/register_counts"
      ncu --section LaunchStats --section Occupancy --page raw --csv "$BUILD/register_counts" >"$OUT/rc_ncu.csv" 2>&1
      python3 "$HERE/compare_launch_code.py" --out "$OUT" | tee "$OUT/compare.txt"
      ;;
    python)
      export PYTHONPATH=$STAGE/python
      record profile_report python3 "$HERE/profile_after_warmup.py" --report "$OUT/profile_report.json"
      python3 "$HERE/compare_launch_code.py" --out "$OUT" | tee "$OUT/compare.txt"
      ;;
    names)
      nvcc -O3 -arch=sm_90 -Xptxas -v -o "$BUILD/launch_names" "$HERE/launch_names.cu" -lcuda \
        >"$OUT/ptxas_names.txt" 2>&1
      "$CG" --version | tee "$OUT/version.txt"
      record names_driver "$BUILD/launch_names"
      mapfile -t launch_names < <("$CG" metrics list --ncu | grep '^launch__')
      exec_all names_exec "${launch_names[@]}" -- "$BUILD/launch_names"
      ncu --metrics regex:^launch__ --page raw --csv "$BUILD/launch_names" >"$OUT/names_ncu.csv" 2>&1
      # The message for each name ncu showed that counterguard does not report (it exits before the program).
      : >"$OUT/names_refusals.txt"
      for name in $(head -1 <(grep '^"ID"' "$OUT/names_ncu.csv") | tr ',' '\n' | tr -d '"' | grep '^launch__'); do
        if ! printf '%s\n' "${launch_names[@]}" | grep -qx "$name"; then
          printf '%s\t%s\n' "$name" "$("$CG" exec --no-baselines -k 'regex:.*' --metric "$name" -- true 2>&1 | tr '\n' ' ')" \
            >>"$OUT/names_refusals.txt"
        fi
      done
      python3 "$HERE/compare_launch_names.py" --out "$OUT" | tee "$OUT/compare.txt"
      ;;
    *)
      echo "unknown stage $stage" >&2
      ;;
  esac
done
