# SPDX-License-Identifier: Apache-2.0
"""The `counters` fixture: counterguard.profile bound to a test, each block recorded for its judgement."""

import pytest

from . import _profiling
from ._pytest_identity import marker_settings


class Block:
    """One `with counters.profile(...)` block: profiled, then recorded for the test's judgement."""

    def __init__(self, counters, metrics, label, options, parameters):
        self.counters = counters
        self.label = label
        self.metrics = metrics
        self.parameters = parameters
        self.unprofiled = counters.session.unprofiled()
        self.inner = None if self.unprofiled else _profiling.profile(metrics, **options)
        self.measurement = _profiling.Measurement()

    def __enter__(self):
        if self.inner is None:
            return self.measurement  # unprofiled: counterguard exec profiles these launches, or disabled
        self.measurement = self.inner.__enter__()
        return self.measurement

    def __exit__(self, kind, value, traceback):
        if self.inner is None:
            if kind is None:
                skip(f"counterguard: {self.unprofiled}")
            return False
        self.inner.__exit__(kind, value, traceback)
        if kind is None:
            self.counters.blocks.append((self.label, self.measurement))
            self.counters.parameters[self.label] = self.parameters
            self.counters.metrics[self.label] = self.metrics
        return False


class Counters:
    """The `counters` fixture: counterguard.profile bound to the test. Each block is recorded; when the test
    ends its blocks are checked against the marker's expectations and the baselines, and reported."""

    def __init__(self, session, item):
        self.session = session
        self.item = item
        self.settings = marker_settings(item) or {"expect": {}, "metrics": [], "max_launches": 256, "parameters": {}}
        self.blocks = []
        self.parameters = {}  # label -> the values the block gave the formulas
        self.metrics = {}  # label -> the metrics the block was profiled for
        self._opened = 0

    def profile(self, metrics=(), *, name=None, device=None, max_launches=None, wait_for_gpu_seconds=600.0,
                parameters=None):
        """`with counters.profile(metrics) as m:` profiles the block like counterguard.profile, measuring the
        marker's metrics too. Blocks after the first are named `<instance>#<n>` (or `#<name>`). `parameters`:
        values the marker's formulas may name besides the parametrize values ({"n": n}); a name the formulas use
        is declared in the marker (@pytest.mark.counterguard(parameters=["n"])) so that it is checked at
        collection."""
        if parameters is not None and (not isinstance(parameters, dict)
                                       or not all(isinstance(key, str) for key in parameters)):
            raise pytest.UsageError(f"{self.item.nodeid}: counters.profile(parameters=...) must be a dict of name "
                                    "to value")
        names = [metrics] if isinstance(metrics, str) else list(metrics)
        for metric in self.settings["metrics"]:
            if metric not in names:
                names.append(metric)
        if not names:
            raise pytest.UsageError(f"{self.item.nodeid}: counters.profile() names no metric and the test has no "
                                    "@pytest.mark.counterguard(expect=...)")
        self._opened += 1
        label = name if name is not None else (None if self._opened == 1 else str(self._opened))
        options = {"device": device, "wait_for_gpu_seconds": wait_for_gpu_seconds,
                   "max_launches": max_launches or self.settings["max_launches"]}
        return Block(self, names, label, options, dict(parameters or {}))

    @property
    def measurements(self):
        return [measurement for _, measurement in self.blocks]



def skip(reason):
    """Skips the running test, reported at the test's own location (pytest 7+), not the plugin's."""
    try:
        exception = pytest.skip.Exception(reason, _use_item_location=True)
    except TypeError:
        exception = pytest.skip.Exception(reason)
    raise exception
