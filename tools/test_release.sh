#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The release tarball, tested as a user meets it (ctest label "release"; .ci/run runs it):
#   tools/test_release.sh BUILD_DIR [WORK_DIR]
#  1. cpack packs BUILD_DIR's install tree; the tarball is unpacked into WORK_DIR (outside the source tree; by
#     default a temporary folder, removed when the test passes) and
#     the folder moved, so nothing can depend on where it was built or first unpacked.
#  2. Every ELF file finds its libraries through run paths relative to itself ($ORIGIN); the installed headers
#     are the user API only (at most 25, no counterguard::detail) and each compiles on its own against the
#     package. The JSON Schemas and the pages README.md links to ship, and their relative links resolve.
#  3. From a clean environment and a folder outside the source tree: `counterguard --version` and
#     `counterguard static` on the built-in suites the tarball carries; packaging/install_release.sh (the
#     container recipe's install step) installs and checks it again; the Python package it carries imports and
#     loads its C ABI library with the bundled libraries; the tarball carries the wheel (share/counterguard/python).
#  3b. The Debian package cpack writes with it: its control fields, then unpacked into a scratch root
#     (dpkg-deb -x: no root, the machine untouched), its tool and Python package run from there.
#  4. examples/reduction_stencil is built against the unpacked package on a machine from which counterguard's
#     -dev packages are hidden (tools/without_packages.py, in a private mount namespace), then its tests run:
#     the static checks and the recorded H200 counter data evaluated against its baselines. The time from the
#     unpacked tarball to that gated example is printed.
set -euo pipefail
build=$(cd "$1" && pwd)
source_dir=$(cd "$(dirname "$0")/.." && pwd)
if [[ $# -ge 2 ]]; then
  work=$2
  rm -rf "$work" && mkdir -p "$work"
  work=$(cd "$work" && pwd)
  remove_work=false
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/counterguard-release-XXXXXX")
  remove_work=true
fi
case "$work/" in
  "$source_dir"/*) echo "test_release: WORK_DIR must be outside the source tree ($source_dir)" >&2; exit 2 ;;
esac
fail() { echo "test_release: FAIL: $* (the files are in $work)" >&2; exit 1; }

# 1. Pack, unpack, move.
(cd "$build" && cpack -B "$work/package" >"$work/cpack.log") || { cat "$work/cpack.log"; fail "cpack"; }
tarball=$(ls "$work"/package/counterguard-*.tar.gz)
echo "tarball: $(basename "$tarball"), $(du -k "$tarball" | cut -f1) KiB ($(tar -tzf "$tarball" | wc -l) entries)"
deb=$(ls "$work"/package/counterguard_*.deb)
echo "Debian package: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB"
mkdir "$work/unpacked"
start=$(date +%s)
tar -xzf "$tarball" -C "$work/unpacked"
mv "$work/unpacked/$(basename "$tarball" .tar.gz)" "$work/counterguard"
rmdir "$work/unpacked"
prefix=$work/counterguard

# 2. Relative run paths; the user API only.
while IFS= read -r -d '' file; do
  if head -c 4 "$file" | grep -q 'ELF'; then
    paths=$(readelf -d "$file" | sed -n 's/.*(\(RPATH\|RUNPATH\)).*\[\(.*\)\]/\2/p')
    for path in ${paths//:/ }; do
      [[ $path == "\$ORIGIN"* ]] || fail "$file has the run path $path (only \$ORIGIN-relative ones relocate)"
    done
  fi
done < <(find "$prefix" -type f \( -path '*/bin/*' -o -name '*.so*' \) -print0)
[[ -x $prefix/bin/counterguard && -f $prefix/lib/counterguard/libcounterguard_injection.so ]] ||
  fail "the tool or the injection library is missing"
headers=$(find "$prefix/include" -type f | wc -l)
echo "installed headers: $headers"
((headers <= 25)) || fail "$headers installed headers (the user API is at most 25)"
! grep -rnE 'namespace (counterguard::)?detail|detail::' "$prefix/include" ||
  fail "an installed header names counterguard::detail (the user API shows no internals)"
! grep -rl 'find_dependency(\(yaml-cpp\|fmt\|muparser\|SQLite3\|CLI11\|nlohmann_json\|Boost\|OpenSSL\|ZLIB\)' \
  "$prefix/lib/cmake/counterguard" || fail "the package config asks for a dependency other than CUDA"

# The schemas and every page README.md links to ship, laid out so that each relative link and #anchor resolves.
documents=$prefix/share/doc/counterguard
for schema in suite results; do
  [[ -f $prefix/share/counterguard/schemas/$schema.schema.json && -f $documents/schemas/$schema.schema.json ]] ||
    fail "the $schema JSON Schema is not in the package"
done
python3 "$source_dir/tools/check_doc_links.py" "$documents/README.md" "$documents/docs" "$documents/docs/suites" ||
  fail "a relative link of the shipped README.md or docs/"

hidden_packages=(libyaml-cpp-dev libfmt-dev libmuparser-dev libsqlite3-dev libssl-dev liblz4-dev libzstd-dev
                 libdw-dev libelf-dev zlib1g-dev liblzma-dev libbz2-dev libcli11-dev nlohmann-json3-dev
                 libboost1.74-dev libyaml-cpp0.7 libmuparser2v5 libdw1)
without_packages() {
  local namespace=(unshare --mount --propagation private)
  [[ $(id -u) -eq 0 ]] || namespace=(unshare --user --map-root-user --mount --propagation private)
  "${namespace[@]}" python3 "$source_dir/tools/without_packages.py" "${hidden_packages[@]}" -- "$@"
}

cuda_include=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")/../include
cat >"$work/compile_headers.sh" <<EOF
set -e
test ! -e /usr/include/yaml-cpp/yaml.h && test ! -e /usr/include/nlohmann/json.hpp && test ! -e /usr/include/zlib.h
cd "$prefix/include"
for header in \$(find counterguard -name '*.hpp'); do
  printf '#include <%s>\n' "\$header" | c++ -std=c++17 -fsyntax-only -Wall -Wextra -Werror -I . -isystem "$cuda_include" -x c++ - ||
    { echo "\$header does not compile on its own against the package" >&2; exit 1; }
done
EOF
without_packages bash "$work/compile_headers.sh" || fail "an installed header"
echo "every installed header compiles on its own, without counterguard's -dev packages"

# 3. The tool from a clean environment, outside the source tree; the container recipe's install script.
cd "$work"
clean_env=(env -i "PATH=/usr/bin:/bin" "HOME=$work" "TMPDIR=${TMPDIR:-/tmp}")
version=$(sed -n 's/^project(counterguard VERSION \([0-9.]*\).*/\1/p' "$source_dir/CMakeLists.txt")
"${clean_env[@]}" "$prefix/bin/counterguard" --version | tee "$work/version.txt"
grep -q "^counterguard $version$" "$work/version.txt" || fail "--version does not name the project version"
"${clean_env[@]}" "$prefix/bin/counterguard" static "$prefix/share/counterguard/cases" --quiet ||
  fail "counterguard static on the built-in suites from the unpacked tarball"
"${clean_env[@]}" bash "$source_dir/packaging/install_release.sh" "$tarball" "$work/installed" ||
  fail "packaging/install_release.sh"
# The Python package the tarball carries loads its C ABI library, and that library the package's copies of
# counterguard's libraries and CUPTI, with the yaml-cpp and muParser runtime packages hidden.
# usage: python_package.py PREFIX (the unpacked tarball, or the Debian package's usr/)
cat >"$work/python_package.py" <<EOF
import pathlib
import sys
import counterguard
from counterguard import _library
prefix = sys.argv[1]
package = pathlib.Path(counterguard.__file__).parent
assert package == pathlib.Path(prefix, "lib/python3/dist-packages/counterguard"), package
assert counterguard.__version__ == "$version", counterguard.__version__
assert any(m.name == "shared_load_bank_conflicts" for m in counterguard.metrics())
assert pathlib.Path(_library.library()._name).parent == package
maps = pathlib.Path("/proc/self/maps").read_text().splitlines()
for name in ("libyaml-cpp", "libmuparser", "libcupti"):
    paths = {line.split()[-1] for line in maps if "/" + name in line}
    assert paths and all(path.startswith(prefix + "/") for path in paths), (name, paths)
print("python: the package and its C ABI library run from", prefix)
EOF
without_packages "${clean_env[@]}" PYTHONPATH="$prefix/lib/python3/dist-packages" PYTHONDONTWRITEBYTECODE=1 \
  python3 "$work/python_package.py" "$prefix" || fail "the Python package from the unpacked tarball"
ls "$prefix/share/counterguard/python/counterguard-$version-py3-none-manylinux_2_"*"_x86_64.whl" ||
  fail "the tarball carries no wheel in share/counterguard/python"

# 3b. The Debian package.
[[ $(dpkg-deb -f "$deb" Package) == counterguard && $(dpkg-deb -f "$deb" Version) == "$version" ]] ||
  fail "$deb: Package/Version are not counterguard $version"
dpkg-deb -f "$deb" Depends | grep -q 'libc6' || fail "$deb declares no dependency on libc6"
dpkg-deb -x "$deb" "$work/deb-root"
root=$work/deb-root/usr
"${clean_env[@]}" "$root/bin/counterguard" --version | grep -q "^counterguard $version$" ||
  fail "the Debian package's tool"
"${clean_env[@]}" "$root/bin/counterguard" static "$root/share/counterguard/cases" --quiet ||
  fail "counterguard static from the Debian package"
without_packages "${clean_env[@]}" PYTHONPATH="$root/lib/python3/dist-packages" PYTHONDONTWRITEBYTECODE=1 \
  python3 "$work/python_package.py" "$root" || fail "the Python package of the Debian package"
ls "$root/share/counterguard/python/"counterguard-*.whl >/dev/null || fail "the Debian package carries no wheel"
echo "Debian package: the tool, the built-in suites' static checks and the Python package run from it"

# 4. A user's project against the package, without counterguard's dependencies.
cp -r "$source_dir/examples/reduction_stencil" "$work/project"
cat >"$work/build_example.sh" <<EOF
set -e
test ! -e /usr/include/yaml-cpp/yaml.h && test ! -e /usr/lib/x86_64-linux-gnu/libyaml-cpp.so
cmake -S "$work/project" -B "$work/example" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix"
cmake --build "$work/example"
ctest --test-dir "$work/example" --output-on-failure
EOF
without_packages bash "$work/build_example.sh" || fail "the example project against the package"
ctest --test-dir "$work/example" -N | grep counterguard_static >/dev/null || fail "the example's static test did not run"
grep -q counterguard_recorded_h200 <(ctest --test-dir "$work/example" -N) || fail "the example's recorded test did not run"
# Its link lines name the package's libraries, none of the build machine's.
if grep -E -o '/usr/lib/x86_64-linux-gnu/lib(yaml-cpp|muparser|sqlite3|crypto|lz4|zstd|dw|elf|fmt)[^ ]*' \
  "$work/example/build.ninja"; then
  fail "the example links the build machine's libraries"
fi
echo "unpacked tarball to gated example: $(($(date +%s) - start)) s"
echo "release: passed"
if $remove_work; then
  cd / && rm -rf "$work"
fi
