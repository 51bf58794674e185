# SPDX-License-Identifier: Apache-2.0
"""Results documents (the results JSON of `counterguard run`, docs/results-schema.md) judged and reported by
the C++ code `run` uses: expectations, baselines, statuses, reports."""

import json

from . import _library


def _text(document):
    return json.dumps(document, allow_nan=False).encode("utf-8")


def version():
    return _library.library().counterguard_version().decode("utf-8")


def device_metadata():
    """The profiled device as results metadata (gpu_key included); ProfilingUnavailable without one."""
    return _library.call_for_json("counterguard_device_metadata")


def check_expectations(document, expect, *, parameters=None, source=None):
    """Appends the checks of `expect` (the forms of a suite's `expect:` block: a number or formula,
    {"equals"|"min"|"max": v}, {"between": [a, b]}, "tolerance", "class", "kernel") to every case that was not
    skipped. Formulas are evaluated with the numeric `parameters`; `source` ({"file", "line"}) is where the
    messages say the expectations are."""
    # As text, so the checks keep the order the expectations are written in.
    text = expect if isinstance(expect, str) else json.dumps(expect, indent=1, allow_nan=False)
    request = {"expect": text, "parameters": parameters or {}}
    if source:
        request["source"] = source
    return _library.call_for_json("counterguard_check_expectations", _text(document), _library.encode(request))


def compare_baselines(document, baseline_dir, *, strict=False, false_alarm_rate=None):
    """Appends baseline checks from <baseline_dir>/<gpu_key>/<suite>.yaml (the files and noise model of run)."""
    options = {"strict": bool(strict)}
    if false_alarm_rate is not None:
        options["false_alarm_rate"] = float(false_alarm_rate)
    return _library.call_for_json("counterguard_compare_baselines", _text(document),
                                  str(baseline_dir).encode("utf-8"), _library.encode(options))


def settle(document, *, strict=False):
    """Every case's status from its checks, and the exit status run would give: (document, exit_status)."""
    import ctypes
    exit_status = ctypes.c_int(0)
    lib = _library.library()
    result = ctypes.c_void_p()
    _library.raise_for(lib.counterguard_settle(_text(document), _library.encode({"strict": bool(strict)}),
                                               ctypes.byref(result), ctypes.byref(exit_status)))
    try:
        settled = json.loads(ctypes.string_at(result.value).decode("utf-8"))
    finally:
        lib.counterguard_free(result.value)
    return settled, exit_status.value


def update_baselines(document, baseline_dir):
    """Records the measured cases into their suites' baseline files; {"written", "not_recorded", "summary"}."""
    return _library.call_for_json("counterguard_update_baselines", _text(document),
                                  str(baseline_dir).encode("utf-8"))


def write_reports(document, *, json_path=None, markdown=None, html=None, junit=None, strict=False):
    """Writes run's results JSON, Markdown summary, HTML and JUnit reports (paths that are None are skipped)."""
    options = {"strict": bool(strict)}
    for key, path in (("json", json_path), ("markdown", markdown), ("html", html), ("junit", junit)):
        if path:
            options[key] = str(path)
    _library.call("counterguard_write_reports", _text(document), _library.encode(options))


def render_console(document, *, strict=False, show_passing=True):
    """run's console table of every check."""
    return _library.call_for_text("counterguard_render_console", _text(document),
                                  _library.encode({"strict": bool(strict), "show_passing": bool(show_passing)}))
