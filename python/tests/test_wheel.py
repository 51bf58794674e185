# SPDX-License-Identifier: Apache-2.0
"""The wheel the build writes ($COUNTERGUARD_WHEEL_DIR, build/dist), checked from outside with binutils' readelf:
its name and tag, the files it holds, that every library its ELF files need is inside it or allowed from the
system by manylinux, that its run paths stay inside it, and that its platform tag is the newest glibc any of its
files needs. ctest python.wheel_contents builds it first (python.wheel_builds)."""

import base64
import hashlib
import os
import pathlib
import re
import subprocess
import sys
import zipfile

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("COUNTERGUARD_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(SOURCE_DIR / "packaging" / "wheel"))
from elf_file import ElfFile  # noqa: E402
from manylinux import ALLOWED_LIBRARIES, HOST_LIBRARIES  # noqa: E402

VERSION = re.search(r"project\(counterguard VERSION ([0-9.]+)", (SOURCE_DIR / "CMakeLists.txt").read_text()).group(1)
WHEEL_NAME = re.compile(rf"^counterguard-{re.escape(VERSION)}-py3-none-(manylinux_2_(\d+)_x86_64)\.whl$")


@pytest.fixture(scope="module")
def wheel():
    folder = pathlib.Path(os.environ["COUNTERGUARD_WHEEL_DIR"])
    wheels = sorted(folder.glob("counterguard-*.whl"))
    assert len(wheels) == 1, f"one wheel expected in {folder}: {wheels}"
    return wheels[0]


@pytest.fixture(scope="module")
def unpacked(wheel, tmp_path_factory):
    root = tmp_path_factory.mktemp("wheel")
    with zipfile.ZipFile(wheel) as archive:
        for entry in archive.infolist():
            archive.extract(entry, root)
            mode = (entry.external_attr >> 16) & 0o777
            if mode:
                os.chmod(root / entry.filename, mode)
    return root


def elf_files(root):
    return sorted(p for p in (root / "counterguard").rglob("*") if p.is_file() and p.read_bytes()[:4] == b"\x7fELF")


def readelf(*arguments):
    return subprocess.run(["readelf", "-W", *arguments], capture_output=True, text=True, check=True).stdout


def dynamic_entries(path, kind):
    return re.findall(rf"\({kind}\)\s+\S+ \S+: \[(.*)\]", readelf("-d", str(path)))


def version_needs(path):
    """{library: [version names]} from readelf's "Version needs" section."""
    needs, library = {}, None
    text = readelf("-V", str(path))
    section = text.split("Version needs section", 1)[1] if "Version needs section" in text else ""
    for line in section.splitlines():
        file_match = re.search(r"File: (\S+)", line)
        name_match = re.search(r"Name: (\S+)", line)
        if file_match:
            library = file_match.group(1)
            needs.setdefault(library, [])
        elif name_match and library:
            needs[library].append(name_match.group(1))
    return needs


def test_the_wheel_is_named_for_the_version_and_its_tag_matches_the_wheel_file(wheel, unpacked):
    match = WHEEL_NAME.match(wheel.name)
    assert match, wheel.name
    text = (unpacked / f"counterguard-{VERSION}.dist-info" / "WHEEL").read_text()
    assert f"Tag: py3-none-{match.group(1)}" in text.splitlines()
    assert "Root-Is-Purelib: false" in text.splitlines()


def test_the_platform_tag_is_the_newest_glibc_that_readelf_finds_any_file_needing(wheel, unpacked):
    newest = max(int(name.split(".")[1]) for path in elf_files(unpacked) for library, names in
                 version_needs(path).items() if library not in HOST_LIBRARIES
                 for name in names if re.fullmatch(r"GLIBC_2\.\d+(\.\d+)?", name))
    assert int(WHEEL_NAME.match(wheel.name).group(2)) == newest


def test_the_libstdcxx_versions_needed_are_those_of_the_tags_distributions(wheel, unpacked):
    # manylinux_2_34 (AlmaLinux 9, GCC 11) has GLIBCXX_3.4.29 and CXXABI_1.3.13 at most.
    if WHEEL_NAME.match(wheel.name).group(1) != "manylinux_2_34_x86_64":
        pytest.fail(f"the limits below are those of manylinux_2_34; the wheel is {wheel.name}")
    for path in elf_files(unpacked):
        for name in version_needs(path).get("libstdc++.so.6", []):
            family, _, version = name.partition("_")
            limit = {"GLIBCXX": (3, 4, 29), "CXXABI": (1, 3, 13)}[family]
            assert tuple(int(p) for p in version.split(".") if p.isdigit()) <= limit, (path.name, name)


def test_every_library_a_file_needs_is_in_the_wheel_where_its_run_path_leads_or_allowed_by_manylinux(unpacked):
    for path in elf_files(unpacked):
        runpaths = [entry for value in dynamic_entries(path, "RUNPATH") for entry in value.split(":")]
        folders = [pathlib.Path(os.path.normpath(str(path.parent / e.replace("$ORIGIN", ".", 1)))) for e in runpaths]
        for library in dynamic_entries(path, "NEEDED"):
            if library in ALLOWED_LIBRARIES or library in HOST_LIBRARIES:
                continue
            assert any((folder / library).is_file() for folder in folders), (path.name, library, runpaths)


def test_every_run_path_is_relative_to_its_file_and_stays_inside_the_wheel(unpacked):
    for path in elf_files(unpacked):
        assert not dynamic_entries(path, "RPATH"), path
        for value in dynamic_entries(path, "RUNPATH"):
            for entry in value.split(":"):
                assert entry.startswith("$ORIGIN"), (path, entry)
                folder = pathlib.Path(os.path.normpath(str(path.parent / entry.replace("$ORIGIN", ".", 1))))
                assert unpacked in folder.parents, (path, entry)


def test_the_wheel_holds_the_package_the_tool_the_injection_library_and_bundled_cupti(unpacked):
    package = unpacked / "counterguard"
    for name in ("__init__.py", "pytest_plugin.py", "_cli.py", "libcounterguard_capi.so",
                 "lib/libcounterguard_injection.so", "lib/libyaml-cpp.so.0.7", "lib/libmuparser.so.2",
                 "lib/libgomp.so.1", "lib/libcupti.so.13", "lib/libnvperf_host.so"):
        assert (package / name).is_file(), name
    assert os.access(package / "bin" / "counterguard", os.X_OK)
    assert not (package / "lib" / "libcuda.so.1").exists(), "the driver comes from the host"
    licences = {p.name for p in (unpacked / f"counterguard-{VERSION}.dist-info" / "licenses").iterdir()}
    assert {"LICENSE", "THIRD-PARTY-NOTICES.md", "libyaml-cpp0.7.copyright"} <= licences, licences


def test_the_entry_points_are_the_console_command_and_the_pytest_plugin(unpacked):
    text = (unpacked / f"counterguard-{VERSION}.dist-info" / "entry_points.txt").read_text()
    assert "[console_scripts]\ncounterguard = counterguard._cli:main" in text
    assert "[pytest11]\ncounterguard.pytest_plugin = counterguard.pytest_plugin" in text


def test_record_lists_every_file_with_its_hash_and_size(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        record = archive.read(f"counterguard-{VERSION}.dist-info/RECORD").decode()
        listed = {}
        for line in record.splitlines():
            name, digest, size = line.rsplit(",", 2)
            listed[name] = (digest, size)
        assert set(listed) == names
        for name, (digest, size) in listed.items():
            if name.endswith("RECORD"):
                continue
            data = archive.read(name)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, size) == (f"sha256={expected}", str(len(data))), name


def test_the_elf_reader_agrees_with_readelf(unpacked):
    for path in elf_files(unpacked):
        elf = ElfFile(path)
        assert elf.machine == "x86_64", path
        assert elf.needed == dynamic_entries(path, "NEEDED"), path
        assert elf.runpath == [e for v in dynamic_entries(path, "RUNPATH") for e in v.split(":") if e], path
        assert elf.version_needs == version_needs(path), path
