#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Records ci/test/pytest_project's pytest session on a GPU host (--counterguard-save-counter-data), the fixture
# harness/test/fixtures/h200_pytest_session that the CPU template tests gate and refresh (ci/test/test_ci_pytest_modes.py),
# then judges the recording again on the same host (--counterguard-from-recording) and compares the two results files
# case by case: they must be equal. Writes $OUT/h200_pytest_session/ (the recording), $OUT/record_pytest_session.txt
# (the summary) and $OUT/record_pytest_session.tar.gz (both, and the logs).
#
#   validation/python_plugin.sh stage          on the build machine (build/python -> .device/python)
#   validation/record_pytest_session.sh        on the GPU host, from the repository root (carry .device)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
out=${OUT:-/tmp/counterguard-out}
work="$out/record_pytest_session"
recording="$out/h200_pytest_session"
python=${PYTHON:-python3}
rm -rf "$work" "$recording"
mkdir -p "$work"
[[ -d .device/python/counterguard ]] || { echo "record_pytest_session: no .device/python: run validation/python_plugin.sh stage here first" >&2; exit 2; }
export PYTHONPATH="$root/.device/python" PYTHONDONTWRITEBYTECODE=1
export COUNTERGUARD_GIT_COMMIT
COUNTERGUARD_GIT_COMMIT=$(cat .device/python/commit 2>/dev/null || echo unknown)
summary="$out/record_pytest_session.txt"
: >"$summary"
note() { echo "$*" | tee -a "$summary"; }
project="$root/ci/test/pytest_project"

cd "$project" || exit 2
note "commit: $COUNTERGUARD_GIT_COMMIT; $("$python" --version 2>&1); $(nvidia-smi -L 2>&1 | head -1)"
"$python" -m pytest -p no:cacheprovider --counterguard-save-counter-data="$recording" \
  --counterguard-json="$work/gpu.json" >"$work/record.log" 2>&1
note "recording session: exit status $? ($(tail -1 "$work/record.log"))"
"$python" -m pytest -p no:cacheprovider --counterguard-from-recording="$recording" \
  --counterguard-json="$work/recorded.json" >"$work/judge.log" 2>&1
note "judged from the recording: exit status $? ($(tail -1 "$work/judge.log"))"
"$python" - "$work/gpu.json" "$work/recorded.json" <<'PY' | tee -a "$summary"
import json, sys
gpu, recorded = (json.load(open(path))["cases"] for path in sys.argv[1:])
values = sum(len(case["checks"]) for case in gpu)
same = [a == b for a, b in zip(gpu, recorded)]
print(f"cases: {len(gpu)} on the GPU, {len(recorded)} from the recording; {sum(same)} identical "
      f"({values} checks); {'EQUAL' if len(gpu) == len(recorded) and all(same) else 'DIFFERENT'}")
for a, b in zip(gpu, recorded):
    if a != b:
        print(f"  differs: {a['instance']}")
PY
cd "$root" || exit 2
du -sh "$recording" | tee -a "$summary"
tar -czf "$out/record_pytest_session.tar.gz" -C "$out" h200_pytest_session record_pytest_session record_pytest_session.txt
echo "commit the recording: tar -xzf record_pytest_session.tar.gz h200_pytest_session && mv h200_pytest_session harness/test/fixtures/"
