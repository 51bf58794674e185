#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Python package installed the two ways docs/python.md gives, each used by a pytest run that loads the plugin
# through its entry point (no -p) and the library from beside the package:
#   pip install --no-build-isolation --no-index <build>/python   (into a --target directory)
#   cmake --install <build> --component python                    (into a prefix; PYTHONPATH=<prefix>/<dir>)
# usage: test_installs.sh <python3> <build dir> <scratch dir> <install dir relative to the prefix>
set -euo pipefail
python=$1 build=$2 scratch=$3 python_dir=$4
unset PYTHONPATH COUNTERGUARD_LIBRARY
rm -rf "$scratch"
mkdir -p "$scratch/project"
cat >"$scratch/project/test_installed.py" <<'PY'
import pathlib

import counterguard


def test_the_plugin_and_the_library_come_from_the_installation(pytestconfig):
    assert pytestconfig.pluginmanager.has_plugin("counterguard.pytest_plugin"), "loaded through its entry point"
    package = pathlib.Path(counterguard.__file__).parent
    print("package:", package)
    assert any(m.name == "shared_load_bank_conflicts" for m in counterguard.metrics())
    from counterguard import _library
    assert pathlib.Path(_library._library._name).parent == package, _library._library._name


def test_counters_fixture_is_there(counters):
    pass
PY
check() {
  local where=$1
  (cd "$scratch/project" && PYTHONPATH=$where "$python" -m pytest -q -p no:cacheprovider -rs -s test_installed.py) \
    | tee "$scratch/pytest.log"
  grep -q "package: $where/counterguard" "$scratch/pytest.log" || {
    echo "test_installs: the package was not imported from $where" >&2
    exit 1
  }
}

echo "== pip install from the build tree"
"$python" -m pip install --quiet --no-build-isolation --no-index --no-deps --disable-pip-version-check \
  --target "$scratch/pip" "$build/python"
check "$scratch/pip"

echo "== cmake --install"
cmake --install "$build" --component python --prefix "$scratch/prefix" >/dev/null
check "$scratch/prefix/$python_dir"
