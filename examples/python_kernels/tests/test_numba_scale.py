# SPDX-License-Identifier: Apache-2.0
"""Coalescing of a Numba kernel: consecutive threads read consecutive 4-byte words, 4 sectors a request."""

import pytest

numpy = pytest.importorskip("numpy")
pytest.importorskip("numba")

from python_kernels import planted  # noqa: E402
from python_kernels.numba_scale import numba_problem, scale  # noqa: E402

N = 1 << 18


@pytest.fixture(scope="module")
def numba_cuda():
    problem = numba_problem()
    if problem is not None:
        pytest.skip(problem)
    from numba import cuda
    return cuda


@pytest.mark.counterguard(expect={
    "global_load_sectors_per_request": 4,
    "global_store_sectors_per_request": 4,
    "global_load_requests": N // 32,
})
def test_scale_reads_four_sectors_a_request(counters, numba_cuda):
    stride = 2 if planted("numba_stride") else 1
    host = numpy.arange(N * 2, dtype=numpy.float32)
    src = numba_cuda.to_device(host)
    dst = numba_cuda.device_array(N, dtype=numpy.float32)
    with counters.profile() as m:
        scale(src, dst, N, stride)
    assert numpy.array_equal(dst.copy_to_host(), host[: N * stride : stride] * 2)
    assert len(m.kernels) == 1
