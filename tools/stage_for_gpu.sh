#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copies what a GPU host needs from build/ into .device/ (git-ignored), so the device tool can carry it:
# the counterguard binary and the Debian libraries it bundles. Object files stay behind (size limit).
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .device
mkdir -p .device/lib
cp build/counterguard .device/
cp -L build/lib/*.so* .device/lib/
# `counterguard exec`: the injection library it loads into programs (found next to the binary) and the plain
# CUDA application validation/exec_checks.sh runs it on.
cp build/libcounterguard_injection.so .device/
if [[ -x build/tools/exec_demo/exec_demo ]]; then
  cp build/tools/exec_demo/exec_demo .device/
fi
# Test programs validation/gpu_checks.sh runs on the GPU (stage floor).
mkdir -p .device/tests
for test in harness/test/device/device_fill_tests harness/test/registry/host_work_benchmark; do
  if [[ -x build/$test ]]; then cp "build/$test" .device/tests/; fi
done
# The planted-regression binary (cmake -DCOUNTERGUARD_PLANT_REGISTER_LIMIT=32 in build-planted), if built.
if [[ -x build-planted/counterguard ]]; then
  mkdir -p .device/planted/lib
  cp build-planted/counterguard .device/planted/
  cp -L build-planted/lib/*.so* .device/planted/lib/
fi
# The example user project (tools/test_example_project.sh builds it; build-example and build-example-planted
# here are built the same way, the second with -DREDUCTION_STENCIL_PLANT_BANK_CONFLICTS=ON).
for variant in example example-planted; do
  if [[ -x build-$variant/reduction_stencil_counterguard ]]; then
    target=.device/example
    [[ $variant == example-planted ]] && target=.device/example/planted
    mkdir -p "$target/lib"
    cp build-$variant/reduction_stencil_counterguard build-$variant/reduction_stencil_tests "$target/"
    cp -L build-$variant/lib/*.so* "$target/lib/"
  fi
done
# The commit the binaries were built from: results and baselines written there record it (the device's copy of
# the tree may carry another .git).
git rev-parse HEAD >.device/commit
du -sh .device
