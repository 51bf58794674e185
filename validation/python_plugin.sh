#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Python package and pytest plugin on a GPU host, on examples/python_kernels (Triton, CuPy, Numba):
#   1. the example's tests pass, recording H200 baselines, then gated by them (results JSON, Markdown, HTML);
#   2. each planted regression (CG_PLANT=triton_stride, cupy_padding, numba_stride) fails its test naming the
#      metric;
#   3. counterguard's counters equal Nsight Compute's on the same launches (launch_all.py, raw counters);
#   4. wall time of the test session with the plugin profiling and with --counterguard-disable, and Nsight
#      Python's @nsight.analyze.kernel on the same launch where it is installed;
#   5. the package's own tests (python/tests) under this host's Python.
# Everything goes to $OUT/python_plugin and $OUT/python_plugin.tar.gz; a summary is printed.
#
#   validation/python_plugin.sh stage        on the build machine: build/python (staged package and library)
#                                            -> .device/python, to carry to the GPU host
#   validation/python_plugin.sh [steps...]   on the GPU host, from the repository root; steps: tests planted
#                                            ncu timing package (default: all of them; each step stands alone,
#                                            so they can be run in separate calls)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2

if [[ ${1:-} == stage ]]; then
  [[ -f build/python/counterguard/libcounterguard_capi.so ]] || {
    echo "python_plugin: build the target counterguard_python first (cmake --build build --target counterguard_python)" >&2
    exit 2
  }
  rm -rf .device/python
  mkdir -p .device/python
  cp -rL build/python/counterguard build/python/counterguard-*.dist-info build/python/pyproject.toml \
    build/python/README.md .device/python/
  git rev-parse HEAD >.device/python/commit
  du -sh .device/python
  exit 0
fi

steps=("$@")
((${#steps[@]})) || steps=(tests planted ncu timing package)
wants() { [[ " ${steps[*]} " == *" $1 "* ]]; }

out=${OUT:-/tmp/counterguard-out}/python_plugin
mkdir -p "$out"
python=${PYTHON:-python3}
export PYTHONPATH="$root/.device/python"
export COUNTERGUARD_GIT_COMMIT
COUNTERGUARD_GIT_COMMIT=$(cat .device/python/commit 2>/dev/null || git rev-parse HEAD 2>/dev/null || echo unknown)
summary="$out/summary.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
example="$root/examples/python_kernels"
baselines="$out/baselines"

{
  echo "commit: $COUNTERGUARD_GIT_COMMIT"
  "$python" --version
  nvidia-smi -L 2>&1 | head -4
  "$python" - <<'PY'
import importlib
for name in ("torch", "triton", "cupy", "numba", "numpy", "pytest", "nsight"):
    try:
        module = importlib.import_module(name)
        print(f"{name} {getattr(module, '__version__', '?')}")
    except Exception as failure:
        print(f"{name}: not importable ({type(failure).__name__}: {failure})")
import counterguard
why = counterguard.profiling_unavailable()
print("counterguard", counterguard.__version__, "from", counterguard.__file__)
print("profiling:", "available" if why is None else f"unavailable ({why.problem}): {why.reason}")
PY
} >"$out/environment.txt" 2>&1
cat "$out/environment.txt"

now() { date +%s%N; }
seconds_since() { awk -v start="$1" -v end="$(now)" 'BEGIN { printf "%.1f", (end - start) / 1e9 }'; }

# pytest in the example project, its output in $out/<name>.log; prints the exit status and seconds.
session() {
  local name=$1
  shift
  local started status
  started=$(now)
  (cd "$example" && timeout 300 "$python" -m pytest -v -p no:cacheprovider "$@") >"$out/$name.log" 2>&1
  status=$?
  echo "$status $(seconds_since "$started")"
}

if wants tests; then
  read -r status seconds < <(session record --counterguard-baselines "$baselines" --counterguard-update-baselines \
    --counterguard-json "$out/record.json")
  note "tests, recording baselines: exit $status in ${seconds}s ($(tail -1 "$out/record.log"))"
  read -r status seconds < <(session gate --counterguard-baselines "$baselines" --counterguard-json "$out/results.json" \
    --counterguard-markdown "$out/summary.md" --counterguard-html "$out/report.html")
  note "tests, gated by them: exit $status in ${seconds}s ($(tail -1 "$out/gate.log"))"
  grep -E "SKIPPED" "$out/gate.log" | sed 's/^/  /' | tee -a "$summary"
fi

if wants planted; then
  declare -A metric=([triton_stride]=global_load_sectors_per_request [cupy_padding]=shared_load_bank_conflicts
                     [numba_stride]=global_load_sectors_per_request)
  declare -A test_file=([triton_stride]=tests/test_triton_copy.py [cupy_padding]=tests/test_cupy_transpose.py
                        [numba_stride]=tests/test_numba_scale.py)
  for plant in triton_stride cupy_padding numba_stride; do
    framework=${plant%%_*}
    read -r status seconds < <(CG_PLANT=$plant session "planted_$plant" "${test_file[$plant]}")
    failing=$(grep -E "counter check\(s\) failed|^  [a-z_]+: expected" "$out/planted_$plant.log" | head -6)
    if [[ $status -eq 1 ]] && grep -q "${metric[$plant]}: expected" "$out/planted_$plant.log"; then
      note "planted $plant: fails naming ${metric[$plant]} (exit $status)"
    elif grep -q "SKIPPED.*$framework" "$out/planted_$plant.log" && [[ $status -eq 0 ]]; then
      note "planted $plant: its test was skipped: $(grep -m1 "SKIPPED.*$framework" "$out/planted_$plant.log")"
    else
      note "planted $plant: NOT detected as expected (exit $status; see planted_$plant.log)"
    fi
    [[ -n $failing ]] && printf '  %s\n' "${failing//$'\n'/$'\n'  }" >>"$summary"
  done
fi

if wants ncu; then
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  raw=$(cd "$example" && "$python" -c "from launch_all import RAW_METRICS; print(','.join(RAW_METRICS))")
  regex=$(cd "$example" && "$python" -c "from launch_all import KERNEL_REGEX; print(KERNEL_REGEX)")
  (cd "$example" && timeout 300 "$python" launch_all.py --counterguard "$out/launch_counterguard.json") \
    >"$out/launch_counterguard.log" 2>&1
  (cd "$example" && timeout 300 "$ncu" --csv --page raw --print-units base --print-kernel-base mangled \
    --clock-control none --kernel-name-base demangled --kernel-name "regex:$regex" --metrics "$raw" \
    "$python" launch_all.py) >"$out/launch_ncu.csv" 2>"$out/launch_ncu.stderr"
  "$python" validation/python_vs_ncu.py "$out/launch_counterguard.json" "$out/launch_ncu.csv" \
    "$out/python_vs_ncu.md" >"$out/python_vs_ncu.log" 2>&1
  note "against ncu (exit $?): $(tail -1 "$out/python_vs_ncu.log")"
fi

if wants timing; then
  # Each twice, interleaved: the first sessions of a fresh machine also pay for Triton's and CuPy's caches.
  for round in 1 2; do
    read -r with_status with < <(session "timing_plugin_$round")
    read -r plain_status plain < <(session "timing_disabled_$round" --counterguard-disable)
    note "wall time of the example's test session, round $round: ${with}s profiling (exit $with_status)," \
      "${plain}s with --counterguard-disable (exit $plain_status)"
  done
  for mode in plain counterguard; do
    started=$(now)
    if [[ $mode == plain ]]; then
      (cd "$example" && "$python" launch_all.py) >"$out/launch_$mode.log" 2>&1
    else
      (cd "$example" && "$python" launch_all.py --counterguard "$out/launch_timing.json") >"$out/launch_$mode.log" 2>&1
    fi
    note "launch_all.py $mode: $(seconds_since "$started")s"
  done
  (cd "$example" && timeout 400 "$python" "$root/validation/python_nsight.py" "$out/nsight.json") \
    >"$out/nsight.log" 2>&1
  note "Nsight Python: $(tail -1 "$out/nsight.log")"
fi

if wants package; then
  (timeout 300 "$python" -m pytest -p pytester -q -rs -p no:cacheprovider python/tests) >"$out/package_tests.log" 2>&1
  note "the package's own tests under $("$python" --version): exit $? ($(tail -1 "$out/package_tests.log"))"
  scratch=$(mktemp -d)
  if "$python" -m pip install --quiet --no-build-isolation --no-index --no-deps --target "$scratch/pip" \
    .device/python >"$out/pip_install.log" 2>&1; then
    note "pip install --no-build-isolation --no-index of the staged package: installed"
  else
    note "pip install --no-build-isolation --no-index of the staged package: failed ($(tail -1 "$out/pip_install.log"))"
  fi
  rm -rf "$scratch"
fi

cp -r "$example/baselines" "$out/committed_baselines" 2>/dev/null
tar czf "${out%/python_plugin}/python_plugin.tar.gz" -C "${out%/python_plugin}" python_plugin
echo "== summary (all files: $out, ${out%/python_plugin}/python_plugin.tar.gz)"
cat "$summary"
