"""A Numba kernel that scales every STRIDE-th float of its input. Numba's CUDA target may not work with every
NumPy (numba-cuda against NumPy 2 fails on numpy.row_stack): numba_problem() says so, for the tests to skip."""

import math


def numba_problem():
    """Why Numba cannot compile and launch a kernel here, or None."""
    try:
        from numba import cuda
        if not cuda.is_available():
            return "numba finds no CUDA device"
        scale_kernel = kernel()
        import numpy
        src = cuda.to_device(numpy.ones(64, dtype=numpy.float32))
        dst = cuda.device_array(32, dtype=numpy.float32)
        scale_kernel[1, 32](src, dst, 1)
        cuda.synchronize()
    except AttributeError as failure:
        if "row_stack" not in str(failure):
            raise
        return f"numba cannot compile here ({failure}: numba-cuda needs a NumPy that has row_stack)"
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
