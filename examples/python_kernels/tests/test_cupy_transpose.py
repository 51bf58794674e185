# SPDX-License-Identifier: Apache-2.0
"""Shared-memory bank conflicts of a CuPy transpose, from first principles: a warp reads a column of the
32 x 32 float tile, 32 words 32 words apart, all in one bank: 32 wavefronts for one instruction, 31 of them
conflicts; with one float of padding per row the column spans the 32 banks, no conflict."""

import pytest

cupy = pytest.importorskip("cupy")

from python_kernels import planted  # noqa: E402
from python_kernels.cupy_transpose import transpose, transpose_kernel  # noqa: E402


def matrices(n):
    src = cupy.arange(n * n, dtype=cupy.float32).reshape(n, n)
    return src, cupy.empty_like(src)


@pytest.mark.parametrize("n", [1024, 2048])
@pytest.mark.counterguard(expect={
    "shared_load_bank_conflicts": "31 * n * n / 32",  # 31 per warp-wide column read, one read per warp
    "shared_load_instructions": "n * n / 32",
    "shared_store_bank_conflicts": 0,  # rows are written across the banks
    "global_load_sectors_per_request": 4,
    "global_store_sectors_per_request": 4,
})
def test_unpadded_tile_has_31_way_conflicts(counters, n):
    kernel = transpose_kernel("transpose_unpadded", pad=0)
    src, dst = matrices(n)
    with counters.profile(["shared_load_wavefronts_per_instruction"]) as m:
        transpose(kernel, src, dst, n)
    assert bool((dst == src.T).all())
    assert m.for_kernel("transpose_unpadded")["shared_load_wavefronts_per_instruction"] == 32


@pytest.mark.parametrize("n", [1024, 2048])
@pytest.mark.counterguard(expect={
    "shared_load_bank_conflicts": 0,
    "shared_store_bank_conflicts": 0,
    "shared_load_instructions": "n * n / 32",
})
def test_padded_tile_is_conflict_free(counters, n):
    kernel = transpose_kernel("transpose_padded", pad=0 if planted("cupy_padding") else 1)
    src, dst = matrices(n)
    with counters.profile(["shared_load_wavefronts_per_instruction"]) as m:
        transpose(kernel, src, dst, n)
    assert bool((dst == src.T).all())
    assert m["shared_load_wavefronts_per_instruction"] >= 1
