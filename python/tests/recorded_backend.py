# SPDX-License-Identifier: Apache-2.0
"""Stands in for CUPTI in the package's CPU tests: each profiled block is measured from a real H200 recording
(harness/test/fixtures/h200_builtin, `counterguard run --save-counter-data` of the built-in suite), through the
same C++ measurement a profiled block goes through (counterguard_measure_recording). Only the choice of which
recorded launches stand in for a test's block is made here: by the test's name."""

import json
import os
import pathlib

import counterguard
from counterguard import _library

SOURCE_DIR = pathlib.Path(os.environ.get("COUNTERGUARD_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
RECORDINGS = SOURCE_DIR / "harness" / "test" / "fixtures" / "h200_builtin"


def recording_metadata():
    """The device the recordings were made on (an H200: gpu_key GH100-132sm-cuda13)."""
    with open(RECORDINGS / "results.json", encoding="utf-8") as results:
        return json.load(results)["metadata"]


def recording_directory(instance):
    """The archive of one case instance of the recorded run ("coalescing/strided?stride=32")."""
    for manifest in sorted(RECORDINGS.glob("*/manifest.json")):
        with open(manifest, encoding="utf-8") as text:
            if json.load(text)["cases"][0]["name"] == instance:
                return manifest.parent
    raise LookupError(f"no recording of '{instance}' in {RECORDINGS}")


def current_test():
    """The running test's name with its parameters ("test_copy[4]"), from PYTEST_CURRENT_TEST."""
    return os.environ["PYTEST_CURRENT_TEST"].split("::")[-1].split(" ")[0]


class RecordedBackend:
    """`choose(test_name) -> instance` picks the recording that stands in for the test's block."""

    def __init__(self, choose):
        self.choose = choose
        self.metrics = None
        self.metadata = recording_metadata()

    def unavailable(self, options):
        return None

    def begin(self, metrics, options):
        for metric in metrics:
            counterguard.resolve_metric(metric)  # unknown names fail here, as the profiler's begin does
        self.metrics = list(metrics)

    def end(self):
        directory = recording_directory(self.choose(current_test()))
        return _library.call_for_handle("counterguard_measure_recording", str(directory).encode("utf-8"), 0,
                                        _library.encode(self.metrics), _library.encode(self.metadata))

    def abandon(self):
        self.metrics = None
