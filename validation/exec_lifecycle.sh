#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The lifecycle of a program nobody prepared for counterguard, on a GPU, for each of the three programs of
# validation/exec_programs (a GoogleTest binary, a command-line benchmark, a PyTorch + Triton script):
#   1. counterguard record SUITE -- PROGRAM                   (the suite, written from what it launched)
#   2. counterguard baseline update SUITE --repeat 5 -- PROGRAM   (the baselines)
#   3. the planted regressions, each gated with exec: it must fail on the metric named
#   4. RUNS gated runs of the unchanged program, counting false alarms (round robin, within TIME_BUDGET s)
# Writes summary.md, summary.json and lifecycle.tar.gz (suites, baselines, results) to OUT.
#   validation/exec_lifecycle.sh COUNTERGUARD PROGRAMS_DIR OUT [RUNS] [TIME_BUDGET]
# PROGRAMS_DIR holds mathlib_tests, mathlib_tests_small_tile, bench, bench_spill and add_autotune.py (built as
# validation/exec_programs/*/ say).
set -uo pipefail
cg=$(realpath "$1")
programs=$(realpath "$2")
out=$(realpath "$3")
runs=${4:-20}
budget=${5:-200}
work=$(mktemp -d)
export TRITON_CACHE_DIR=$work/triton_cache
mkdir -p "$out"
start=$SECONDS
log() { echo "[$((SECONDS - start))s] $*" >&2; }

# name | program | planted label | planted program | metric the planted change must fail on
declare -a specs=(
  "mathlib|$programs/mathlib_tests|bank conflict (MATHLIB_SMALL_TILE=ON)|$programs/mathlib_tests_small_tile|shared_load_bank_conflicts"
  "bench|$programs/bench saxpy,stencil --iters 3000|uncoalesced load (--stride 8)|$programs/bench saxpy,stencil --iters 3000 --stride 8|global_load_sectors_per_request"
  "bench|$programs/bench saxpy,stencil --iters 3000|spill (MAXRREG=24)|$programs/bench_spill saxpy,stencil --iters 3000|spill_store_bytes"
  "triton|python3 $programs/add_autotune.py|Triton config change (ADD_CONFIGS=wide)|env ADD_CONFIGS=wide python3 $programs/add_autotune.py|launch_registers_per_thread"
)

# The checks of a results file: "verdict metric case" per failing check.
failing_checks() {
  python3 - "$1" <<'PY'
import json, sys
try:
    results = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"unreadable {e}")
    sys.exit()
for case in results["cases"]:
    for check in case["checks"]:
        if check.get("failing"):
            print(check["verdict"], check["metric"], case["instance"], check.get("measured"), check.get("baseline"))
PY
}

declare -A recorded
: >"$work/planted.txt"
for spec in "${specs[@]}"; do
  IFS='|' read -r name program label planted metric <<<"$spec"
  dir=$work/$name
  mkdir -p "$dir"
  if [[ -z ${recorded[$name]:-} ]]; then
    recorded[$name]=$program
    # shellcheck disable=SC2086  # the program's words
    (cd "$dir" && "$cg" record "$name.yaml" -- $program) >"$dir/record.log" 2>&1
    log "$name: record exit $? ($(grep -c '^  - name:' "$dir/$name.yaml" 2>/dev/null) cases)"
    # shellcheck disable=SC2086
    (cd "$dir" && "$cg" baseline update "$name.yaml" --repeat 5 --baseline-dir baselines --summary refresh.md -- $program) \
      >"$dir/baseline.log" 2>&1
    log "$name: baseline update exit $? ($(grep -c 'value:' "$dir"/baselines/*/"$name.yaml" 2>/dev/null) entries)"
  fi
  # shellcheck disable=SC2086
  (cd "$dir" && "$cg" exec "$name.yaml" --baseline-dir baselines --quiet --json "planted-${metric}.json" -- $planted) \
    >"$dir/planted-${metric}.log" 2>&1
  status=$?
  checks=$(failing_checks "$dir/planted-${metric}.json")
  caught=no
  if [[ $status -eq 1 ]] && grep -q "^regression $metric " <<<"$checks"; then caught=yes; fi
  printf '%s|%s|%s|%s|%s\n' "$name" "$label" "$metric" "$caught" "$(echo "$checks" | awk '{print $1" "$2}' | sort | uniq -c | tr '\n' ';')" \
    >>"$work/planted.txt"
  log "$name: planted $label: exit $status, caught on $metric: $caught"
done

declare -A gated alarms
for name in mathlib bench triton; do gated[$name]=0; alarms[$name]=0; done
: >"$work/alarms.txt"
for ((i = 1; i <= runs; ++i)); do
  for name in mathlib bench triton; do
    if ((SECONDS - start > budget)); then break 2; fi
    dir=$work/$name
    # shellcheck disable=SC2086
    (cd "$dir" && "$cg" exec "$name.yaml" --baseline-dir baselines --quiet --json "gated-$i.json" -- ${recorded[$name]}) \
      >"$dir/gated-$i.log" 2>&1
    status=$?
    gated[$name]=$((gated[$name] + 1))
    if [[ $status -ne 0 ]]; then
      alarms[$name]=$((alarms[$name] + 1))
      echo "$name run $i exit $status: $(failing_checks "$dir/gated-$i.json" | tr '\n' ';')" >>"$work/alarms.txt"
    fi
  done
done
log "gated runs: mathlib ${gated[mathlib]}, bench ${gated[bench]}, triton ${gated[triton]}"

{
  echo "# exec lifecycle on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo
  echo "| program | cases written (gating / skipped) | baseline entries | noisy entries | gated runs | false alarms |"
  echo "|---|---|---|---|---|---|"
  for name in mathlib bench triton; do
    dir=$work/$name
    total=$(grep -c '^  - name:' "$dir/$name.yaml" 2>/dev/null)
    skipped=$(grep -c '^    skip:' "$dir/$name.yaml" 2>/dev/null)
    entries=$(grep -c 'value:' "$dir"/baselines/*/"$name.yaml" 2>/dev/null)
    noisy=$(grep -c 'class: noisy' "$dir"/baselines/*/"$name.yaml" 2>/dev/null)
    echo "| $name | $((total - skipped)) / $skipped | $entries | $noisy | ${gated[$name]} | ${alarms[$name]} |"
  done
  echo
  echo "| program | planted regression | must fail on | caught | failing checks (verdict metric) |"
  echo "|---|---|---|---|---|"
  while IFS='|' read -r name label metric caught checks; do
    echo "| $name | $label | \`$metric\` | $caught | $checks |"
  done <"$work/planted.txt"
  echo
  echo "False alarms:"
  if [[ -s $work/alarms.txt ]]; then sed 's/^/- /' "$work/alarms.txt"; else echo "- none"; fi
  echo
  echo "Elapsed: $((SECONDS - start)) s"
} >"$out/summary.md"
cat "$out/summary.md"
python3 - "$work" "$out/summary.json" <<'PY'
import json, pathlib, sys
work = pathlib.Path(sys.argv[1])
summary = {}
for name in ["mathlib", "bench", "triton"]:
    d = work / name
    summary[name] = {
        "gated": len(list(d.glob("gated-*.json"))),
        "gated_failed": sum(1 for f in d.glob("gated-*.json")
                            if any(c["status"] == "failed" for c in json.load(open(f))["cases"])),
    }
summary["planted"] = [line.split("|") for line in (work / "planted.txt").read_text().splitlines()]
json.dump(summary, open(sys.argv[2], "w"), indent=2)
PY
tar -C "$work" --exclude=triton_cache --exclude='gated-[2-9]*.json' --exclude='gated-1[0-9]*.json' \
  -czf "$out/lifecycle.tar.gz" mathlib bench triton planted.txt alarms.txt
rm -rf "$work"
