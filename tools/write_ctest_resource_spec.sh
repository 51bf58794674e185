#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Writes a CTest resource spec file with one "gpus" resource per GPU of this host, ids = CUDA device ordinals,
# one slot each (counterguard profiles one case per GPU at a time):
#   tools/write_ctest_resource_spec.sh gpus.json            # GPUs from nvidia-smi
#   tools/write_ctest_resource_spec.sh gpus.json --count 2  # without nvidia-smi
#   ctest --test-dir build -L gpu -j 2 --resource-spec-file gpus.json
# nvidia-smi numbers GPUs in PCI bus order; so does CUDA for identical GPUs, and exactly with
# CUDA_DEVICE_ORDER=PCI_BUS_ID. Either way each id is a distinct GPU. Honours CUDA_VISIBLE_DEVICES' count.
set -euo pipefail
usage() { echo "usage: $0 OUTPUT.json [--count N]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
output=$1
shift
count=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --count) [[ $# -ge 2 ]] || usage; count=$2; shift 2 ;;
    *) usage ;;
  esac
done
if [[ -z $count ]]; then
  if ! command -v nvidia-smi > /dev/null; then
    echo "$0: nvidia-smi not found; give --count N" >&2
    exit 3
  fi
  count=$(nvidia-smi --query-gpu=index --format=csv,noheader | grep -c .)
  if [[ -n ${CUDA_VISIBLE_DEVICES:-} ]]; then
    visible=$(tr ',' '\n' <<< "$CUDA_VISIBLE_DEVICES" | grep -c .)
    (( visible < count )) && count=$visible
  fi
fi
[[ $count =~ ^[0-9]+$ ]] || usage
gpus=""
for ((i = 0; i < count; i++)); do
  gpus+="${gpus:+, }{\"id\": \"$i\", \"slots\": 1}"
done
printf '{\n  "version": {"major": 1, "minor": 0},\n  "local": [{"gpus": [%s]}]\n}\n' "$gpus" > "$output"
echo "$output: $count GPUs" >&2
