# SPDX-License-Identifier: Apache-2.0
"""Gives a virtual environment Debian's pytest, where no package index is reachable: run by Debian's python3,
it links pytest and the distributions it requires (for the environment's Python version) from Debian's
dist-packages into FOLDER, and writes a .pth file naming FOLDER into the environment's site-packages. Only
those distributions become visible (not the rest of dist-packages, as --system-site-packages would make them).
pytest and its requirements are pure Python, so Debian's copies run under any Python 3 of the same era.

    /usr/bin/python3 expose_debian_pytest.py FOLDER SITE_PACKAGES PYTHON_VERSION
"""

import importlib.metadata
import pathlib
import re
import sys

from packaging.markers import Marker
from packaging.requirements import Requirement


def closure(name, python_version):
    """pytest and every distribution it requires, transitively, for that Python."""
    seen, pending = {}, [name]
    environment = {"python_version": python_version, "python_full_version": python_version + ".0", "extra": ""}
    while pending:
        current = pending.pop()
        key = re.sub(r"[-_.]+", "-", current).lower()
        if key in seen:
            continue
        try:
            distribution = importlib.metadata.distribution(current)
        except importlib.metadata.PackageNotFoundError:
            sys.exit(f"expose_debian_pytest: {current} (required by pytest) is not installed for Debian's python3 "
                     "(tools/setup.sh installs python3-pytest)")
        seen[key] = distribution
        for text in distribution.requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or Marker(str(requirement.marker)).evaluate(environment):
                pending.append(requirement.name)
    return list(seen.values())


def entries(distribution):
    """The top-level files and folders of one distribution in its site folder, its metadata folder included."""
    site = pathlib.Path(distribution.locate_file(""))
    metadata = pathlib.Path(distribution._path)  # the .dist-info or .egg-info folder
    names = set((distribution.read_text("top_level.txt") or "").split())
    if not names and distribution.files:
        names = {file.parts[0] for file in distribution.files if not file.parts[0].endswith(("-info", ".pth"))}
    found = {metadata}
    for name in names:
        for candidate in (site / name, site / f"{name}.py"):
            if candidate.exists():
                found.add(candidate)
    return found


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    folder, site_packages, python_version = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
    folder.mkdir(parents=True, exist_ok=True)
    linked = []
    for distribution in closure("pytest", python_version):
        for path in entries(distribution):
            (folder / path.name).symlink_to(path)
        linked.append(f"{distribution.metadata['Name']} {distribution.version}")
    (site_packages / "debian-pytest.pth").write_text(f"{folder.resolve()}\n", encoding="utf-8")
    print("pytest from Debian: " + ", ".join(sorted(linked)))


if __name__ == "__main__":
    main()
