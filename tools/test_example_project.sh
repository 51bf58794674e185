#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds examples/reduction_stencil as a user's project would and runs its tests (no GPU: the static checks,
# the offline evaluation of its recorded H200 counter data against its baselines; its GPU tests skip).
#   tools/test_example_project.sh installed    BUILD_DIR WORK_DIR   # cmake --install, then find_package
#   tools/test_example_project.sh subdirectory BUILD_DIR WORK_DIR   # add_subdirectory of this checkout
#   tools/test_example_project.sh fetchcontent BUILD_DIR WORK_DIR   # FetchContent of this repository's HEAD
# BUILD_DIR is counterguard's own build folder (for `installed`); WORK_DIR a scratch folder (emptied).
set -euo pipefail
mode=$1
build=$(cd "$2" && pwd)
work=$3
source_dir=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work" && mkdir -p "$work"
work=$(cd "$work" && pwd)
configure=(-G Ninja -DCMAKE_BUILD_TYPE=Release)
case "$mode" in
  installed)
    cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
    configure+=(-DCMAKE_PREFIX_PATH="$work/prefix")
    ;;
  subdirectory)
    configure+=(-DREDUCTION_STENCIL_COUNTERGUARD_SOURCE="$source_dir")
    ;;
  fetchcontent)
    # As a user's project fetches a release: a clone of the repository at a commit (committed work only).
    configure+=(-DREDUCTION_STENCIL_COUNTERGUARD_GIT="file://$source_dir"
                -DREDUCTION_STENCIL_COUNTERGUARD_TAG="$(git -C "$source_dir" rev-parse HEAD)")
    ;;
  *)
    echo "usage: $0 installed|subdirectory|fetchcontent BUILD_DIR WORK_DIR" >&2
    exit 2
    ;;
esac
# A user's project is built in its own folder, away from counterguard's tree.
cp -r "$source_dir/examples/reduction_stencil" "$work/project"
cmake -S "$work/project" -B "$work/build" "${configure[@]}"
cmake --build "$work/build"
ctest --test-dir "$work/build" --output-on-failure
# The counterguard tests of the example must really have run (not been filtered away). Not grep -q: it stops
# reading at the first match, and ctest's SIGPIPE would fail the pipeline (pipefail).
ctest --test-dir "$work/build" -N | grep counterguard_static >/dev/null
echo "example project ($mode): built and tested"
