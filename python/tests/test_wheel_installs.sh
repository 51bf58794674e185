#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The wheel as a Python user meets it: installed with pip into a fresh virtual environment of a Python that is not
# Debian's (pyenv's, as most ML developers have), with no package index and no build backend, then used with
# counterguard's -dev and runtime library packages hidden (tools/without_packages.py): `counterguard --version`
# (the console entry runs the bundled tool), the package loads its C ABI library and the libraries bundled beside
# it, and the plugin's CPU tests pass, loaded through the wheel's entry point. pytest is Debian's, made visible to
# the environment alone (expose_debian_pytest.py): no index is reachable to install it from.
#   test_wheel_installs.sh <build dir> <scratch dir>
# Exit 77 (a skip) only where this machine has no Python 3 other than Debian's.
set -euo pipefail
build=$(cd "$1" && pwd) scratch=$2
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "test_wheel_installs: FAIL: $*" >&2; exit 1; }

shopt -s nullglob
wheels=("$build"/dist/counterguard-*.whl)
((${#wheels[@]} == 1)) || fail "expected one wheel in $build/dist, found ${#wheels[@]} (cmake --build $build --target wheel)"
wheel=${wheels[0]}

# A Python 3.8+ whose interpreter is not under /usr (Debian's is /usr/bin/python3): $COUNTERGUARD_WHEEL_PYTHON,
# python3 on PATH (a pyenv shim is resolved to its interpreter), else pyenv's of Debian's Python version (whose
# pytest requirements Debian has), else pyenv's newest.
python=""
debian_version=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
pyenv_versions=$(printf "%s\n" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.* | sort -V -r)
candidates=("${COUNTERGUARD_WHEEL_PYTHON:-}" "$(command -v python3 || true)")
for folder in $(grep "/$debian_version\." <<<"$pyenv_versions") $pyenv_versions; do
  candidates+=("$folder/bin/python3")
done
for candidate in "${candidates[@]}"; do
  [[ -n $candidate && -x $candidate ]] || continue
  interpreter=$("$candidate" -c 'import sys, venv; assert sys.version_info >= (3, 8); print(sys.executable)' \
    2>/dev/null) || continue
  interpreter=$(readlink -f "$interpreter")
  if [[ $interpreter != /usr/* ]]; then
    python=$interpreter
    break
  fi
done
if [[ -z $python ]]; then
  echo "test_wheel_installs: SKIP: no Python 3.8+ other than Debian's on this machine (looked at" \
       "\$COUNTERGUARD_WHEEL_PYTHON, python3 on PATH, ${PYENV_ROOT:-$HOME/.pyenv}/versions)"
  exit 77
fi
python_version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
version=$(sed -n 's/^project(counterguard VERSION \([0-9.]*\).*/\1/p' "$source_dir/CMakeLists.txt")
echo "wheel: $(basename "$wheel"); Python: $python ($python_version)"

rm -rf "$scratch" && mkdir -p "$scratch"
start=$(date +%s.%N)
"$python" -m venv "$scratch/venv"
venv=$scratch/venv
"$venv/bin/python" -m pip install --no-index --no-deps --disable-pip-version-check --quiet "$wheel"
site_packages=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
/usr/bin/python3 "$source_dir/python/tests/expose_debian_pytest.py" "$scratch/debian-pytest" "$site_packages" \
  "$python_version"
installed=$(date +%s.%N)

cat >"$scratch/uses_the_wheel.sh" <<EOF
set -euo pipefail
test ! -e /usr/lib/x86_64-linux-gnu/libyaml-cpp.so.0.7 && test ! -e /usr/lib/x86_64-linux-gnu/libmuparser.so.2
cd "$scratch"
counterguard --version | tee version.txt
grep -q "^counterguard $version\$" version.txt
test "\$(command -v counterguard)" = "$venv/bin/counterguard"
python - <<'PY'
import pathlib
import counterguard
from counterguard import _library
package = pathlib.Path(counterguard.__file__).parent
assert package == pathlib.Path("$site_packages/counterguard"), package
assert counterguard.__version__ == "$version", counterguard.__version__
assert any(m.name == "shared_load_bank_conflicts" for m in counterguard.metrics())
assert pathlib.Path(_library.library()._name).parent == package
maps = pathlib.Path("/proc/self/maps").read_text().splitlines()
for name in ("libyaml-cpp", "libmuparser", "libgomp", "libfmt", "libcupti"):
    paths = {line.split()[-1] for line in maps if "/" + name in line}
    assert paths and all(path.startswith(str(package / "lib") + "/") for path in paths), (name, paths)
print("python: the package, its C ABI library and the libraries it loads come from the wheel")
PY
python -m pytest -p pytester -p no:cacheprovider -q -rs "$source_dir/python/tests/test_package.py" \
  "$source_dir/python/tests/test_plugin.py"
EOF
hidden_packages=(libyaml-cpp-dev libfmt-dev libmuparser-dev libsqlite3-dev libssl-dev liblz4-dev libzstd-dev
                 libyaml-cpp0.7 libmuparser2v5 libfmt9 libsqlite3-0 libgomp1)
namespace=(unshare --mount --propagation private)
[[ $(id -u) -eq 0 ]] || namespace=(unshare --user --map-root-user --mount --propagation private)
"${namespace[@]}" /usr/bin/python3 "$source_dir/tools/without_packages.py" "${hidden_packages[@]}" -- \
  env -i "PATH=$venv/bin:/usr/bin:/bin" "HOME=$scratch" "TMPDIR=${TMPDIR:-/tmp}" PYTHONDONTWRITEBYTECODE=1 \
  bash "$scratch/uses_the_wheel.sh" || fail "the installed wheel (files in $scratch)"
finish=$(date +%s.%N)
awk -v s="$start" -v i="$installed" -v f="$finish" \
  'BEGIN { printf "wheel to a passing pytest in a fresh venv: %.1f s (venv and pip install %.1f s)\n", f - s, i - s }'
echo "wheel installs: passed"
