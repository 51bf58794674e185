# SPDX-License-Identifier: Apache-2.0
"""Coalescing of a Triton copy, from first principles: a warp's load of 32 consecutive 4-byte words is 4 sectors of
32 bytes; with a stride of 32 words every word is in its own sector. PyTorch and Triton are imported by the fixture,
so that the module is collected where they are missing (a CPU job judging a recording)."""

import pytest

N = 1 << 18


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


@pytest.fixture(scope="module")
def copy(torch):
    pytest.importorskip("triton")
    from kernels.triton_copy import copy
    return copy


def buffers(torch, n, stride):
    src = torch.arange(n * stride, dtype=torch.float32, device="cuda")
    return src, torch.empty(n, dtype=torch.float32, device="cuda")


@pytest.mark.parametrize("stride", [1, 32])
@pytest.mark.counterguard(expect={
    "global_load_sectors_per_request": "min(4 * stride, 32)",
    "global_store_sectors_per_request": 4,
    "global_load_requests": f"{N} / 32",  # one load per thread, 32 threads a request
})
def test_copy_reads_four_sectors_a_request_per_word_stride(counters, torch, copy, stride):
    src, dst = buffers(torch, N, stride)
    with counters.profile(["launch_local_bytes_per_thread"]) as m:
        copy(src, dst, N, stride)
    assert torch.equal(dst, src[::stride])
    assert m["launch_local_bytes_per_thread"] == 0


@pytest.mark.counterguard(expect={"global_load_requests": "launches * 262144 / 32"}, parameters=["launches"])
def test_blocks_total_their_launches(counters, torch, copy):
    src, dst = buffers(torch, N, 1)
    with counters.profile(parameters={"launches": 1}):
        copy(src, dst, N, 1)
    with counters.profile(name="twice", parameters={"launches": 2}):
        copy(src, dst, N, 1)
        copy(src, dst, N, 1)
    assert torch.equal(dst, src)


@pytest.fixture
def contiguous(torch):
    """Made before the test: a marked test's whole body is profiled, and filling src launches a kernel."""
    src, dst = buffers(torch, N, 1)
    torch.cuda.synchronize()
    return src, dst


@pytest.mark.counterguard(expect={"global_store_sectors": N * 4 // 32})
def test_a_marked_test_is_profiled_as_a_whole(copy, contiguous):
    src, dst = contiguous
    copy(src, dst, N, 1)
