#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that host-code edits left the built-in kernels' machine code alone.

Compiles every kernels/*.cu that differs between BASE (default: main) and the working tree twice, as it is and as
it was at BASE, to sm_90 cubins with the build's own nvcc command (build/compile_commands.json), and compares the
machine code (.text.* sections) of every kernel and the line tables (.debug_line, .nv_debug_line_sass: recorded
profiles and blame name kernel source lines) byte for byte. Needs nvcc and readelf, no GPU. Exit status 1 when a
kernel's code or line table differs or a kernel appears or disappears. The old source is compiled from the same
path (the file is swapped for the compile and restored).

    validation/same_kernel_machine_code.py [BASE]
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(arguments, **options):
    return subprocess.run(arguments, capture_output=True, text=True, check=True, **options).stdout


def kernel_code(cubin):
    """The hex dump of each .text.<kernel> section and of the line tables, by section name."""
    names = []
    for line in run(["readelf", "-S", "-W", cubin]).splitlines():
        if line.strip().startswith("[") and "]" in line:
            fields = line.split("]", 1)[1].split()
            if fields and (fields[0].startswith(".text.") or fields[0] in (".debug_line", ".nv_debug_line_sass")):
                names.append(fields[0])
    sections = {name: run(["readelf", "-x", name, cubin]) for name in names}
    if ".debug_line" in sections:
        # Source line by address; the raw table also holds the file's size and time, which edits change.
        sections[".debug_line"] = run(["readelf", "--debug-dump=decodedline", cubin])
    return sections


def compile_cubin(entry, source, output):
    arguments = [a for a in shlex.split(entry["command"]) if not a.startswith("--generate-code")]
    position = arguments.index("-c")
    arguments[position : position + 2] = ["-cubin", source]
    arguments[arguments.index("-o") + 1] = output
    arguments.insert(1, "-arch=sm_90")
    subprocess.run(arguments, cwd=entry["directory"], check=True)


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else "main"
    changed = run(["git", "diff", "--name-only", base, "--", "kernels"], cwd=ROOT).split()
    with open(os.path.join(ROOT, "build", "compile_commands.json"), encoding="utf-8") as database:
        entries = json.load(database)
    all_same = True
    with tempfile.TemporaryDirectory() as work:
        for path in (p for p in changed if p.endswith(".cu")):
            for entry in (e for e in entries if e["file"] == os.path.join(ROOT, path)):
                tag = entry.get("output", path).replace("/", "_")
                compile_cubin(entry, entry["file"], f"{work}/new_{tag}.cubin")
                with open(entry["file"], encoding="utf-8") as stream:
                    current = stream.read()
                try:
                    with open(entry["file"], "w", encoding="utf-8") as stream:
                        stream.write(run(["git", "show", f"{base}:{path}"], cwd=ROOT))
                    compile_cubin(entry, entry["file"], f"{work}/old_{tag}.cubin")
                finally:
                    with open(entry["file"], "w", encoding="utf-8") as stream:
                        stream.write(current)
                new = kernel_code(f"{work}/new_{tag}.cubin")
                old = kernel_code(f"{work}/old_{tag}.cubin")
                same = new.keys() == old.keys() and all(new[k] == old[k] for k in new)
                all_same = all_same and same
                verdict = "identical" if same else "DIFFERENT"
                print(f"{path} ({entry.get('output', path)}): {len(new)} sections (kernels, line tables), {verdict}")
                if not same:
                    print("  only now:", sorted(set(new) - set(old)), "only before:", sorted(set(old) - set(new)),
                          "differ:", [k for k in new if k in old and new[k] != old[k]])
    return 0 if all_same else 1


if __name__ == "__main__":
    sys.exit(main())
