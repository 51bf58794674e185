#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Stops the cluster ci/test/slurm/start_slurm.sh DIR started: cancels its jobs (so no job step outlives it), then
# ends each daemon by the process id in its pid file, with SIGKILL for one still there after 10 s.
set -uo pipefail
dir=$(realpath -m "${1:?usage: stop_slurm.sh DIR}")
[[ -f $dir/slurm.conf ]] || exit 0
export SLURM_CONF="$dir/slurm.conf"
if [[ -f $dir/slurmctld.pid ]] && kill -0 "$(cat "$dir/slurmctld.pid")" 2>/dev/null; then
  scancel --quiet --user=root 2>/dev/null
  for _ in $(seq 1 20); do
    [[ -z $(squeue --noheader --format=%i 2>/dev/null) ]] && break
    sleep 0.5
  done
fi

pids=()
for file in "$dir"/slurmd-*.pid "$dir/slurmctld.pid" "$dir/munged.pid"; do
  [[ -f $file ]] || continue
  pid=$(cat "$file")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
  fi
done
for _ in $(seq 1 20); do
  alive=()
  for pid in "${pids[@]}"; do
    kill -0 "$pid" 2>/dev/null && alive+=("$pid")
  done
  ((${#alive[@]})) || exit 0
  sleep 0.5
done
echo "stop_slurm: still running after 10 s, killed: ${alive[*]}" >&2
kill -KILL "${alive[@]}" 2>/dev/null
exit 0
