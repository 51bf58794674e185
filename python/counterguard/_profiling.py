# SPDX-License-Identifier: Apache-2.0
"""Profiling kernels inside this process: `with profile(metrics) as m:` and the Measurement it gives."""

import ctypes
import math
import weakref

from . import _library
from .errors import InputError, ProfilingUnavailable


def _options(device, max_launches, wait_for_gpu_seconds):
    options = {"max_launches": int(max_launches), "wait_for_gpu_seconds": float(wait_for_gpu_seconds)}
    if device is not None:
        options["device"] = int(device)
    return options


def _metric_names(metrics):
    if isinstance(metrics, str):
        return [metrics]
    names = list(metrics)
    for name in names:
        if not isinstance(name, str):
            raise InputError(f"counterguard: a metric name must be a str, got {name!r}")
    return names


class _CuptiBackend:
    """Profiling through the C ABI's in-process profiler (CUPTI on this process's GPU)."""

    def unavailable(self, options):
        try:
            _library.call("counterguard_profiling_unavailable", _library.encode(options))
        except ProfilingUnavailable as why:
            return why
        return None

    def begin(self, metrics, options):
        _library.call("counterguard_profile_begin", _library.encode(metrics), _library.encode(options))

    def end(self):
        return _library.call_for_handle("counterguard_profile_end")

    def abandon(self):
        _library.library().counterguard_profile_abandon()


# How blocks are profiled. The CUPTI backend is what ships; the package's own CPU tests put one here that
# measures recorded H200 counter data instead (python/tests/recorded_backend.py).
backend = _CuptiBackend()


class _Handle:
    """Owns one counterguard_measurement of the C ABI; freed when no Measurement uses it any more."""

    def __init__(self, pointer):
        self.pointer = pointer
        weakref.finalize(self, _free_measurement, pointer)


def _free_measurement(pointer):
    if pointer and _library._library is not None:
        _library._library.counterguard_measurement_free(pointer)


class KernelLaunch:
    """One profiled kernel launch: its demangled function, mangled symbol, index within the block and the
    values measured for it."""

    def __init__(self, entry):
        self.function = entry["function"]
        self.mangled = entry["mangled"]
        self.launch_index = entry["launch_index"]
        self.metrics = {name: (math.nan if value is None else value) for name, value in entry["metrics"].items()}
        # Metrics this launch could not be given, with why (a kernel whose module loaded before profiling
        # began has no spill bytes: the driver does not state them).
        self.unmeasured = dict(entry.get("unmeasured", {}))

    def __repr__(self):
        return f"KernelLaunch({self.function!r}, launch_index={self.launch_index}, metrics={self.metrics!r})"


class Measurement:
    """What a profiled block measured: the same names, classes and totals as the C++ counterguard::profile.

        m["shared_load_bank_conflicts"]   the value for the block as a whole (KeyError when not measured)
        m.cls("spill_store_bytes")        "static", "exact" or "noisy"
        m.for_kernel("add_kernel")        the launches of one kernel, totalled the same way
        m.kernels                         every launch, in order (KernelLaunch)

    Totals over several launches are those of a `counterguard run` case: a summable metric (a count, or a ratio
    of counts such as sectors per request) is computed from the summed counters, static and launch metrics take
    the largest value; other metrics are totalled only for a single launch."""

    def __init__(self):
        self._handle = None
        self._document = None

    @classmethod
    def _from_handle(cls, handle, kernel=None):
        measurement = cls()
        measurement._handle = handle
        kernel_bytes = None if kernel is None else kernel.encode("utf-8")
        measurement._document = _library.call_for_json("counterguard_measurement_json", handle.pointer,
                                                       kernel_bytes)
        return measurement

    def _case(self):
        if self._document is None:
            raise RuntimeError("counterguard: the measurement is taken when the `with` block ends")
        return self._document["cases"][0]

    @property
    def document(self):
        """The measurement as a results document (the results JSON of `counterguard run`, one case)."""
        self._case()
        return self._document

    @property
    def result(self):
        """The case of the results document: kernels, totals with classes, passes, seconds."""
        return self._case()

    @property
    def metadata(self):
        """The device it was measured on (name, chip, SM count, versions, gpu_key)."""
        self._case()
        return self._document["metadata"]

    @property
    def kernels(self):
        return [KernelLaunch(entry) for entry in self._case()["kernels"]]

    @property
    def kernel_names(self):
        """The distinct kernels launched, in launch order."""
        names = []
        for entry in self._case()["kernels"]:
            if entry["function"] not in names:
                names.append(entry["function"])
        return names

    @property
    def totals(self):
        return {name: (math.nan if t["value"] is None else t["value"]) for name, t in self._case()["totals"].items()}

    @property
    def classes(self):
        return {name: t["class"] for name, t in self._case()["totals"].items()}

    @property
    def seconds(self):
        return self._case()["seconds"]

    def __getitem__(self, metric):
        total = self._case()["totals"].get(metric)
        if total is None or total["value"] is None:
            kernels = ", ".join(self.kernel_names) or "no kernel launches"
            why = [f"launch {entry['launch_index']} of {entry['function']}: {entry['unmeasured'][metric]}"
                   for entry in self._case()["kernels"] if metric in entry.get("unmeasured", {})]
            if why:
                raise KeyError(f"metric '{metric}' was not measured in this block ({kernels}): {why[0]}")
            raise KeyError(f"metric '{metric}' was not measured in this block ({kernels}); a compiler metric "
                           "needs the kernels' modules, a per-launch one a kernel that ran")
        return total["value"]

    def __contains__(self, metric):
        total = self._case()["totals"].get(metric)
        return total is not None and total["value"] is not None

    def get(self, metric, default=None):
        return self[metric] if metric in self else default

    def cls(self, metric):
        total = self._case()["totals"].get(metric)
        if total is not None:
            return total["class"]
        from ._catalog import resolve_metric
        return resolve_metric(metric).cls

    def for_kernel(self, kernel):
        """The launches of `kernel` (its demangled name or the last `::` part of it), totalled as a case
        totals its launches."""
        self._case()
        if self._handle is None:
            raise RuntimeError("counterguard: this measurement has no launches to narrow")
        return Measurement._from_handle(self._handle, kernel)

    def __repr__(self):
        if self._document is None:
            return "Measurement(<taken when the block ends>)"
        return f"Measurement(kernels={self.kernel_names!r}, totals={self.totals!r})"


class profile:
    """Profiles the kernels launched inside the block (every thread; CUDA runtime or driver: PyTorch, Triton,
    CuPy, Numba):

        with counterguard.profile(["shared_load_bank_conflicts", "spill_store_bytes"]) as m:
            kernel[grid](...)
        assert m["shared_load_bank_conflicts"] == 0

    `metrics`: aliases (docs/metrics.md) or raw CUPTI names. Raises ProfilingUnavailable (no GPU, no permission,
    another profiler) when the block is entered, InputError for an unknown metric, ProfilingFailed when more
    than `max_launches` kernels were launched. The device is synchronised when the block ends. One block at a
    time per process."""

    def __init__(self, metrics, *, device=None, max_launches=256, wait_for_gpu_seconds=600.0):
        self.metrics = _metric_names(metrics)
        self.options = _options(device, max_launches, wait_for_gpu_seconds)
        self.measurement = Measurement()

    def __enter__(self):
        backend.begin(self.metrics, self.options)
        return self.measurement

    def __exit__(self, kind, value, traceback):
        if kind is not None:
            backend.abandon()
            return False
        handle = _Handle(backend.end())
        filled = Measurement._from_handle(handle)
        self.measurement._handle = filled._handle
        self.measurement._document = filled._document
        return False


def profiling_unavailable(*, device=None):
    """Why this process cannot profile (a ProfilingUnavailable carrying .problem and .reason), or None."""
    return backend.unavailable(_options(device, 256, 600.0))


def profiled_by_exec():
    """Whether `counterguard exec` runs this process (its injection library is then the profiler)."""
    why = profiling_unavailable()
    return why is not None and why.problem == "under_exec"


def measure_recording(archive_dir, metrics, *, case=0, metadata=None):
    """Measures a block recorded earlier, offline (no GPU): case `case` of a counter-data archive
    (`counterguard run --save-counter-data DIR`), as a profiled block is measured."""
    handle = _Handle(_library.call_for_handle(
        "counterguard_measure_recording", str(archive_dir).encode("utf-8"), int(case),
        _library.encode(_metric_names(metrics)), _library.encode(metadata)))
    return Measurement._from_handle(handle)


def save_measurement(measurement, archive_dir, name, metadata=None):
    """Saves what a profiled (or recorded) block measured as a counter-data archive of one case named `name`,
    which measure_recording measures again exactly (counterguard_measurement_save)."""
    handle = measurement._handle
    if handle is None:
        raise InputError("counterguard: this measurement holds no counter data to save")
    save = _library.library().counterguard_measurement_save
    save.restype = ctypes.c_int
    save.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p]
    _library.raise_for(save(handle.pointer, str(archive_dir).encode("utf-8"), name.encode("utf-8"),
                            _library.encode(metadata)))
