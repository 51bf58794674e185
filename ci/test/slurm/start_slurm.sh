#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Starts a real Slurm cluster on this machine, everything under DIR (Debian's slurm-wlm and munge; installed here
# when missing and run as root): munged on its own socket and key, slurmctld, and one slurmd per node, all on
# localhost with free ports. Three nodes in two partitions, like a fleet of two GPU kinds:
#   gpu-a: cg-a1, cg-a2 (4 CPUs and 2 "GPUs" each)     gpu-b: cg-b1 (4 CPUs, 1 "GPU")
# There is no GPU here: each node's GPUs are GRES backed by device files that exist everywhere (/dev/null,
# /dev/zero). Slurm allocates them as it allocates GPUs (a task asking --gres=gpu:1 waits for a free one) and sets
# CUDA_VISIBLE_DEVICES from the index of the device it chose, which is what the templates rely on. No cgroups
# (ProctrackType=proctrack/linuxproc, TaskPlugin=task/none), so nothing confines a task to its device.
#   start_slurm.sh DIR [--watch PID]   writes DIR/slurm.conf and DIR/env (`export SLURM_CONF=...`), returns when
#                            every node is idle; ci/test/slurm/stop_slurm.sh DIR stops what it started. With
#                            --watch, a watcher stops it too once process PID has ended, however it ended (a test
#                            killed by its timeout leaves no daemon behind).
set -euo pipefail
dir=$(realpath -m "${1:?usage: start_slurm.sh DIR [--watch PID]}")
watch=""
if [[ ${2:-} == --watch ]]; then
  watch=${3:?"start_slurm: --watch needs a process id"}
fi
here=$(dirname "$(realpath "$0")")

if [[ $(id -u) -ne 0 ]]; then
  echo "start_slurm: slurmd runs jobs as their user and must be root; run as root" >&2
  exit 77
fi
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null ||
   ! command -v sbatch >/dev/null; then
  echo "start_slurm: installing slurm-wlm and munge (Debian)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

rm -rf "$dir"/{state,log,spool}
mkdir -p "$dir"/{state,log,spool}
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
nodes=(cg-a1 cg-a2 cg-b1)

# munge: a key of its own, so that nothing else on the machine can talk to this cluster.
head -c 1024 /dev/urandom >"$dir/munge.key"
chmod 600 "$dir/munge.key"
munged --socket="$dir/munge.socket" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
  --seed-file="$dir/munged.seed" --log-file="$dir/log/munged.log" --force

controller_port=$(free_port)
{
  cat <<EOF
ClusterName=counterguard-test
SlurmctldHost=localhost
SlurmctldPort=$controller_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
# The nodes' CPUs and memory as written here, whatever this machine has.
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1
GresTypes=gpu
MpiDefault=none
MailProg=/bin/true
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
# A job that could never start (a time limit over the partition's) is refused when submitted, not left pending.
EnforcePartLimits=ALL
# Finished jobs stay visible to scontrol for 5 minutes (no accounting database here).
MinJobAge=300
KillWait=5
InactiveLimit=0
EOF
  for node in "${nodes[@]}"; do
    gpus=2
    [[ $node == cg-b1 ]] && gpus=1
    echo "NodeName=$node NodeHostname=localhost NodeAddr=127.0.0.1 Port=$(free_port) CPUs=4 RealMemory=1000" \
         "Gres=gpu:$gpus State=UNKNOWN"
  done
  echo "PartitionName=gpu-a Nodes=cg-a1,cg-a2 Default=YES MaxTime=UNLIMITED State=UP"
  echo "PartitionName=gpu-b Nodes=cg-b1 MaxTime=UNLIMITED State=UP"
} >"$dir/slurm.conf"
cat >"$dir/gres.conf" <<EOF
AutoDetect=off
NodeName=cg-a1,cg-a2 Name=gpu File=/dev/null
NodeName=cg-a1,cg-a2 Name=gpu File=/dev/zero
NodeName=cg-b1 Name=gpu File=/dev/null
EOF
echo "export SLURM_CONF=$dir/slurm.conf" >"$dir/env"
export SLURM_CONF="$dir/slurm.conf"

if [[ -n $watch ]]; then
  setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 2; done; "$2/stop_slurm.sh" "$3"' watcher \
    "$watch" "$here" "$dir" </dev/null >/dev/null 2>&1 &
fi
slurmctld -f "$SLURM_CONF"
for node in "${nodes[@]}"; do
  mkdir -p "$dir/spool/$node"
  slurmd -f "$SLURM_CONF" -N "$node"
done

# Ready when every node is idle (a node slurmd has not registered yet is "unknown" or "down").
for _ in $(seq 1 120); do
  states=$(sinfo --noheader --Node --format=%T 2>/dev/null | sort -u | tr '\n' ' ')
  if [[ $states == "idle " ]]; then
    sinfo
    exit 0
  fi
  sleep 0.5
done
echo "start_slurm: the nodes are not idle after 60 s (states: ${states:-no answer}); logs in $dir/log" >&2
tail -n 20 "$dir"/log/*.log >&2 || true
"$here/stop_slurm.sh" "$dir"
exit 1
