# SPDX-License-Identifier: Apache-2.0
"""counterguard's exceptions: one per failure family of the C ABI's status codes."""


class CounterguardError(Exception):
    """Base of every error counterguard raises."""


class InputError(CounterguardError, ValueError):
    """Invalid input: an unknown metric (the message names the closest aliases), a malformed expectation, a
    formula using an unknown parameter, a baseline file of another GPU key, calls out of order."""


class ProfilingUnavailable(CounterguardError):
    """Profiling is not possible in this process. `problem` says why: "no_gpu", "insufficient_privileges",
    "profiler_busy", "under_external_profiler" (ncu, nsys), "unsupported_device", "gpu_wait_expired" or
    "under_exec" (counterguard exec profiles this process); `reason` is the message. The pytest plugin turns
    it into a skip with the reason."""

    def __init__(self, reason, problem=""):
        super().__init__(reason)
        self.reason = reason
        self.problem = problem


class FileError(CounterguardError, OSError):
    """A file or directory could not be read, written or created."""


class ProfilingFailed(CounterguardError, RuntimeError):
    """Profiling began and failed: more launches than max_launches, a CUDA or CUPTI error in the work."""


class InternalError(CounterguardError):
    """A bug in counterguard."""


class LibraryNotFound(CounterguardError, ImportError):
    """libcounterguard_capi.so could not be found or loaded; the message says where it was looked for."""
