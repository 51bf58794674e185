# SPDX-License-Identifier: Apache-2.0
"""The `counterguard` command of the wheel (console entry point): the tool the wheel carries, counterguard/bin/
counterguard, run in place of this Python process, so that its exit status, signals and output are the tool's
own. It finds its libraries and the injection library of `exec` inside the wheel (counterguard/lib)."""

import os
import pathlib
import sys


def tool_path():
    return pathlib.Path(__file__).resolve().parent / "bin" / "counterguard"


def main():
    tool = tool_path()
    if not os.access(tool, os.X_OK):
        sys.stderr.write(f"counterguard: the tool is not part of this installation of the package ({tool}); the "
                         "wheel carries it (docs/install.md), a source build has it at build/counterguard\n")
        return 127
    os.execv(str(tool), ["counterguard", *sys.argv[1:]])
    return 0  # not reached: execv replaces this process


if __name__ == "__main__":
    sys.exit(main())
