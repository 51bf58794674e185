# SPDX-License-Identifier: Apache-2.0
"""How the wheel's platform tag is decided (packaging/wheel/manylinux.py), on stated requirements: the oldest
manylinux policy whose distributions have every symbol version the files need, and no tag at all for a file that
needs a library neither in the wheel nor allowed from the system."""

import os
import pathlib
import sys

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("COUNTERGUARD_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(SOURCE_DIR / "packaging" / "wheel"))
from manylinux import platform_tag  # noqa: E402


class Stated:
    """An ELF file as the tag decision sees it."""

    def __init__(self, needed, version_needs, machine="x86_64", path="libexample.so"):
        self.path, self.needed, self.version_needs, self.machine = path, needed, version_needs, machine


def test_the_newest_glibc_needed_decides_the_tag():
    files = [Stated(["libc.so.6"], {"libc.so.6": ["GLIBC_2.2.5", "GLIBC_2.34"]}),
             Stated(["libc.so.6"], {"libc.so.6": ["GLIBC_2.17"]})]
    assert platform_tag(files, bundled=set()) == "manylinux_2_34_x86_64"


def test_a_libstdcxx_newer_than_the_glibc_policys_distributions_raises_the_tag():
    files = [Stated(["libstdc++.so.6", "libc.so.6"],
                    {"libc.so.6": ["GLIBC_2.34"], "libstdc++.so.6": ["GLIBCXX_3.4.30"]})]
    assert platform_tag(files, bundled=set()) == "manylinux_2_36_x86_64"


def test_versions_of_bundled_libraries_and_of_the_driver_do_not_count():
    files = [Stated(["libc.so.6", "libgomp.so.1", "libcuda.so.1"],
                    {"libc.so.6": ["GLIBC_2.17"], "libgomp.so.1": ["GOMP_5.0"], "libcuda.so.1": ["libcuda.so.1"]})]
    assert platform_tag(files, bundled={"libgomp.so.1"}) == "manylinux_2_17_x86_64"


def test_a_library_neither_bundled_nor_allowed_is_no_manylinux_wheel():
    files = [Stated(["libyaml-cpp.so.0.7", "libc.so.6"], {"libc.so.6": ["GLIBC_2.17"]}, path="libcapi.so")]
    with pytest.raises(ValueError, match="libcapi.so needs libyaml-cpp.so.0.7"):
        platform_tag(files, bundled=set())


def test_glibc_private_symbols_are_no_manylinux_wheel():
    files = [Stated(["libc.so.6"], {"libc.so.6": ["GLIBC_PRIVATE"]})]
    with pytest.raises(ValueError, match="GLIBC_PRIVATE"):
        platform_tag(files, bundled=set())


def test_a_file_of_another_architecture_is_refused():
    with pytest.raises(ValueError, match="aarch64"):
        platform_tag([Stated(["libc.so.6"], {}, machine="aarch64")], bundled=set())
