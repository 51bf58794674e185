#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On a GPU host: the wheel (`cmake --build build --target wheel`) installed with pip into a fresh virtual
# environment of the host's Python, then used as a Python user would: the `counterguard` command from the wheel
# runs `exec` on tools/exec_demo and measures what the staged tool measures (validation/same_results.py), and
# the example pytest project (examples/python_kernels) passes against its committed H200 baselines through the
# wheel's plugin. Writes $OUT/wheel/summary.txt and logs.
#   OUT=/some/dir WHEEL=path/to/counterguard-*.whl validation/wheel_gpu_check.sh
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
repo=$PWD
out=${OUT:-/tmp/counterguard-out}/wheel
mkdir -p "$out"
summary=$out/summary.txt
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
wheel=${WHEEL:-$(find "$repo/.device/dist" -name "counterguard-*.whl" 2>/dev/null | head -n 1)}
[[ -f $wheel ]] || { note "no wheel (WHEEL=... or .device/dist/)"; exit 2; }
python=${PYTHON:-python3}
venv=$(mktemp -d)/venv
unset PYTHONPATH
note "date: $(date -u +%Y-%m-%dT%H:%M:%SZ); wheel: $(basename "$wheel"); python: $("$python" --version 2>&1)"

# The host's Python (itself a venv) holds torch, triton, cupy and pytest: the fresh venv sees its packages
# through a .pth file, after its own, so the wheel's counterguard is the one imported.
started=$(date +%s.%N)
"$python" -m venv "$venv" &&
  "$venv/bin/pip" install -q --no-index --no-deps --no-cache-dir "$wheel" >"$out/pip.log" 2>&1
note "pip install into a fresh venv: exit $? in $(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e-s}') s"
host_packages=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
"$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' |
  { read -r own && echo "$host_packages" >"$own/host_packages.pth"; }
note "counterguard imported from: $("$venv/bin/python" -c 'import counterguard; print(counterguard.__file__)' 2>&1)"
note "counterguard --version: $("$venv/bin/counterguard" --version 2>&1 | head -n 1) ($(command -v "$venv/bin/counterguard"))"

# exec from the wheel's command against the staged tool, on the same program and cases.
demo=$repo/.device/exec_demo
for tool in wheel staged; do
  cg=$venv/bin/counterguard
  [[ $tool == staged ]] && cg=$repo/.device/counterguard
  "$cg" exec --cases tools/exec_demo/demo.yaml --no-baselines --json "$out/exec_$tool.json" -- "$demo" \
    >"$out/exec_$tool.log" 2>&1
  note "exec with the $tool tool: exit $? ($(grep -m1 -E 'cases?:' "$out/exec_$tool.log"))"
done
if "$python" validation/same_results.py "$out/exec_staged.json" "$out/exec_wheel.json" >"$out/same.log" 2>&1; then
  note "exec from the wheel measures what the staged tool measures: same instances, statuses and exact values"
else
  note "exec from the wheel DIFFERS from the staged tool (same.log)"
fi

# The example pytest project through the wheel's plugin, gated by its committed baselines.
(cd examples/python_kernels && timeout 300 "$venv/bin/python" -m pytest -q -p no:cacheprovider) >"$out/pytest.log" 2>&1
note "examples/python_kernels with the wheel's plugin, gated: exit $? ($(tail -n 1 "$out/pytest.log"))"
