#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what counterguard builds with on a Debian 12 or Ubuntu 24.04 machine that has the CUDA toolkit (13.0 or
# newer), and checks the toolkit. Idempotent: installs only the packages that are missing, through sudo when not
# run as root. The toolkit is found the way counterguard's CMake finds it: CUDACXX, CUDAToolkit_ROOT, CUDA_HOME,
# nvcc on PATH, then /usr/local/cuda.
#   --browser  also install headless Chromium (Debian package `chromium`, about 400 MB installed) for the test that
#              loads the HTML report in a browser; without it that test is skipped. CPU CI (.ci/run) uses it.
set -euo pipefail

packages=(cmake ninja-build g++ libyaml-cpp-dev libgtest-dev libcli11-dev nlohmann-json3-dev libfmt-dev
          libmuparser-dev zlib1g-dev libboost-dev libsqlite3-dev libssl-dev liblz4-dev
          libzstd-dev python3 python3-yaml python3-jsonschema python3-pytest python3-pip python3-setuptools python3-wheel
          jq shellcheck patchelf)
for argument in "$@"; do
  case "$argument" in
    --browser) packages+=(chromium) ;;
    *) echo "setup: unknown option '$argument' (valid: --browser)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    as_root=()
  elif command -v sudo >/dev/null; then
    as_root=(sudo)
  else
    echo "setup: these packages are missing and installing them needs root or sudo: ${missing[*]}" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: every package is installed"
fi

cuda_root=""
if [[ -n ${CUDACXX:-} && -x ${CUDACXX} ]]; then
  cuda_root=$(dirname "$(dirname "$CUDACXX")")
else
  for candidate in "${CUDAToolkit_ROOT:-}" "${CUDA_HOME:-}"; do
    if [[ -n $candidate && -x $candidate/bin/nvcc ]]; then
      cuda_root=$candidate
      break
    fi
  done
fi
if [[ -z $cuda_root ]] && command -v nvcc >/dev/null; then
  cuda_root=$(dirname "$(dirname "$(command -v nvcc)")")
fi
if [[ -z $cuda_root && -x /usr/local/cuda/bin/nvcc ]]; then
  cuda_root=/usr/local/cuda
fi
if [[ -z $cuda_root ]]; then
  echo "setup: no CUDA toolkit found (CUDACXX, CUDAToolkit_ROOT, CUDA_HOME, nvcc on PATH, /usr/local/cuda);" \
       "install CUDA 13 and set CUDA_HOME to it" >&2
  exit 1
fi
version=$("$cuda_root/bin/nvcc" --version | sed -n 's/.*release \([0-9]*\.[0-9]*\).*/\1/p')
if [[ -z $version || ${version%%.*} -lt 13 ]]; then
  echo "setup: $cuda_root is CUDA ${version:-of unknown version}; counterguard needs CUDA 13.0 or newer" \
       "(CUPTI's CUDA 13 launch callbacks)" >&2
  exit 1
fi
for header in cupti_range_profiler.h cupti_profiler_host.h nvtx3/nvToolsExt.h; do
  if [[ ! -f $cuda_root/include/$header && ! -f $cuda_root/extras/CUPTI/include/$header ]]; then
    echo "setup: $header is missing from $cuda_root: install the toolkit's CUPTI and NVTX components" >&2
    exit 1
  fi
done
echo "setup: CUDA $version in $cuda_root"
