# SPDX-License-Identifier: Apache-2.0
"""Coalescing of a Triton copy, from first principles: a warp's load of 32 consecutive 4-byte words touches
128 bytes, 4 sectors of 32 bytes; with a stride of 32 words every word is in its own sector, 32 a request."""

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")

from python_kernels import planted  # noqa: E402
from python_kernels.triton_copy import copy  # noqa: E402

N = 1 << 18


def buffers(n, stride):
    src = torch.arange(n * stride, dtype=torch.float32, device="cuda")
    return src, torch.empty(n, dtype=torch.float32, device="cuda")


@pytest.mark.parametrize("n", [N])
@pytest.mark.counterguard(expect={
    "global_load_sectors_per_request": 4,
    "global_store_sectors_per_request": 4,
    "global_load_requests": "n / 32",  # one load per thread, 32 threads a request
    "launch_local_bytes_per_thread": 0,  # nothing spilled to local memory
})
def test_coalesced_copy_reads_four_sectors_a_request(counters, n):
    stride = 2 if planted("triton_stride") else 1
    src, dst = buffers(n, 32)
    with counters.profile() as m:
        copy(src, dst, n, stride)
    assert torch.equal(dst, src[: n * stride : stride])
    assert m.for_kernel("copy_kernel")["global_load_requests"] == n / 32


@pytest.mark.parametrize("n", [N])
@pytest.mark.counterguard(expect={
    "global_load_sectors_per_request": 32,
    "global_store_sectors_per_request": 4,
    "global_load_sectors": "n",  # one sector per word read
})
def test_strided_copy_reads_a_sector_per_word(counters, n):
    src, dst = buffers(n, 32)
    with counters.profile() as m:
        copy(src, dst, n, 32)
    assert torch.equal(dst, src[::32])
    assert m.kernel_names == ["copy_kernel"]


@pytest.mark.counterguard(expect={"global_load_sectors_per_request": 4, "global_load_requests": f"2 * {N} / 32"})
def test_two_launches_total_like_a_case(counters):
    # Totals over launches: the requests add up, sectors per request stays the ratio of the summed counters.
    src, dst = buffers(N, 1)
    with counters.profile() as m:
        copy(src, dst, N, 1)
        copy(src, dst, N, 1)
    assert len(m.kernels) == 2
    assert m.for_kernel("copy_kernel")["global_load_sectors_per_request"] == 4
