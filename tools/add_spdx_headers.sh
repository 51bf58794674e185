#!/usr/bin/env bash
# Gives every tracked source, script, CMake file and Dockerfile an "SPDX-License-Identifier: Apache-2.0" line, in
# a comment of its language. Idempotent: a file that has one is left as it is.
#   tools/add_spdx_headers.sh           add the line where it is missing
#   tools/add_spdx_headers.sh --check   list the files without it; exit status 1 when there are any
# The line goes first (after a #! line). CUDA sources (.cu, .cuh) and everything under kernels/ take it as their
# last line instead: their line numbers are in the line tables of the compiled kernels, which the recorded counter
# data, the line baselines and the docs cite (transpose.cu:34), and must not move.
set -euo pipefail
cd "$(dirname "$0")/.."
# (Spelled in two parts, so that this script is not mistaken for a file that has the line.)
tag="SPDX-License-""Identifier: Apache-2.0"
check=false
case "${1:-}" in
  --check) check=true ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

# Sources, scripts and build files by name; extensionless scripts by their #! line.
mapfile -t files < <(
  {
    git ls-files -- '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h' '*.c' '*.cpp.in' '*.hpp.in' '*.sh' '*.py' '*.cmake' \
                    '*.cmake.in' '*CMakeLists.txt' '*Dockerfile'
    git ls-files -s | awk '$1 == "100755" { print $4 }' | while IFS= read -r file; do
      [[ -f $file ]] && head -c 2 "$file" | grep -q '^#!' && echo "$file"
    done
  } | sort -u)

comment_for() {
  case "$1" in
    *.cpp | *.hpp | *.cu | *.cuh | *.h | *.c | *.cpp.in | *.hpp.in) echo "// $tag" ;;
    *) echo "# $tag" ;;
  esac
}
goes_last() {
  case "$1" in
    *.cu | *.cuh | kernels/*) return 0 ;;
    *) return 1 ;;
  esac
}

missing=0
changed=0
for file in "${files[@]}"; do
  [[ -f $file ]] || continue  # deleted in the working tree
  grep -q "$tag" "$file" && continue
  if $check; then
    echo "$file"
    missing=$((missing + 1))
    continue
  fi
  line=$(comment_for "$file")
  if goes_last "$file"; then
    # A file that does not end in a newline gets one first.
    [[ -s $file && $(tail -c 1 "$file") != "" ]] && echo >>"$file"
    echo "$line" >>"$file"
  elif [[ ! -s $file ]]; then
    echo "$line" >"$file"
  elif head -c 2 "$file" | grep -q '^#!'; then
    sed -i "1a\\$line" "$file"
  else
    sed -i "1i\\$line" "$file"
  fi
  changed=$((changed + 1))
done
if $check; then
  if ((missing > 0)); then
    echo "spdx: $missing of ${#files[@]} files have no '$tag' line (tools/add_spdx_headers.sh adds it)" >&2
    exit 1
  fi
  echo "spdx: ${#files[@]} files carry '$tag'"
else
  echo "spdx: added the line to $changed files (${#files[@]} checked)"
fi
