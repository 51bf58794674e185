#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Builds counterguard's wheel with the standard library alone (no build backend): the package and its pytest
plugin, the C ABI library, the `counterguard` tool with the injection library of `exec`, and every library they
need that a manylinux system does not have, bundled in counterguard/lib/ and found through run paths relative to
each file ($ORIGIN). The platform tag is decided from the files, as auditwheel decides it (manylinux.py).

    build_wheel.py --version 0.3.0 --package-dir python/counterguard --capi build/libcounterguard_capi.so \
        --tool build/counterguard --injection build/libcounterguard_injection.so \
        --module /usr/local/cuda/lib64/libnvperf_host.so --output-dir build/dist

The wheel's layout (the injection library is where the tool looks for it, <bin>/../lib):
    counterguard/*.py                           the package, the plugin, _cli.py (the console entry)
    counterguard/libcounterguard_capi.so        run path $ORIGIN/lib
    counterguard/bin/counterguard               run path $ORIGIN/../lib
    counterguard/lib/                           the injection library and the bundled libraries (CUPTI too)
"""

import argparse
import base64
import hashlib
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from elf_file import ElfFile, is_elf  # noqa: E402
from manylinux import ALLOWED_LIBRARIES, HOST_LIBRARIES, platform_tag  # noqa: E402

DEFAULT_DIRECTORIES = ["/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib",
                       "/usr/lib"]


class BuildError(Exception):
    pass


def loader_cache():
    """soname -> path from the dynamic loader's cache (`ldconfig -p`), for x86-64 libraries."""
    cache = {}
    for ldconfig in ("/sbin/ldconfig", "/usr/sbin/ldconfig", "ldconfig"):
        try:
            listing = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            continue
        for line in listing.splitlines()[1:]:
            name, _, path = line.strip().partition(" => ")
            soname, _, kind = name.partition(" (")
            if "x86-64" in kind and soname not in cache:
                cache[soname] = path
        break
    return cache


def resolve(soname, elf, cache):
    """Where the loader finds `soname` for `elf` on this machine: DT_RPATH (without DT_RUNPATH), then
    LD_LIBRARY_PATH, DT_RUNPATH, the loader's cache and the default folders."""
    origin = os.path.dirname(os.path.realpath(elf.path))
    folders = [] if elf.runpath else list(elf.rpath)
    folders += [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(":") if p]
    folders += elf.runpath
    for folder in folders:
        candidate = os.path.join(folder.replace("$ORIGIN", origin).replace("${ORIGIN}", origin), soname)
        if os.path.isfile(candidate):
            return candidate
    if soname in cache and os.path.isfile(cache[soname]):
        return cache[soname]
    for folder in DEFAULT_DIRECTORIES:
        candidate = os.path.join(folder, soname)
        if os.path.isfile(candidate):
            return candidate
    return None


def bundle_dependencies(roots, modules, host, cache):
    """soname -> source path of every library the roots and modules need, directly or not, that is neither on
    the manylinux allow-list nor provided by the host (the driver)."""
    bundled = {}
    pending = [ElfFile(path) for path in roots]
    for module in modules:
        name = os.path.basename(module)
        bundled[name] = os.path.realpath(module)
        pending.append(ElfFile(module))
    while pending:
        elf = pending.pop()
        for soname in elf.needed:
            if soname in ALLOWED_LIBRARIES or soname in host or soname in bundled:
                continue
            path = resolve(soname, elf, cache)
            if path is None:
                raise BuildError(f"{elf.path} needs {soname}, which is not found on this machine")
            bundled[soname] = os.path.realpath(path)
            pending.append(ElfFile(path))
    return bundled


def set_runpath(patchelf, path, runpath):
    subprocess.run([patchelf, "--set-rpath", runpath, path], check=True)


def debian_copyrights(paths):
    """{package: its copyright file} of the Debian packages that installed `paths` (those dpkg knows)."""
    try:
        owners = subprocess.run(["dpkg", "-S", *paths], capture_output=True, text=True).stdout
    except OSError:
        return {}
    found = {}
    for line in owners.splitlines():
        package = line.split(":")[0].strip()
        copyright_file = pathlib.Path("/usr/share/doc") / package / "copyright"
        if copyright_file.is_file():
            found[package] = copyright_file
    return found


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{name},sha256={digest},{len(data)}"


def metadata_text(version, readme):
    lines = [
        "Metadata-Version: 2.1",
        "Name: counterguard",
        f"Version: {version}",
        "Summary: Counter assertions for CUDA kernels from Python: CUPTI counters, expectations and per-GPU "
        "baselines in pytest, and the counterguard command",
        "License: Apache-2.0",
        "Requires-Python: >=3.8",
        "Classifier: Framework :: Pytest",
        "Classifier: Programming Language :: Python :: 3",
        "Classifier: Operating System :: POSIX :: Linux",
        "Classifier: Environment :: GPU :: NVIDIA CUDA",
        "Provides-Extra: pytest",
        "Requires-Dist: pytest>=7; extra == \"pytest\"",
        "Description-Content-Type: text/markdown",
    ]
    return "\n".join(lines) + "\n\n" + readme


def write_wheel(staging, output, version, tag):
    """The zip of `staging` plus its dist-info (RECORD last), entries sorted and dated SOURCE_DATE_EPOCH (or
    1980), so that the same files give the same wheel."""
    stamp = time.gmtime(max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800))[:6]
    dist_info = f"counterguard-{version}.dist-info"
    records = []
    temporary = output.with_suffix(".partial")
    with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        files = sorted(p for p in staging.rglob("*") if p.is_file())
        files.sort(key=lambda p: p.relative_to(staging).parts[0] == dist_info)  # dist-info at the end
        for path in files:
            name = path.relative_to(staging).as_posix()
            data = path.read_bytes()
            entry = zipfile.ZipInfo(name, date_time=stamp)
            entry.external_attr = (0o100755 if os.access(path, os.X_OK) else 0o100644) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
            records.append(record_line(name, data))
        records.append(f"{dist_info}/RECORD,,")
        entry = zipfile.ZipInfo(f"{dist_info}/RECORD", date_time=stamp)
        entry.external_attr = 0o100644 << 16
        entry.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(entry, "\n".join(records) + "\n")
    os.replace(temporary, output)


def build(arguments):
    patchelf = shutil.which(arguments.patchelf) or arguments.patchelf
    if not os.path.isfile(patchelf):
        raise BuildError(f"patchelf not found ({arguments.patchelf}): it sets the bundled libraries' run paths "
                         "(Debian: apt-get install patchelf; tools/setup.sh installs it)")
    host = set(HOST_LIBRARIES) | set(arguments.host_library)
    cache = loader_cache()
    roots = [arguments.capi, arguments.tool, arguments.injection]
    bundled = bundle_dependencies(roots, arguments.module, host, cache)
    bundled.pop(os.path.basename(arguments.injection), None)  # placed as the tool's injection library below

    output_dir = pathlib.Path(arguments.output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="counterguard-wheel-", dir=output_dir) as scratch:
        staging = pathlib.Path(scratch)
        package = staging / "counterguard"
        (package / "bin").mkdir(parents=True)
        (package / "lib").mkdir()
        for module in sorted(pathlib.Path(arguments.package_dir).glob("*.py")):
            shutil.copyfile(module, package / module.name)
        placed = {  # file in the wheel -> (source, run path or None to leave the file as it is)
            package / "libcounterguard_capi.so": (arguments.capi, "$ORIGIN/lib"),
            package / "bin" / "counterguard": (arguments.tool, "$ORIGIN/../lib"),
            package / "lib" / os.path.basename(arguments.injection): (arguments.injection, "$ORIGIN"),
        }
        for soname, source in bundled.items():
            # A bundled library that needs another bundled one finds it beside itself; the others (CUPTI among
            # them) are copied unmodified.
            needs_bundled = any(name in bundled for name in ElfFile(source).needed)
            placed[package / "lib" / soname] = (source, "$ORIGIN" if needs_bundled else None)
        for destination, (source, runpath) in placed.items():
            shutil.copyfile(source, destination)
            os.chmod(destination, 0o755 if destination.parent.name == "bin" else 0o644)
            if runpath is not None:
                set_runpath(patchelf, str(destination), runpath)

        elves = [ElfFile(path) for path in sorted(package.rglob("*")) if path.is_file() and is_elf(path)]
        check_run_paths(elves, staging)
        wheel_sonames = {os.path.basename(elf.path) for elf in elves} | {elf.soname for elf in elves if elf.soname}
        try:
            tag = platform_tag(elves, wheel_sonames)
        except ValueError as problem:
            raise BuildError(f"the wheel is not manylinux:\n{problem}") from problem

        dist_info = staging / f"counterguard-{arguments.version}.dist-info"
        (dist_info / "licenses").mkdir(parents=True)
        readme = pathlib.Path(arguments.readme).read_text(encoding="utf-8") if arguments.readme else ""
        (dist_info / "METADATA").write_text(metadata_text(arguments.version, readme), encoding="utf-8")
        (dist_info / "WHEEL").write_text(
            "Wheel-Version: 1.0\nGenerator: counterguard packaging/wheel/build_wheel.py\nRoot-Is-Purelib: false\n"
            f"Tag: py3-none-{tag}\n", encoding="utf-8")
        entry_points = pathlib.Path(arguments.entry_points).read_text(encoding="utf-8").rstrip("\n")
        (dist_info / "entry_points.txt").write_text(
            "[console_scripts]\ncounterguard = counterguard._cli:main\n\n" + entry_points + "\n", encoding="utf-8")
        for licence in arguments.licence:
            shutil.copyfile(licence, dist_info / "licenses" / os.path.basename(licence))
        # The Debian package of each library, looked up by the system's copy (the build tree has copies too).
        system_copies = sorted(os.path.realpath(cache.get(soname, source)) for soname, source in bundled.items())
        for package_name, copyright_file in sorted(debian_copyrights(system_copies).items()):
            shutil.copyfile(copyright_file, dist_info / "licenses" / f"{package_name}.copyright")

        for stale in output_dir.glob(f"counterguard-{arguments.version}-*.whl"):
            stale.unlink()
        wheel = output_dir / f"counterguard-{arguments.version}-py3-none-{tag}.whl"
        write_wheel(staging, wheel, arguments.version, tag)
    print(f"wheel: {wheel} ({wheel.stat().st_size // 1024} KiB), tag py3-none-{tag}")
    print("bundled: " + ", ".join(sorted(bundled)))
    return wheel


def check_run_paths(elves, root):
    """Every run path is relative to its file and stays inside the wheel."""
    for elf in elves:
        if elf.rpath:
            raise BuildError(f"{elf.path} has a DT_RPATH ({':'.join(elf.rpath)}); the wheel's files use DT_RUNPATH")
        origin = pathlib.Path(elf.path).parent
        for entry in elf.runpath:
            if not entry.startswith("$ORIGIN"):
                raise BuildError(f"{elf.path} has the run path {entry}, which is not relative to it ($ORIGIN)")
            folder = pathlib.Path(os.path.normpath(origin / entry.replace("$ORIGIN", ".", 1)))
            if root.resolve() not in folder.resolve().parents:
                raise BuildError(f"{elf.path} has the run path {entry}, which leads out of the wheel")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", required=True)
    parser.add_argument("--package-dir", required=True, help="the package's modules (python/counterguard)")
    parser.add_argument("--capi", required=True, help="libcounterguard_capi.so")
    parser.add_argument("--tool", required=True, help="the counterguard executable")
    parser.add_argument("--injection", required=True, help="libcounterguard_injection.so")
    parser.add_argument("--module", action="append", default=[],
                        help="a library loaded with dlopen to bundle too (libnvperf_host.so)")
    parser.add_argument("--host-library", action="append", default=[],
                        help="a soname the host provides and the wheel must not carry (besides libcuda.so.1)")
    parser.add_argument("--licence", action="append", default=[], help="a licence file for dist-info/licenses")
    parser.add_argument("--readme", help="the long description (python/README.md)")
    parser.add_argument("--entry-points", required=True, help="the plugin's entry points (pytest11)")
    parser.add_argument("--patchelf", default="patchelf")
    parser.add_argument("--output-dir", required=True)
    arguments = parser.parse_args()
    try:
        build(arguments)
    except BuildError as problem:
        sys.exit(f"build_wheel: {problem}")


if __name__ == "__main__":
    main()
