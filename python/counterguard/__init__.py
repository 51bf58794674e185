# SPDX-License-Identifier: Apache-2.0
"""counterguard for Python: assert on the CUPTI counters of the kernels a piece of Python launches (PyTorch,
Triton, CuPy, Numba), with the metric names, classes, expectations, baselines and reports of `counterguard run`.

    import counterguard

    with counterguard.profile(["shared_load_bank_conflicts", "global_load_sectors_per_request"]) as m:
        kernel[grid](x, y, n)
    assert m["shared_load_bank_conflicts"] == 0
    assert m.for_kernel("kernel")["global_load_sectors_per_request"] == 4

The pytest plugin (counterguard.pytest_plugin, loaded automatically once the package is installed) adds the
`counters` fixture, the `counterguard` marker and the --counterguard-* options: docs/python.md.
"""

from ._catalog import MetricInfo, metrics, resolve_metric
from ._profiling import KernelLaunch, Measurement, measure_recording, profile, profiled_by_exec, profiling_unavailable
from .errors import (CounterguardError, FileError, InputError, InternalError, LibraryNotFound, ProfilingFailed,
                     ProfilingUnavailable)

__version__ = "0.3.0"

__all__ = [
    "CounterguardError",
    "FileError",
    "InputError",
    "InternalError",
    "KernelLaunch",
    "LibraryNotFound",
    "Measurement",
    "MetricInfo",
    "ProfilingFailed",
    "ProfilingUnavailable",
    "measure_recording",
    "metrics",
    "profile",
    "profiled_by_exec",
    "profiling_unavailable",
    "resolve_metric",
]
