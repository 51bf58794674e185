# SPDX-License-Identifier: Apache-2.0
"""A pytest session's profiled blocks kept on the GPU (--counterguard-save-counter-data DIR) and judged again
from them on any machine, no GPU needed (--counterguard-from-recording DIR), as `counterguard evaluate DIR`
judges a recording of `run`:

    DIR/session.json      the GPU, and per test (by node id): how the test ended and its blocks in order (label,
                          metrics, the values given for the formulas, the block's archive)
    DIR/blocks/NNNN/      one counter-data archive per block (manifest.json, 000.counterdata.gz, resources.json)

A block is matched by its test's node id and its ordinal in the test (1 for the first block)."""

import json
import math
import os
import pathlib
import shutil

import pytest

from . import _profiling

SESSION_FILE = "session.json"
KIND = "counterguard pytest session"
SCHEMA_VERSION = 1
# Test outcomes on the GPU: the test's own code passed, failed (an assertion, an exception), or skipped itself.
OUTCOMES = ("passed", "failed", "skipped")


class RecordedFailure(Exception):
    """How a test failed when it was recorded ("AssertionError: ..."), reported as its failure again."""

    def __init__(self, text):
        super().__init__(text)
        self.text = text


def failure_text(failure):
    """One line naming the exception, as the judgement's status reason and the recording keep it."""
    if isinstance(failure, RecordedFailure):
        return failure.text
    return f"{type(failure).__name__}: {failure}".splitlines()[0]


class RecordingWriter:
    """--counterguard-save-counter-data DIR: each test's blocks saved when the test ends, session.json last."""

    def __init__(self, directory):
        self.directory = pathlib.Path(directory)
        self.tests = {}
        self.metadata = None
        self.blocks = 0
        self._prepare()

    def _prepare(self):
        where = f"--counterguard-save-counter-data {self.directory}"
        if self.directory.exists() and not self.directory.is_dir():
            raise pytest.UsageError(f"{where}: not a directory; give a new or empty directory")
        if self.directory.is_dir() and any(self.directory.iterdir()):
            if not _is_recording(self.directory):
                raise pytest.UsageError(f"{where}: the directory is not empty; give a new or empty directory, or one "
                                        "an earlier session recorded into (it is replaced)")
            shutil.rmtree(self.directory / "blocks", ignore_errors=True)
            (self.directory / SESSION_FILE).unlink()
        self.directory.mkdir(parents=True, exist_ok=True)

    def record_test(self, nodeid, blocks, outcome, message=""):
        """`blocks`: (label, measurement, metrics, given parameters) in the order the test ran them."""
        entries = []
        for ordinal, (label, measurement, metrics, given) in enumerate(blocks, 1):
            folder = f"blocks/{self.blocks:04d}"
            self.blocks += 1
            _profiling.save_measurement(measurement, self.directory / folder, f"{nodeid}#{ordinal}",
                                        {"nodeid": nodeid, "ordinal": ordinal})
            if self.metadata is None:  # the GPU's (a judging session states its own commit and command line)
                self.metadata = dict(measurement.metadata)
            entries.append({"ordinal": ordinal, "label": label, "metrics": list(metrics),
                            "parameters": _json_values(given or {}), "archive": folder})
        self.tests[nodeid] = {"outcome": outcome, "message": message, "blocks": entries}

    def finish(self):
        """Writes session.json (atomically: a reader sees the whole recording or none); a summary line."""
        document = {"kind": KIND, "schema_version": SCHEMA_VERSION, "metadata": self.metadata or {},
                    "tests": self.tests}
        path = self.directory / SESSION_FILE
        temporary = path.with_name(SESSION_FILE + ".tmp")
        with open(temporary, "w", encoding="utf-8") as text:
            json.dump(document, text, indent=1, allow_nan=False)
            text.write("\n")
        os.replace(temporary, path)
        if self.metadata is None:
            return f"counterguard: recorded no block into {self.directory}: nothing was profiled on a GPU"
        return (f"counterguard: recorded {self.blocks} block(s) of {len(self.tests)} test(s) into {self.directory} "
                f"({self.metadata.get('gpu_name') or self.metadata.get('chip')}); judge them anywhere with "
                f"--counterguard-from-recording={self.directory}")


class SessionRecording:
    """--counterguard-from-recording DIR: a recorded session, read and checked when the session starts."""

    def __init__(self, directory):
        self.directory = pathlib.Path(directory)
        path = self.directory / SESSION_FILE
        where = f"--counterguard-from-recording {self.directory}"
        if not path.is_file():
            raise pytest.UsageError(f"{where}: no {SESSION_FILE} there; record a session on the GPU with "
                                    f"--counterguard-save-counter-data {self.directory}")
        try:
            with open(path, encoding="utf-8") as text:
                document = json.load(text)
        except (OSError, ValueError) as error:
            raise pytest.UsageError(f"{path}: cannot be read as JSON: {error}") from None
        self.path = path
        self.metadata = _field(document, "metadata", dict, path)
        self.tests = _field(document, "tests", dict, path)
        if document.get("kind") != KIND or document.get("schema_version") != SCHEMA_VERSION:
            raise pytest.UsageError(f"{path}: kind/schema_version are {document.get('kind')!r}/"
                                    f"{document.get('schema_version')!r}, this counterguard reads {KIND!r}/"
                                    f"{SCHEMA_VERSION}; record the session again")
        for nodeid, test in self.tests.items():
            _check_test(path, nodeid, test)

    def test(self, nodeid):
        return self.tests.get(nodeid)

    def measure(self, block, metrics):
        """The block measured again from its archive, for `metrics` (those the counters hold; others are
        unmeasured)."""
        return _profiling.measure_recording(self.directory / block["archive"], metrics, case=0,
                                            metadata=self.metadata)

    def mismatch(self, items, profiles, explicit_selection):
        """Why the collected tests and the recording do not match, or None: a test that profiles and was not
        recorded; a recorded test of a collected file that is not collected any more (unless tests were named
        on the command line: file::test)."""
        collected = {item.nodeid for item in items}
        files = {nodeid.split("::")[0] for nodeid in collected}
        unrecorded = [item.nodeid for item in items if profiles(item) and item.nodeid not in self.tests]
        gone = [] if explicit_selection else [nodeid for nodeid in self.tests
                                               if nodeid.split("::")[0] in files and nodeid not in collected]
        if not unrecorded and not gone:
            return None
        lines = [f"--counterguard-from-recording {self.directory}: the tests and the recording do not match "
                 f"({len(self.tests)} test(s) recorded):"]
        lines += [f"  not in the recording: {nodeid}" for nodeid in unrecorded[:10]]
        lines += [f"  ... and {len(unrecorded) - 10} more not in the recording" for _ in unrecorded[10:11]]
        lines += [f"  recorded, not collected: {nodeid}" for nodeid in gone[:10]]
        lines += [f"  ... and {len(gone) - 10} more recorded, not collected" for _ in gone[10:11]]
        lines.append("record the session again on the GPU (--counterguard-save-counter-data DIR) from these tests")
        return "\n".join(lines)


def _is_recording(directory):
    try:
        with open(directory / SESSION_FILE, encoding="utf-8") as text:
            return json.load(text).get("kind") == KIND
    except (OSError, ValueError, AttributeError):
        return False


def _field(document, key, kind, path, where=""):
    value = document.get(key) if isinstance(document, dict) else None
    if not isinstance(value, kind):
        raise pytest.UsageError(f"{path}: {where}{key} is {'missing' if value is None else type(value).__name__}, "
                                f"expected {'an object' if kind is dict else 'a list'}; record the session again")
    return value


def _check_test(path, nodeid, test):
    where = f"tests[{nodeid!r}]."
    if not isinstance(test, dict) or test.get("outcome") not in OUTCOMES:
        raise pytest.UsageError(f"{path}: {where}outcome is not one of {', '.join(OUTCOMES)}; record the session again")
    for index, block in enumerate(_field(test, "blocks", list, path, where)):
        if not isinstance(block, dict) or block.get("ordinal") != index + 1 or not isinstance(block.get("archive"), str):
            raise pytest.UsageError(f"{path}: {where}blocks[{index}] needs ordinal {index + 1} and an archive; "
                                    "record the session again")
        if not isinstance(block.get("metrics"), list) or not isinstance(block.get("parameters"), dict):
            raise pytest.UsageError(f"{path}: {where}blocks[{index}] needs metrics (a list) and parameters (an "
                                    "object); record the session again")


def _json_values(values):
    """The values a block gave the formulas, as JSON keeps them (numbers and text)."""
    kept = {}
    for name, value in values.items():
        plain = isinstance(value, (bool, int, str)) or (isinstance(value, float) and math.isfinite(value))
        kept[name] = value if plain else str(value)
    return kept
