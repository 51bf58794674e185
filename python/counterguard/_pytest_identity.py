# SPDX-License-Identifier: Apache-2.0
"""A pytest test as counterguard names it (suite, case, instance, source) and the settings of its
@pytest.mark.counterguard marker, checked when the tests are collected."""

import math
import re

import pytest

from . import results
from ._catalog import resolve_metric
from .errors import CounterguardError, InputError

MARKER = "counterguard"


def suite_name(item):
    """The test module's path without .py, '/' as '.': "tests.test_triton" (one baseline file per module)."""
    path = item.nodeid.split("::")[0]
    if path.endswith(".py"):
        path = path[:-3]
    return re.sub(r"[^A-Za-z0-9_.-]", "_", path.replace("/", "."))


def case_name(item):
    parts = item.nodeid.split("::")[1:]
    name = getattr(item, "originalname", None) or item.name
    return ".".join(parts[:-1] + [name])


def parametrize_values(item):
    callspec = getattr(item, "callspec", None)
    return dict(callspec.params) if callspec is not None else {}


def format_value(value):
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def formula_value(value):
    """A parameter as formulas see it: numbers (and booleans) stay numbers, anything else is its text."""
    if isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    return str(value)


def instance_name(item, label=None):
    name = f"{suite_name(item)}/{case_name(item)}"
    parameters = parametrize_values(item)
    if parameters:
        name += "?" + ",".join(f"{key}={format_value(value)}" for key, value in parameters.items())
    if label is not None:
        name += f"#{label}"
    return name


def source_of(item):
    path, line, _ = item.location
    return {"file": path, "line": (line or 0) + 1, "column": 1}


MARKER_KEYWORDS = ("expect", "metrics", "max_launches", "parameters")


def marker_settings(item):
    """The marker's keywords; a pytest.UsageError (a clean message, no traceback) for a marker used wrongly."""
    marker = item.get_closest_marker(MARKER)
    if marker is None:
        return None
    where = f"{item.nodeid}: @pytest.mark.counterguard"
    if marker.args:
        raise pytest.UsageError(f"{where} takes keywords: expect={{...}}, metrics=[...], max_launches=N, "
                                "parameters={...}")
    unknown = set(marker.kwargs) - set(MARKER_KEYWORDS)
    if unknown:
        raise pytest.UsageError(f"{where} has no keyword {', '.join(sorted(unknown))}; valid: "
                                f"{', '.join(MARKER_KEYWORDS)}")
    expect = marker.kwargs.get("expect") or {}
    if not isinstance(expect, dict):
        raise pytest.UsageError(f"{where}(expect=...) must be a dict of metric to expectation")
    metrics = marker.kwargs.get("metrics") or []
    if isinstance(metrics, str) or not all(isinstance(metric, str) for metric in metrics):
        raise pytest.UsageError(f"{where}(metrics=...) must be a list of metric names")
    metrics = list(metrics)
    for metric in expect:
        if metric not in metrics:
            metrics.append(metric)
    try:
        max_launches = int(marker.kwargs.get("max_launches", 256))
    except (TypeError, ValueError):
        raise pytest.UsageError(f"{where}(max_launches=...) must be a whole number") from None
    # Values formulas may name besides the parametrize values: a dict of name to value, a value of None (or a
    # list of names) meaning the test gives it at run time, counters.profile(..., parameters={name: value}).
    declared = marker.kwargs.get("parameters") or {}
    if isinstance(declared, (list, tuple)):
        declared = dict.fromkeys(declared)
    if not isinstance(declared, dict) or not all(isinstance(name, str) for name in declared):
        raise pytest.UsageError(f"{where}(parameters=...) must be a dict of name to value (None: given at run "
                                "time by counters.profile(..., parameters=...)) or a list of names")
    return {"expect": expect, "metrics": metrics, "max_launches": max_launches, "parameters": declared}


def formula_parameters(item, settings, given=None):
    """What the expectations' formulas see: the parametrize values, the marker's parameters, then the values
    the block was given (counters.profile(..., parameters=...))."""
    values = dict(parametrize_values(item))
    values.update({name: value for name, value in settings["parameters"].items() if value is not None})
    values.update(given or {})
    return {key: formula_value(value) for key, value in values.items()}


# The results metadata of a session that has profiled nothing (yet): no device.
NO_DEVICE = {"gpu_name": "", "chip": "", "sm_count": 0, "compute_capability": 0, "driver_version": "",
              "cuda_runtime_version": "", "cupti_version": "", "sm_clock_mhz": 0, "memory_clock_mhz": 0, "gpu_key": ""}


def marker_mistake(item, settings):
    """What is wrong with the marker's metrics and expectations, in the messages of a suite's `expect:` block
    (the same parser, without profiling anything), or None. Values given at run time are checked as 1."""
    source = source_of(item)
    try:
        if settings["expect"]:
            parameters = formula_parameters(item, settings)
            for name, value in settings["parameters"].items():
                if value is None:
                    parameters[name] = 1
            metadata = dict(NO_DEVICE, counterguard_version=results.version(), git_commit="unknown", command_line="",
                            mode="pytest", started_at="1970-01-01T00:00:00Z", hostname="")
            document = {"schema_version": 1, "metadata": metadata, "cases": []}  # no case: the parse is the check
            results.check_expectations(document, settings["expect"], parameters=parameters, source=source)
        for metric in settings["metrics"]:
            if metric not in settings["expect"]:
                try:
                    resolve_metric(metric)
                except CounterguardError as error:
                    raise InputError(f"{source['file']}:{source['line']}:1: {error}") from None
    except CounterguardError as error:
        message = str(error)
        if "which is not a parameter" in message:
            message += ("; a value the test computes is declared with @pytest.mark.counterguard(parameters=[name]) "
                        "and given with counters.profile(..., parameters={name: value})")
        return message
    runtime = [name for name, value in settings["parameters"].items() if value is None]
    if runtime and "counters" not in getattr(item, "fixturenames", ()):
        return (f"{item.nodeid}: @pytest.mark.counterguard(parameters=...) leaves {', '.join(runtime)} to be given "
                "at run time, which only counters.profile(..., parameters=...) can do: use the counters fixture, "
                "or give the values in the marker")
    return None


def number_text(value):
    if value is None:
        return "nothing"
    return str(int(value)) if float(value).is_integer() else f"{value:.6g}"



def profiles(item):
    """Whether counterguard profiles the test: it has the marker or uses the `counters` fixture."""
    return item.get_closest_marker(MARKER) is not None or "counters" in getattr(item, "fixturenames", ())
