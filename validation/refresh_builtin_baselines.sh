#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Refreshes the built-in suite's baselines (baselines/<gpu-key>/) so that each noisy band pools repetitions
# from several machine starts: a noisy counter (achieved occupancy, DRAM bytes, hardware bank conflicts) moves
# more between two starts of the same kind of host than between two runs on one, and a band measured on one
# start alone can fail a clean run on the next.
#
# Run it once per machine start, on a GPU host, with the binaries of tools/stage_for_gpu.sh in .device/:
#   validation/refresh_builtin_baselines.sh sample   # starts 1 .. K-1: REPEAT repetitions into the history
#   validation/refresh_builtin_baselines.sh final    # start K: REPEAT more, pooled with the history's values
# Each call reads what the previous one wrote (STATE_IN, default out/baseline_refresh/: copy the previous
# call's $OUT/history.db and $OUT/starts.txt there and carry that folder) and writes under $OUT:
#   history.db      the history with this start's repetitions added
#   starts.txt      one line per machine start whose repetitions the history holds (host, GPU, time)
#   sample.log      (sample) baseline update's output; the baselines it wrote to a scratch copy are discarded
#   baselines/      (final) the refreshed baselines/ tree, to copy over the repository's
#   summary.md      (final) the change summary for the pull request (baseline update --summary)
#   diff.txt        (final) counterguard baseline diff of the committed baselines against the refreshed ones
#   gated.log       (final) a gated run of the built-in suite against the refreshed baselines (exit 0 expected)
# `final` refuses to run unless starts.txt names at least MIN_STARTS - 1 earlier starts (default 3 in all).
# Environment: REPEAT (5), MIN_STARTS (3), FROM_HISTORY (values pooled per metric; default
# REPEAT * (MIN_STARTS - 1): the earlier starts' repetitions), CASES (cases/).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
mode=${1:-}
if [[ $mode != sample && $mode != final ]]; then
  sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
OUT=${OUT:-/tmp/counterguard-baseline-refresh}
mkdir -p "$OUT"
CG=$PWD/.device/counterguard
REPEAT=${REPEAT:-5}
MIN_STARTS=${MIN_STARTS:-3}
FROM_HISTORY=${FROM_HISTORY:-$((REPEAT * (MIN_STARTS - 1)))}
CASES=${CASES:-cases/}
STATE_IN=${STATE_IN:-out/baseline_refresh}
HISTORY=$OUT/history.db
STARTS=$OUT/starts.txt
export PATH=$PATH:/usr/local/cuda/bin
if [[ -z "${COUNTERGUARD_GIT_COMMIT:-}" && -s .device/commit ]]; then
  COUNTERGUARD_GIT_COMMIT=$(cat .device/commit)  # what tools/stage_for_gpu.sh built from
  export COUNTERGUARD_GIT_COMMIT
fi
[[ -x $CG ]] || { echo "no $CG: run tools/stage_for_gpu.sh on the build machine and carry .device" >&2; exit 2; }

if [[ -f $STATE_IN/history.db && -f $STATE_IN/starts.txt ]]; then
  cp "$STATE_IN/history.db" "$HISTORY"
  cp "$STATE_IN/starts.txt" "$STARTS"
  echo "the history of $(wc -l <"$STARTS") earlier machine start(s), from $STATE_IN"
else
  rm -f "$HISTORY"
  : >"$STARTS"
  echo "no $STATE_IN/history.db and starts.txt: a new history"
fi
this_start="$(hostname) $(nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader | head -1) $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "this start: $this_start"

if [[ $mode == sample ]]; then
  rm -rf /tmp/refresh_scratch && cp -r baselines /tmp/refresh_scratch
  "$CG" baseline update "$CASES" --repeat "$REPEAT" --history "$HISTORY" --baseline-dir /tmp/refresh_scratch \
    >"$OUT/sample.log" 2>&1
  status=$?
  echo "baseline update --repeat $REPEAT (recorded into the history): exit status $status"
  tail -3 "$OUT/sample.log"
  ((status == 0)) && echo "$this_start sample" >>"$STARTS"
  cat "$STARTS"
  exit $status
fi

earlier=$(wc -l <"$STARTS")
if ((earlier < MIN_STARTS - 1)); then
  echo "the history holds $earlier earlier machine start(s): run 'sample' on $((MIN_STARTS - 1 - earlier)) more first" >&2
  exit 2
fi
rm -rf "$OUT/baselines" && cp -r baselines "$OUT/baselines"
"$CG" baseline update "$CASES" --repeat "$REPEAT" --replace-all --from-history "$FROM_HISTORY" \
  --history "$HISTORY" --baseline-dir "$OUT/baselines" --summary "$OUT/summary.md" >"$OUT/final.log" 2>&1
status=$?
echo "baseline update --repeat $REPEAT --replace-all --from-history $FROM_HISTORY: exit status $status"
tail -3 "$OUT/final.log"
((status == 0)) && echo "$this_start final" >>"$STARTS"
cat "$STARTS"
echo "noisy entries by the number of values pooled from the history:"
grep -rhoE "from_history: [0-9]+" "$OUT/baselines" | sort | uniq -c
"$CG" baseline diff baselines "$OUT/baselines" >"$OUT/diff.txt" 2>&1
echo "baseline diff committed -> refreshed: exit status $?"
"$CG" run "$CASES" --baseline-dir "$OUT/baselines" --quiet >"$OUT/gated.log" 2>&1
gated=$?
echo "gated run against the refreshed baselines: exit status $gated"
tail -1 "$OUT/gated.log"
((status == 0)) || exit $status
exit $gated
