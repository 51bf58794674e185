#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The size of the HTML report of the built-in recording (harness/test/fixtures/h200_builtin), evaluated against
# the committed baselines, without a history and with a history of 30 runs. No GPU needed.
# The 30 runs are the recording's results, each with its own start time and commit and its noisy values moved
# by a few tenths of a percent (as repeated runs of unchanged code move them), imported into a fresh history;
# the report then plots the last 30 runs the history holds for the GPU key.
# Usage: validation/html_report_size.sh [COUNTERGUARD] [WORK_DIR]   (defaults: build/counterguard, a temp dir)
set -euo pipefail
cd "$(dirname "$0")/.."
CG=$(realpath "${1:-build/counterguard}")
WORK=${2:-$(mktemp -d)}
mkdir -p "$WORK"
recording=harness/test/fixtures/h200_builtin

"$CG" evaluate "$recording" --cases cases --quiet --json "$WORK/evaluated.json" --html "$WORK/report.html" >/dev/null
python3 - "$WORK" <<'PY'
import copy, json, sys
work = sys.argv[1]
base = json.load(open(f"{work}/evaluated.json"))
for run in range(30):
    results = copy.deepcopy(base)
    results["metadata"]["started_at"] = f"2026-11-{run // 24 + 1:02d}T{run % 24:02d}:00:00Z"
    results["metadata"]["git_commit"] = f"{run + 1:040x}"
    wobble = 1.0 + 0.002 * ((run * 7) % 5 - 2)  # -0.4% .. +0.4%, the same for every noisy value of a run
    for case in results["cases"]:
        noisy = {m for m, t in case["totals"].items() if t["class"] == "noisy"}
        for metric in noisy:
            case["totals"][metric]["value"] *= wobble
        for launch in case["kernels"]:
            for metric in noisy & set(launch["metrics"]):
                launch["metrics"][metric] *= wobble
        for check in case["checks"]:
            if check["metric"] in noisy and check.get("measured") is not None:
                check["measured"] *= wobble
    json.dump(results, open(f"{work}/run{run:02d}.json", "w"))
PY
rm -f "$WORK/history.db"
"$CG" history import --history "$WORK/history.db" "$WORK"/run*.json | tail -1
# The report's own run is the 31st in the history; the page plots the last 30.
"$CG" evaluate "$recording" --cases cases --quiet --history "$WORK/history.db" --html "$WORK/report_history.html" \
  >/dev/null
without=$(stat -c %s "$WORK/report.html")
with=$(stat -c %s "$WORK/report_history.html")
echo "without history: $without bytes ($((without / 1024)) KiB)"
echo "with 30 runs:    $with bytes ($((with / 1024)) KiB), $(grep -o '<svg class="cg-plot' "$WORK/report_history.html" | wc -l) plots"
echo "pages in $WORK"
