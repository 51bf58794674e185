#!/usr/bin/env bash
# Style checks: clang-format on every C++/CUDA file (CI runs this), and with --tidy clang-tidy on the harness
# sources against build/compile_commands.json (slow: about 15 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t sources < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh')
clang-format --dry-run --Werror "${sources[@]}"
echo "clang-format: ${#sources[@]} files clean"
if [[ "${1:-}" == "--tidy" ]]; then
  mapfile -t harness < <(git ls-files 'harness/src/*.cpp')
  clang-tidy -p build --quiet "${harness[@]}"
  echo "clang-tidy: ${#harness[@]} files clean"
fi
