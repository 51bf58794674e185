# SPDX-License-Identifier: Apache-2.0
"""Kernels a Python project might have, each with a well-behaved variant and a slow one, for counterguard's
example tests: a Triton copy (coalesced or strided loads), a CuPy shared-memory transpose (padded or unpadded
tile) and a Numba scale (strided loads).

CG_PLANT plants a regression in the well-behaved variant, for counterguard's validation to show the failing
test naming the metric: triton_stride (the coalesced copy reads every other word), cupy_padding (the padded
tile loses its padding), numba_stride (the scale reads every other word)."""

import os


def planted(name):
    """Whether CG_PLANT names this planted regression."""
    return name in os.environ.get("CG_PLANT", "").split(",")
