#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# On a GPU host without Slurm: the Slurm gate's task scripts (ci/slurm/gate-shard.sbatch, gate-merge.sbatch) run
# by `ci/slurm/counterguard_slurm.py gate --local`, each shard a process on the GPU (on one GPU the shards queue
# on counterguard's GPU lock; with several, CUDA_VISIBLE_DEVICES is dealt out as Slurm would), merged, and compared
# with one unsharded `run` of the built-in suite by validation/same_results.py (same instances, statuses, checks
# and exact values). Writes $OUT/summary.txt and packs the results and logs into $OUT/slurm_driver_gpu.tar.gz.
# The binary comes from the CPU machine (tools/stage_for_gpu.sh -> .device/; CG=... names another).
#   OUT=/some/dir validation/slurm_driver_gpu.sh [SHARDS]      (default 4 shards; about 2 minutes on one H200)
# MEASURE="evaluate harness/test/fixtures/h200_builtin --cases cases" runs the same comparison over the recording
# (a machine without a GPU: the script's own check).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
REPO=$PWD
OUT=${OUT:-/tmp/counterguard-slurm-driver}
CG=${CG:-$REPO/.device/counterguard}
SHARDS=${1:-4}
read -r -a measure <<<"${MEASURE:-run cases --require-gpu}"
mkdir -p "$OUT"
summary=$OUT/summary.txt
: >"$summary"
pack() {
  (cd "$OUT" && tar -czf /tmp/slurm_driver_gpu.tar.gz --exclude slurm_driver_gpu.tar.gz --exclude summary.txt . &&
     mv /tmp/slurm_driver_gpu.tar.gz "$OUT/")
}
trap pack EXIT
note() { echo "$*" | tee -a "$summary"; }

note "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
gpus=""
if command -v nvidia-smi >/dev/null; then
  gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | paste -sd, -)
  note "gpus: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | paste -sd';' -) (indexes $gpus)"
fi
note "measure: ${measure[*]}"
note "counterguard: $("$CG" --version 2>&1 | head -n 1), commit $(cat "$REPO/.device/commit" 2>/dev/null || echo ?)"

# Warm-up (driver, module loading), then the reference: one unsharded run.
"$CG" "${measure[@]}" --quiet --json "$OUT/warmup.json" >/dev/null 2>&1
started=$EPOCHREALTIME
"$CG" "${measure[@]}" --quiet --json "$OUT/whole.json" >"$OUT/whole.log" 2>&1
whole_status=$?
whole_s=$(python3 -c "print($EPOCHREALTIME - $started)")
note "unsharded run: exit $whole_status, $(printf %.1f "$whole_s") s"

rm -rf "$OUT/gate"
started=$EPOCHREALTIME
python3 ci/slurm/counterguard_slurm.py gate --local ${gpus:+--local-gpus "$gpus"} --shards "$SHARDS" --results "$OUT/gate" \
  --runner "$CG" --merge-argument=--quiet -- "${measure[@]}" --quiet >"$OUT/gate.log" 2>&1
gate_status=$?
gate_s=$(python3 -c "print($EPOCHREALTIME - $started)")
note "driver --local, $SHARDS shards: exit $gate_status, $(printf %.1f "$gate_s") s"
for log in "$OUT"/gate/logs/shard-*.log; do
  note "  $(head -n 1 "$log")"
done

python3 validation/same_results.py "$OUT/whole.json" "$OUT/gate/results.json" >"$OUT/same_results.txt" 2>&1
same_status=$?
note "same_results.py whole.json gate/results.json: exit $same_status ($(tail -n 1 "$OUT/same_results.txt"))"
python3 - "$OUT/whole.json" "$OUT/gate/results.json" <<'PY' | tee -a "$summary"
import json, sys
whole, merged = (json.load(open(p)) for p in sys.argv[1:])
def counts(results):
    s = results["summary"]
    return (f"{s['passed']} passed, {s['failed']} failed, {s['skipped']} skipped, {s['checks']['pass']} checks pass, "
            f"{s['checks']['regression']} regressions")
print(f"unsharded: {len(whole['cases'])} instances, {counts(whole)}")
print(f"merged:    {len(merged['cases'])} instances, {counts(merged)}")
PY
if ((whole_status == gate_status && same_status == 0)); then
  note "verdict: the merged shards give the unsharded run's results"
  exit 0
fi
note "verdict: DIFFERENT"
exit 1
