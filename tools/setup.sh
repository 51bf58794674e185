#!/usr/bin/env bash
# Installs what counterguard builds with on a fresh Debian/Ubuntu machine that has the CUDA toolkit
# (nvcc, CUPTI and NVTX under /usr/local/cuda). Idempotent; run as root or with sudo available.
#   --browser  also install headless Chromium (Debian package `chromium`, about 400 MB installed) for the test that
#              loads the HTML report in a browser; without it that test is skipped. CPU CI (.ci/run) uses it.
set -euo pipefail

packages=(cmake ninja-build g++ libyaml-cpp-dev libgtest-dev libcli11-dev nlohmann-json3-dev libfmt-dev
          libmuparser-dev zlib1g-dev libboost-dev libsqlite3-dev libssl-dev liblz4-dev
          libzstd-dev python3 python3-yaml python3-jsonschema python3-pytest python3-pip python3-setuptools python3-wheel
          jq shellcheck)
for argument in "$@"; do
  case "$argument" in
    --browser) packages+=(chromium) ;;
    *) echo "setup: unknown option '$argument' (valid: --browser)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [[ ! -x /usr/local/cuda/bin/nvcc ]]; then
  echo "setup: the CUDA toolkit is missing (/usr/local/cuda/bin/nvcc); install CUDA 13 first" >&2
  exit 1
fi
for header in cupti_range_profiler.h cupti_profiler_host.h nvtx3/nvToolsExt.h; do
  if [[ ! -f /usr/local/cuda/include/$header ]]; then
    echo "setup: /usr/local/cuda/include/$header is missing: install the toolkit's CUPTI and NVTX components" >&2
    exit 1
  fi
done
