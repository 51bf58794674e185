# SPDX-License-Identifier: Apache-2.0
"""A regression blamed to its source line, planted in a user's project for the CI template tests.

The H200 recording (harness/test/fixtures/h200_builtin) measures 4063232 shared-store bank conflicts for
transpose/smem_unpadded?n=2048; the project's baseline is made to say 0 (the padded kernel's), so the gate finds a
regression of an exact counter. The per-instruction profile recorded on the H200
(harness/test/fixtures/h200_blame/unpadded.json) becomes a `blame --record-dir` directory for `evaluate
--blame-from`, and the kernel's source goes where the user's kernels live (kernels/transpose/transpose.cu), so the
blamed line (transpose.cu:34, the store) has a place in the repository.
"""

import json
import os
import shutil

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INSTANCE = "transpose/smem_unpadded?n=2048"
KERNEL_SOURCE = "kernels/transpose/transpose.cu"
BLAMED_LINE = 34
SUITE_LINE = 32  # cases/transpose.yaml: the case's shared_store_bank_conflicts expectation
KEY = "GH100-132sm-cuda13"
CONFLICTS = "shared_store_bank_conflicts: {value: 4063232, class: exact, min: 4063232, max: 4063232"
NO_CONFLICTS = "shared_store_bank_conflicts: {value: 0, class: exact, min: 0, max: 0"


def plant(project, baseline_dir, scratch):
    """Plants the regression in `project` (its baselines in `baseline_dir`, relative to it); returns the
    `--blame-from` directory, made under `scratch`."""
    baseline = os.path.join(project, baseline_dir, KEY, "transpose.yaml")
    with open(baseline, encoding="utf-8") as f:
        text = f.read()
    block = text.index(f"  {INSTANCE}:")
    end = text.find("\n  transpose/", block + 1)
    end = len(text) if end < 0 else end
    assert CONFLICTS in text[block:end], f"{INSTANCE}'s bank conflicts are not in {baseline}"
    with open(baseline, "w", encoding="utf-8") as f:
        f.write(text[:block] + text[block:end].replace(CONFLICTS, NO_CONFLICTS) + text[end:])
    # Without the per-line baseline the blame shows the lines that carry the conflicts now.
    lines = os.path.join(project, baseline_dir, KEY, "transpose.lines.json")
    if os.path.exists(lines):
        os.remove(lines)
    kernel = os.path.join(project, KERNEL_SOURCE)
    os.makedirs(os.path.dirname(kernel), exist_ok=True)
    shutil.copy(os.path.join(SOURCE, KERNEL_SOURCE), kernel)
    profiles = os.path.join(scratch, "blame-profiles")
    os.makedirs(profiles, exist_ok=True)
    shutil.copy(os.path.join(SOURCE, "harness", "test", "fixtures", "h200_blame", "unpadded.json"),
                os.path.join(profiles, "0000.json"))
    with open(os.path.join(profiles, "index.json"), "w", encoding="utf-8") as f:
        json.dump({INSTANCE: "0000.json"}, f)
    return profiles


def gate_arguments(profiles):
    """The gate's `arguments` input: only the planted case, blamed from the recorded profile."""
    return f"--filter {INSTANCE} --blame-from {profiles}"
