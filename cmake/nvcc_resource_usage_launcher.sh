#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Compiler launcher for kernel sources: runs the real nvcc command with --resource-usage and keeps the
# ptxas report beside the object file (<object>.resource-usage), so the static report comes from the very
# compilation that produced the binary, with its exact flags.
set -u
object=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  if [[ "${args[$i]}" == "-o" ]]; then object="${args[$((i + 1))]}"; fi
done
if [[ -z "$object" ]]; then exec "$@"; fi

log=$(mktemp)
"$@" --resource-usage 2>"$log"
status=$?
report="${object}.resource-usage"
{
  echo "# counterguard resource usage"
  for a in "$@"; do
    case "$a" in
      -maxrregcount* | --maxrregcount* | -D*VARIANT* | -G | --use_fast_math | -Xptxas*)
        echo "# flag: $a" ;;
    esac
  done
  grep -E '^ptxas info|^ *[0-9]+ bytes stack frame' "$log"
} >"${report}.tmp" && mv "${report}.tmp" "$report"
# Everything that is not the resource report (warnings, errors) goes to the build log as usual.
grep -v -E '^ptxas info|^ *[0-9]+ bytes stack frame' "$log" >&2
rm -f "$log"
exit $status
