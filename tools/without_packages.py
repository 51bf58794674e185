#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs a command on a machine from which some Debian packages are hidden.

    unshare --mount --propagation private tools/without_packages.py PACKAGE... -- COMMAND [ARGUMENT...]

Inside a private mount namespace (root, or `unshare --user --map-root-user --mount`), every file the packages
installed disappears for COMMAND and its children: each folder that holds one is replaced by a tmpfs of links to
the rest of its entries, and a folder that holds nothing else disappears from its parent. The machine itself is
untouched. tools/test_release.sh builds a project against the release this way, without counterguard's -dev
packages, to show that the package needs none of them.
"""
import os
import subprocess
import sys
import tempfile


def package_files(package):
    listing = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True)
    if listing.returncode != 0:
        return None  # not installed: nothing to hide
    files = set()
    for line in listing.stdout.splitlines():
        path = line.strip()
        if not path or path.startswith(("/usr/share/doc", "/usr/share/lintian")):
            continue
        # dpkg lists the paths as unpacked; /lib and /usr/lib are one folder on merged-/usr systems.
        path = os.path.realpath(os.path.dirname(path)) + "/" + os.path.basename(path)
        if os.path.lexists(path) and (os.path.islink(path) or not os.path.isdir(path)):
            files.add(path)
    return files


def main():
    if "--" not in sys.argv:
        sys.exit("usage: without_packages.py PACKAGE... -- COMMAND [ARGUMENT...]")
    split = sys.argv.index("--")
    packages, command = sys.argv[1:split], sys.argv[split + 1:]
    hidden = set()
    for package in packages:
        files = package_files(package)
        if files is not None:
            hidden |= files
            print(f"without_packages: hiding {package} ({len(files)} files)", file=sys.stderr)

    wholly = {}

    def wholly_hidden(folder):
        # A folder whose every entry, at any depth, is hidden disappears as a whole.
        if folder not in wholly:
            result = True
            for entry in os.scandir(folder):
                if entry.is_dir(follow_symlinks=False):
                    result = wholly_hidden(entry.path)
                else:
                    result = entry.path in hidden
                if not result:
                    break
            wholly[folder] = result
        return wholly[folder]

    # The highest path of each hidden file whose folder is not wholly hidden, grouped by that folder.
    removed = {}
    for path in hidden:
        while os.path.dirname(path) != "/" and wholly_hidden(os.path.dirname(path)):
            path = os.path.dirname(path)
        removed.setdefault(os.path.dirname(path), set()).add(os.path.basename(path))

    originals = tempfile.mkdtemp(prefix="without-packages-")
    # Deepest first: a parent's view of a child folder is then the child's own replacement.
    for index, folder in enumerate(sorted(removed, key=lambda f: f.count("/"), reverse=True)):
        original = os.path.join(originals, str(index))
        os.mkdir(original)
        subprocess.run(["mount", "--rbind", folder, original], check=True)
        subprocess.run(["mount", "-t", "tmpfs", "tmpfs", folder], check=True)
        for entry in os.listdir(original):
            if entry not in removed[folder]:
                os.symlink(os.path.join(original, entry), os.path.join(folder, entry))
    still_there = [path for path in hidden if os.path.lexists(path)]
    if still_there:
        sys.exit(f"without_packages: still visible after hiding: {sorted(still_there)[:5]}")
    os.execvp(command[0], command)


if __name__ == "__main__":
    main()
