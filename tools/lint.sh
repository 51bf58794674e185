#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Style checks: clang-format on every C++/CUDA file (CI runs this), release hygiene (SPDX lines, version
# references), and with --tidy clang-tidy on the harness sources against build/compile_commands.json (slow: about
# 15 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t sources < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh')
clang-format --dry-run --Werror "${sources[@]}"
echo "clang-format: ${#sources[@]} files clean"

# Every source, script and build file carries its licence line (tools/add_spdx_headers.sh adds it), once the
# tree has them: checked from the moment the top-level CMakeLists.txt carries one.
if grep -q 'SPDX-License-Identifier' CMakeLists.txt; then
  ./tools/add_spdx_headers.sh --check
else
  echo "spdx: the tree has no SPDX lines yet (tools/add_spdx_headers.sh adds them); not checked"
fi

# Nothing generated is committed (Python byte code comes back whenever a script is compiled or run).
generated=$(git ls-files | grep -E '(^|/)__pycache__/|\.py[co]$' || true)
if [[ -n $generated ]]; then
  echo "generated files are tracked (git rm --cached them):" >&2
  echo "$generated" >&2
  exit 1
fi

# An area's private headers (harness/src/counterguard/<area>/detail/) are its own: the area includes them by
# relative path, and nothing includes them as counterguard/<area>/detail/... .
private=$(git grep -n -E '#include [<"]counterguard/[a-z_]+/detail/' -- '*.cpp' '*.hpp' '*.cu' '*.cuh' || true)
if [[ -n $private ]]; then
  echo "private headers included from outside their area (move what is shared out of detail/):" >&2
  echo "$private" >&2
  exit 1
fi

# The version is set once, in project(); what users copy names the same release.
version=$(sed -n 's/^project(counterguard VERSION \([0-9]*\.[0-9]*\.[0-9]*\).*/\1/p' CMakeLists.txt)
[[ -n $version ]] || { echo "version: no project(counterguard VERSION x.y.z) in CMakeLists.txt" >&2; exit 1; }
stale=$( {
  git grep -n -E 'ref: v[0-9]+\.[0-9]+\.[0-9]+' -- '*.md' '*.yml' '*.yaml' | grep -v "ref: v$version\b" || true
  git grep -n -E 'find_package\(counterguard [0-9]+\.[0-9]+' -- '*.md' '*.txt' '*.cmake' '*.in' |
    grep -v "find_package(counterguard ${version%.*}[ .)]" || true
  grep -q "^## \[$version\]" CHANGELOG.md || echo "CHANGELOG.md: no '## [$version]' entry"
  grep -q "^__version__ = \"$version\"$" python/counterguard/__init__.py ||
    echo "python/counterguard/__init__.py: __version__ is not \"$version\""
} )
if [[ -n $stale ]]; then
  echo "version: these name another release than $version (CMakeLists.txt):" >&2
  echo "$stale" >&2
  exit 1
fi
echo "version: $version everywhere"

if [[ "${1:-}" == "--tidy" ]]; then
  mapfile -t harness < <(git ls-files 'harness/src/*.cpp')
  clang-tidy -p build --quiet "${harness[@]}"
  echo "clang-tidy: ${#harness[@]} files clean"
fi
