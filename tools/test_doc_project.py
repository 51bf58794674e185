#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Builds the project that a documentation page spells out, from the page's own snippets, against the
installed package, and runs `static` and its tests on it: the docs' code cannot drift from what works. Then the
library is rebuilt for `90-virtual` only, and `static` must say that the build holds only PTX.

    tools/test_doc_project.py BUILD_DIR WORK_DIR [PAGE.md ...]     (default: docs/user-kernels.md)

A snippet belongs to a file when an HTML comment naming it stands right before its fence:

    <!-- file: counterguard/register.cu -->
    ```cpp
    ...
    ```

Blocks naming the same file are joined in page order. BUILD_DIR is counterguard's build folder (installed
with `cmake --install` into WORK_DIR/prefix); WORK_DIR is emptied first.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

SOURCE_DIR = pathlib.Path(__file__).resolve().parent.parent
MARKED_BLOCK = re.compile(r"<!-- file: (?P<path>[^ ]+) -->\n```[^\n]*\n(?P<body>.*?)^```$", re.S | re.M)
MARKER = re.compile(r"<!-- file: ")


def project_files(pages):
    """{relative path: text} from every marked block of the pages, in order."""
    files = {}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        blocks = list(MARKED_BLOCK.finditer(text))
        if len(blocks) != len(MARKER.findall(text)):
            raise SystemExit(f"{page}: a '<!-- file: ... -->' marker is not right before a fenced block")
        for block in blocks:
            path = block.group("path")
            if path.startswith("/") or ".." in pathlib.PurePosixPath(path).parts:
                raise SystemExit(f"{page}: '{path}' is not a path inside the project")
            files[path] = files.get(path, "") + block.group("body")
    return files


def run(command, **options):
    print("+", " ".join(str(part) for part in command), flush=True)
    return subprocess.run(command, check=True, **options)


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    build = pathlib.Path(sys.argv[1]).resolve()
    work = pathlib.Path(sys.argv[2]).resolve()
    pages = [pathlib.Path(p) for p in sys.argv[3:]] or [SOURCE_DIR / "docs" / "user-kernels.md"]
    files = project_files(pages)
    if "CMakeLists.txt" not in files:
        raise SystemExit("the pages spell out no CMakeLists.txt")
    shutil.rmtree(work, ignore_errors=True)
    project = work / "project"
    for path, text in files.items():
        (project / path).parent.mkdir(parents=True, exist_ok=True)
        (project / path).write_text(text, encoding="utf-8")
    print(f"project from {', '.join(p.name for p in pages)}: {', '.join(sorted(files))}")

    prefix = work / "prefix"
    run(["cmake", "--install", build, "--prefix", prefix], stdout=subprocess.DEVNULL)
    run(["cmake", "-S", project, "-B", work / "build", "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
         f"-DCMAKE_PREFIX_PATH={prefix}"])
    run(["cmake", "--build", work / "build"])

    runners = [p for p in (work / "build").iterdir() if p.name.endswith("_counterguard") and os.access(p, os.X_OK)]
    if len(runners) != 1:
        raise SystemExit(f"expected one counterguard runner in the build, found {runners}")
    static = subprocess.run([runners[0], "static", "counterguard/"], cwd=project, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    print(static.stdout)
    if static.returncode != 0:
        raise SystemExit(f"`{runners[0].name} static counterguard/` exited with {static.returncode}")
    if "static checks only:" not in static.stdout or " 0 errors" not in static.stdout:
        raise SystemExit("`static` did not check the documented cases")
    # The documented GoogleTest test builds and runs (skipped, with its reason, without a GPU).
    run(["ctest", "--test-dir", work / "build", "--output-on-failure", "--no-tests=error"])

    # The same library built for a virtual architecture only (PTX, no cubin): `static` must say so and what to
    # set, not blame the kernel's name. The build folder regenerates itself: no second configure.
    cmake_lists = project / "CMakeLists.txt"
    real = "set(CMAKE_CUDA_ARCHITECTURES 90)"
    if real not in cmake_lists.read_text(encoding="utf-8"):
        raise SystemExit(f"the page's CMakeLists.txt no longer says '{real}'")
    cmake_lists.write_text(cmake_lists.read_text(encoding="utf-8").replace(real, real.replace("90", "90-virtual")))
    run(["cmake", "--build", work / "build", "--target", runners[0].name])
    ptx_only = subprocess.run([runners[0], "static", "counterguard/"], cwd=project, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    print(ptx_only.stdout)
    if ptx_only.returncode != 1 or "holds it only as PTX" not in ptx_only.stdout or \
            "set CMAKE_CUDA_ARCHITECTURES to 90 or 90-real (not 90-virtual)" not in ptx_only.stdout:
        raise SystemExit("`static` on a PTX-only build does not say it holds only PTX and what to set")
    print("doc project: built from the page's snippets against the installed package; static passed, and "
          "explains a PTX-only build")


if __name__ == "__main__":
    main()
