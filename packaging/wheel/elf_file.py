# SPDX-License-Identifier: Apache-2.0
"""What the dynamic loader needs of an ELF file, read with the standard library: its architecture, the libraries
it names (DT_NEEDED), its run paths (DT_RUNPATH, DT_RPATH), its soname, and the symbol versions it requires of
each library (.gnu.version_r, the table `readelf -V` prints as "Version needs"). The wheel's platform tag is
decided from these, as auditwheel decides it."""

import struct

ELF_MAGIC = b"\x7fELF"
MACHINES = {3: "i686", 62: "x86_64", 183: "aarch64", 21: "ppc64le", 22: "s390x"}
SHT_DYNAMIC = 6
SHT_GNU_VERNEED = 0x6FFFFFFE
DT_NEEDED, DT_SONAME, DT_RPATH, DT_RUNPATH = 1, 14, 15, 29


class NotElf(ValueError):
    pass


def is_elf(path):
    with open(path, "rb") as file:
        return file.read(4) == ELF_MAGIC


class ElfFile:
    """One ELF file's dynamic-linking facts (64-bit little-endian: the x86-64 and aarch64 Linux ABIs)."""

    def __init__(self, path):
        self.path = str(path)
        with open(path, "rb") as file:
            self._data = file.read()
        data = self._data
        if data[:4] != ELF_MAGIC:
            raise NotElf(f"{path} is not an ELF file")
        if data[4] != 2 or data[5] != 1:
            raise NotElf(f"{path} is not a 64-bit little-endian ELF file")
        (machine,) = struct.unpack_from("<H", data, 18)
        self.machine = MACHINES.get(machine, f"e_machine {machine}")
        shoff, = struct.unpack_from("<Q", data, 40)
        shentsize, shnum = struct.unpack_from("<HH", data, 58)
        self._sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
        self.needed, self.runpath, self.rpath, self.soname = [], [], [], None
        self.version_needs = {}  # library -> [version names], "libc.so.6" -> ["GLIBC_2.2.5", "GLIBC_2.34"]
        for section in self._sections:
            kind = section[1]
            if kind == SHT_DYNAMIC:
                self._read_dynamic(section)
            elif kind == SHT_GNU_VERNEED:
                self._read_version_needs(section)

    def _string(self, table_index, offset):
        start = self._sections[table_index][4] + offset
        return self._data[start:self._data.index(b"\0", start)].decode("utf-8", "replace")

    def _read_dynamic(self, section):
        _, _, _, _, offset, size, strings, _, _, entsize = section
        for position in range(offset, offset + size, entsize or 16):
            tag, value = struct.unpack_from("<qQ", self._data, position)
            if tag == 0:
                break
            if tag == DT_NEEDED:
                self.needed.append(self._string(strings, value))
            elif tag == DT_SONAME:
                self.soname = self._string(strings, value)
            elif tag == DT_RUNPATH:
                self.runpath = [p for p in self._string(strings, value).split(":") if p]
            elif tag == DT_RPATH:
                self.rpath = [p for p in self._string(strings, value).split(":") if p]

    def _read_version_needs(self, section):
        _, _, _, _, offset, _, strings, count, _, _ = section
        position = offset
        for _ in range(count):
            _, aux_count, file_name, aux, following = struct.unpack_from("<HHIII", self._data, position)
            library = self._string(strings, file_name)
            names = self.version_needs.setdefault(library, [])
            aux_position = position + aux
            for _ in range(aux_count):
                _, _, _, name, aux_next = struct.unpack_from("<IHHII", self._data, aux_position)
                names.append(self._string(strings, name))
                aux_position += aux_next
            position += following
