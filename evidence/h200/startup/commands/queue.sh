#!/usr/bin/env bash
# --device against --devices all (the queue) on one GPU after the queue took one worker's configuration order.
set -u
export COUNTERGUARD_GIT_COMMIT=$(cat .device/commit)
OUT=$OUT/ev tools/h200_evidence.sh startup 2>&1 | grep -E "round|exit status" | tail -12
for f in device1 device2 device3 devices1 devices2 devices3; do
  python3 tools/same_results.py <(zcat evidence/h200/session_api/final_b987fac/gated1.json.gz) <(zcat "$OUT/ev/startup/$f.json.gz") 2>&1 | tail -2 | sed "s/^/$f: /"
done | tee "$OUT/ev/startup/same_as_b987fac.txt"
for f in devices1 devices2 devices3; do echo "$f: $(grep -c 'prefix built' "$OUT/ev/startup/$f.timeline") session begins"; done | tee -a "$OUT/ev/startup/same_as_b987fac.txt"
rm -f "$OUT/ev/evidence.tar.gz"
(cd "$OUT" && tar -czf /tmp/all.tar.gz . && mv /tmp/all.tar.gz "$OUT/all.tar.gz")
