# SPDX-License-Identifier: Apache-2.0
import os
import pathlib
import sys

import pytest

# recorded_backend is imported by the test sessions pytester runs, in this process and in subprocesses.
TESTS_DIR = pathlib.Path(__file__).resolve().parent
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))


@pytest.fixture
def recorded_session(pytester):
    """A pytester project whose profiled blocks are measured from H200 recordings: `recordings` maps a test's
    name (with its parameters) or its function name to a recorded case instance."""

    def make(recordings):
        pytester.makeconftest(f"""
import counterguard._profiling as profiling
from recorded_backend import RecordedBackend

RECORDINGS = {recordings!r}


def choose(test):
    return RECORDINGS.get(test) or RECORDINGS[test.split("[")[0]]


def pytest_configure(config):
    config._counterguard_saved_backend = profiling.backend
    profiling.backend = RecordedBackend(choose)


def pytest_unconfigure(config):
    profiling.backend = config._counterguard_saved_backend
""")
        return pytester

    return make


def pytest_report_header(config):
    return f"counterguard library: {os.environ.get('COUNTERGUARD_LIBRARY', 'looked up by the package')}"
