# SPDX-License-Identifier: Apache-2.0
"""The manylinux platform tag a set of ELF files earns, decided as auditwheel decides it (PEP 600): every library
they need from outside the wheel is on the policy's allow-list (or is the NVIDIA driver, which no wheel may
carry), and every symbol version they require of those libraries is one the policy's distributions provide. The
tag is the oldest policy that admits them all."""

import re

# The newest version of each versioned library family that a policy admits on x86-64, from auditwheel's
# manylinux-policy.json (src/auditwheel/policy). Policies left out only make the tag more conservative.
POLICIES = [
    ("manylinux_2_17", {"GLIBC": "2.17", "GLIBCXX": "3.4.19", "CXXABI": "1.3.7", "GCC": "4.8.0", "ZLIB": "1.2.5.2"}),
    ("manylinux_2_28", {"GLIBC": "2.28", "GLIBCXX": "3.4.24", "CXXABI": "1.3.11", "GCC": "7.0.0", "ZLIB": "1.2.9"}),
    ("manylinux_2_31", {"GLIBC": "2.31", "GLIBCXX": "3.4.28", "CXXABI": "1.3.12", "GCC": "7.0.0", "ZLIB": "1.2.9"}),
    ("manylinux_2_34", {"GLIBC": "2.34", "GLIBCXX": "3.4.29", "CXXABI": "1.3.13", "GCC": "7.0.0", "ZLIB": "1.2.9"}),
    ("manylinux_2_36", {"GLIBC": "2.36", "GLIBCXX": "3.4.30", "CXXABI": "1.3.13", "GCC": "12.0.0", "ZLIB": "1.2.9"}),
    ("manylinux_2_39", {"GLIBC": "2.39", "GLIBCXX": "3.4.33", "CXXABI": "1.3.15", "GCC": "14.0.0", "ZLIB": "1.2.12"}),
]
# Libraries every manylinux distribution has (the policies' lib_whitelist), and the dynamic loader itself.
ALLOWED_LIBRARIES = {
    "libc.so.6", "libm.so.6", "libmvec.so.1", "libdl.so.2", "librt.so.1", "libpthread.so.0", "libanl.so.1",
    "libnsl.so.1", "libutil.so.1", "libresolv.so.2", "libgcc_s.so.1", "libstdc++.so.6", "libatomic.so.1",
    "libz.so.1", "libexpat.so.1", "libGL.so.1", "libX11.so.6", "libXext.so.6", "libXrender.so.1", "libICE.so.6",
    "libSM.so.6", "libglib-2.0.so.0", "libgobject-2.0.so.0", "libgthread-2.0.so.0", "ld-linux-x86-64.so.2",
}
# The CUDA driver comes with the GPU's driver installation and must match the kernel module: never bundled
# (PyTorch's and CuPy's wheels leave it out the same way).
HOST_LIBRARIES = {"libcuda.so.1"}
# Packed relocations (DT_RELR) need the loader of glibc 2.36; the policies list the marker from manylinux_2_36.
_EQUIVALENTS = {"GLIBC_ABI_DT_RELR": "GLIBC_2.36"}
_VERSION = re.compile(r"^(GLIBC|GLIBCXX|CXXABI|GCC|ZLIB)_([0-9.]+)$")


def version_key(text):
    return tuple(int(part) for part in text.split("."))


def external_requirements(elf_files, bundled):
    """{family: (newest version, "file: library")} over the versions the files require of libraries outside the
    wheel; the unknown version names as a list of "file: library version"."""
    newest, unknown = {}, []
    for elf in elf_files:
        for library, names in elf.version_needs.items():
            if library in bundled or library in HOST_LIBRARIES:
                continue
            for name in names:
                match = _VERSION.match(_EQUIVALENTS.get(name, name))
                if match is None:  # GLIBC_PRIVATE, or a library's own version names
                    unknown.append(f"{elf.path}: {library} {name}")
                    continue
                family, version = match.groups()
                if family not in newest or version_key(version) > version_key(newest[family][0]):
                    newest[family] = (version, f"{elf.path}: {library}")
    return newest, unknown


def platform_tag(elf_files, bundled, architecture="x86_64"):
    """The oldest manylinux tag that admits every file, or raises ValueError saying what no policy admits.
    `bundled` is the set of sonames the wheel carries itself."""
    problems = []
    for elf in elf_files:
        if elf.machine != architecture:
            problems.append(f"{elf.path} is built for {elf.machine}, not {architecture}")
        for library in elf.needed:
            if library not in bundled and library not in ALLOWED_LIBRARIES and library not in HOST_LIBRARIES:
                problems.append(f"{elf.path} needs {library}, which the wheel does not carry and manylinux does "
                                "not allow from the system")
    newest, unknown = external_requirements(elf_files, bundled)
    problems.extend(f"{where}: version {name} is known to no manylinux policy" for where, name in
                    (entry.rsplit(" ", 1) for entry in unknown))
    if problems:
        raise ValueError("\n".join(problems))
    for name, maxima in POLICIES:
        if all(version_key(version) <= version_key(maxima[family]) for family, (version, _) in newest.items()):
            return f"{name}_{architecture}"
    needs = ", ".join(f"{family}_{version} ({where})" for family, (version, where) in sorted(newest.items()))
    raise ValueError(f"no manylinux policy admits these symbol versions: {needs}")
