#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs a counterguard release tarball and checks that it runs: the install step of packaging/Dockerfile, and
# what a CI job without containers runs. CPU CI runs it in a clean folder (tools/test_release.sh).
#   packaging/install_release.sh TARBALL [PREFIX]
# TARBALL is a file or an http(s) URL of counterguard-<version>-linux-<arch>.tar.gz; when TARBALL.sha256 exists
# beside it (or at the URL) the tarball must match it. PREFIX defaults to /opt/counterguard. Needs tar and gzip
# (curl or wget for a URL); no root unless PREFIX needs it. Profiling needs an NVIDIA driver for CUDA 13 (R580 or
# newer) at run time; installing and the static checks need no GPU.
set -euo pipefail
if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 TARBALL|URL [PREFIX]" >&2
  exit 2
fi
source=$1
prefix=${2:-/opt/counterguard}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

fetch() {  # fetch URL FILE
  if command -v curl >/dev/null; then curl -fsSL -o "$2" "$1"; else wget -q -O "$2" "$1"; fi
}
case "$source" in
  http://* | https://*)
    tarball=$scratch/$(basename "$source")
    fetch "$source" "$tarball"
    fetch "$source.sha256" "$tarball.sha256" 2>/dev/null || rm -f "$tarball.sha256"
    ;;
  *)
    tarball=$(cd "$(dirname "$source")" && pwd)/$(basename "$source")
    ;;
esac
[[ -f $tarball ]] || { echo "install_release: no tarball at $source" >&2; exit 1; }
if [[ -f $tarball.sha256 ]]; then
  (cd "$(dirname "$tarball")" && echo "$(cut -d' ' -f1 "$tarball.sha256")  $(basename "$tarball")" | sha256sum -c --quiet) ||
    { echo "install_release: $tarball does not match $tarball.sha256" >&2; exit 1; }
fi

# The tarball holds one top folder, counterguard-<version>-linux-<arch>/: its contents become PREFIX.
mkdir -p "$prefix"
tar -xzf "$tarball" -C "$prefix" --strip-components=1
prefix=$(cd "$prefix" && pwd)

# It runs from there, with no library path and from any folder.
cd "$scratch"
"$prefix/bin/counterguard" --version
"$prefix/bin/counterguard" static "$prefix/share/counterguard/cases" --quiet
echo "counterguard is installed in $prefix: add $prefix/bin to PATH; CMake projects find it with" \
     "-DCMAKE_PREFIX_PATH=$prefix"
