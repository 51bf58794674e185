# SPDX-License-Identifier: Apache-2.0
"""Finding and calling libcounterguard_capi.so, the C ABI (counterguard/capi/counterguard_c.h), through ctypes."""

import ctypes
import json
import os
from pathlib import Path

from . import errors

LIBRARY_NAME = "libcounterguard_capi.so"
LIBRARY_VARIABLE = "COUNTERGUARD_LIBRARY"
# The C ABI this package was written for (COUNTERGUARD_C_API_VERSION).
API_VERSION = 1

OK = 0
_STATUS_ERRORS = {
    1: errors.InputError,
    2: errors.ProfilingUnavailable,
    3: errors.FileError,
    4: errors.ProfilingFailed,
    5: errors.InternalError,
}


def candidate_paths():
    """Where the library is looked for, in order: $COUNTERGUARD_LIBRARY, beside the package (pip and cmake
    --install put it there), the build tree of a source checkout (build/, build-debug/)."""
    explicit = os.environ.get(LIBRARY_VARIABLE)
    if explicit:
        return [Path(explicit)]
    package = Path(__file__).resolve().parent
    checkout = package.parent.parent
    return [package / LIBRARY_NAME, checkout / "build" / LIBRARY_NAME, checkout / "build-debug" / LIBRARY_NAME]


_library = None


def library():
    """The loaded library (loaded on first use, so that importing the package never needs it)."""
    global _library
    if _library is None:
        _library = _load()
    return _library


def _load():
    tried = candidate_paths()
    for path in tried:
        if not path.is_file():
            continue
        try:
            handle = ctypes.CDLL(str(path))
        except OSError as failure:
            raise errors.LibraryNotFound(f"counterguard: cannot load {path}: {failure}") from failure
        _declare(handle)
        version = handle.counterguard_api_version()
        if version != API_VERSION:
            raise errors.LibraryNotFound(
                f"counterguard: {path} has C API version {version}, this package needs {API_VERSION}; "
                "install the package and the library from the same build")
        return handle
    looked = ", ".join(str(p) for p in tried)
    raise errors.LibraryNotFound(
        f"counterguard: {LIBRARY_NAME} not found (looked at: {looked}); set {LIBRARY_VARIABLE} to its path, "
        "install the package with pip from a build (docs/python.md), or build the target counterguard_capi")


def _declare(handle):
    text = ctypes.c_char_p
    out = ctypes.POINTER(ctypes.c_void_p)
    status = ctypes.c_int
    signatures = {
        "counterguard_api_version": (ctypes.c_int, []),
        "counterguard_version": (text, []),
        "counterguard_last_error": (text, []),
        "counterguard_last_error_problem": (text, []),
        "counterguard_free": (None, [ctypes.c_void_p]),
        "counterguard_profiling_unavailable": (status, [text]),
        "counterguard_profile_begin": (status, [text, text]),
        "counterguard_profile_end": (status, [out]),
        "counterguard_profile_abandon": (None, []),
        "counterguard_measure_recording": (status, [text, ctypes.c_int, text, text, out]),
        "counterguard_measurement_json": (status, [ctypes.c_void_p, text, out]),
        "counterguard_measurement_free": (None, [ctypes.c_void_p]),
        "counterguard_device_metadata": (status, [out]),
        "counterguard_metric_catalog": (status, [out]),
        "counterguard_resolve_metric": (status, [text, out]),
        "counterguard_check_expectations": (status, [text, text, out]),
        "counterguard_compare_baselines": (status, [text, text, text, out]),
        "counterguard_settle": (status, [text, text, out, ctypes.POINTER(ctypes.c_int)]),
        "counterguard_update_baselines": (status, [text, text, out]),
        "counterguard_write_reports": (status, [text, text]),
        "counterguard_render_console": (status, [text, text, out]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(handle, name)
        function.restype = restype
        function.argtypes = argtypes


def encode(value):
    """A str, or a JSON-able value as JSON text, as the C ABI's UTF-8 bytes (None stays None)."""
    if value is None:
        return None
    if not isinstance(value, str):
        value = json.dumps(value, allow_nan=False)
    return value.encode("utf-8")


def raise_for(status):
    if status == OK:
        return
    lib = library()
    message = (lib.counterguard_last_error() or b"").decode("utf-8", "replace")
    kind = _STATUS_ERRORS.get(status, errors.InternalError)
    if kind is errors.ProfilingUnavailable:
        problem = (lib.counterguard_last_error_problem() or b"").decode("utf-8", "replace")
        raise errors.ProfilingUnavailable(message, problem=problem)
    raise kind(message)


def call(name, *arguments):
    """Calls a function that returns a status; raises the matching counterguard error."""
    raise_for(getattr(library(), name)(*arguments))


def call_for_text(name, *arguments):
    """Calls a function whose last parameter receives text the library allocates; returns it as str."""
    lib = library()
    result = ctypes.c_void_p()
    raise_for(getattr(lib, name)(*arguments, ctypes.byref(result)))
    try:
        return ctypes.string_at(result.value).decode("utf-8") if result.value else ""
    finally:
        lib.counterguard_free(result.value)


def call_for_json(name, *arguments):
    return json.loads(call_for_text(name, *arguments))


def call_for_handle(name, *arguments):
    """Calls a function whose last parameter receives an opaque pointer; returns it (an int)."""
    result = ctypes.c_void_p()
    raise_for(getattr(library(), name)(*arguments, ctypes.byref(result)))
    return result.value
