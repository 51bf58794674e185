# SPDX-License-Identifier: Apache-2.0
"""A Numba kernel that scales every STRIDE-th float of its input. numba-cuda still imports numpy.row_stack, which
NumPy 2.4 removed (it was an alias of numpy.vstack): the alias is put back before numba is imported. Where Numba
still cannot launch a kernel, numba_problem() says why, for the tests to skip."""

import math

import numpy

if not hasattr(numpy, "row_stack"):
    numpy.row_stack = numpy.vstack


def numba_problem():
    """Why Numba cannot compile and launch a kernel here, or None."""
    try:
        from numba import cuda
        if not cuda.is_available():
            return "numba finds no CUDA device"
        scale_kernel = kernel()
        src = cuda.to_device(numpy.ones(64, dtype=numpy.float32))
        dst = cuda.device_array(32, dtype=numpy.float32)
        scale_kernel[1, 32](src, dst, 1)
        cuda.synchronize()
    except Exception as failure:  # noqa: BLE001 (any failure of numba's own is a reason to skip, not a test failure)
        return f"numba cannot launch a kernel here ({type(failure).__name__}: {failure})"
    return None


_kernel = None


def kernel():
    global _kernel
    if _kernel is None:
        from numba import cuda

        @cuda.jit
        def scale_kernel(src, dst, stride):
            i = cuda.grid(1)
            if i < dst.size:
                dst[i] = src[i * stride] * 2.0

        _kernel = scale_kernel
    return _kernel


def scale(src, dst, n, stride, threads=256):
    """dst[i] = 2 * src[i * stride] for i < n (Numba device arrays)."""
    kernel()[math.ceil(n / threads), threads](src, dst, stride)
