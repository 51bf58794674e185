# SPDX-License-Identifier: Apache-2.0
"""The pytest plugin's session: every profiled block judged as `counterguard run` judges a case, then the
baselines recorded or the reports written when the session ends."""

import os
import shlex
import socket
import subprocess
import sys
import time

import pytest

from . import _profiling, results
from ._pytest_identity import (NO_DEVICE, case_name, format_value, formula_parameters, instance_name, number_text,
                               parametrize_values, source_of, suite_name)
from ._session_recording import RecordingWriter, SessionRecording, failure_text
from .errors import CounterguardError, InputError


class Session:
    def __init__(self, config):
        self.config = config
        option = config.getoption
        self.baselines = option("--counterguard-baselines")
        if not self.baselines and config.getini("counterguard_baselines"):
            base = config.inipath.parent if config.inipath else config.rootpath
            self.baselines = str(base / config.getini("counterguard_baselines"))
        self.update = option("--counterguard-update-baselines")
        if self.update and not self.baselines:
            raise pytest.UsageError("--counterguard-update-baselines needs --counterguard-baselines DIR (or the "
                                    "counterguard_baselines ini option): where to write the baseline files")
        self.disabled = option("--counterguard-disable")
        self.strict = option("--counterguard-strict")
        self.false_alarm_rate = option("--counterguard-false-alarm-rate")
        self.reports = {"json_path": option("--counterguard-json"), "markdown": option("--counterguard-markdown"),
                        "html": option("--counterguard-html")}
        # pytest-xdist: each worker has its own cases; it writes its own reports (`counterguard merge` joins
        # the results files), and one worker at a time cannot be ensured for baseline files.
        worker = getattr(config, "workerinput", {}).get("workerid")
        if worker:
            self.reports = {key: f"{path}.{worker}" if path else path for key, path in self.reports.items()}
            if self.update:
                raise pytest.UsageError("--counterguard-update-baselines records one session's blocks: run it "
                                        "without pytest-xdist's -n")
        self.recording, self.writer = _recording_options(config, worker)
        self.metadata = None
        self.cases = []
        self.unavailable = None
        self.checked_availability = False
        self.summary_lines = []

    def profiling_unavailable(self):
        if not self.checked_availability:
            self.checked_availability = True
            self.unavailable = _profiling.profiling_unavailable()
        return self.unavailable

    def unprofiled(self):
        """Why blocks run unprofiled (counterguard exec profiles this process, or --counterguard-disable)."""
        if self.disabled:
            return "counterguard is disabled (--counterguard-disable): the kernels ran unprofiled"
        why = self.profiling_unavailable()
        if why is not None and why.problem == "under_exec":
            return f"{why.reason}"
        return None

    def run_metadata(self, device=None):
        if self.metadata is None or (device and not self.metadata.get("gpu_key")):
            metadata = dict(NO_DEVICE, counterguard_version=results.version())
            if device:
                metadata.update(device)
            metadata.update({"git_commit": git_commit(self.config.rootpath),
                             "command_line": shlex.join(sys.argv), "mode": "pytest",
                             "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                             "hostname": socket.gethostname()})
            self.metadata = metadata
        return self.metadata

    def judge(self, item, label, measurement, settings, failure=None, given=None):
        """The block's case: its expectations, its baseline, its status (as run judges a case). A test that
        raised is an error case with the exception as its reason, its checks recorded. `given`: the values the
        block was given for the formulas."""
        case = dict(measurement.result)
        parameters = parametrize_values(item)
        expect = settings["expect"] if settings else {}
        # The test checks its own outputs (run's "verified" is for registered kernels).
        case.update({"instance": instance_name(item, label), "suite": suite_name(item), "case": case_name(item),
                     "kernel": item.nodeid, "status": "passed", "status_reason": "", "checks": [],
                     "parameters": {key: format_value(value) for key, value in parameters.items()},
                     "source": source_of(item), "unverified": False, "verified": None})
        if failure is not None:
            case.update({"status": "error", "status_reason": f"the test raised {failure_text(failure)}"})
        document = {"schema_version": 1, "metadata": self.run_metadata(measurement.metadata), "cases": [case]}
        try:
            if expect:
                missing = [name for name, value in settings["parameters"].items()
                           if value is None and name not in (given or {})]
                if missing:
                    wanted = ", ".join(f"{name!r}: ..." for name in missing)
                    raise InputError(f"the marker leaves {', '.join(missing)} to be given at run time: pass "
                                     f"counters.profile(..., parameters={{{wanted}}})")
                document = results.check_expectations(document, expect,
                                                      parameters=formula_parameters(item, settings, given),
                                                      source=source_of(item))
            if self.baselines and not self.update:
                document = results.compare_baselines(document, self.baselines, strict=self.strict,
                                                     false_alarm_rate=self.false_alarm_rate)
        except CounterguardError as error:  # reported as an error case, and raised for the test to fail
            case.update({"status": "error", "status_reason": str(error)})
            self.cases.append(case)
            raise
        document, _ = results.settle(document, strict=self.strict)
        judged = document["cases"][0]
        self.cases.append(judged)
        return judged

    def record_skip(self, item, reason):
        self.cases.append({"instance": instance_name(item), "suite": suite_name(item), "case": case_name(item),
                           "kernel": item.nodeid, "parameters": {k: format_value(v)
                                                                 for k, v in parametrize_values(item).items()},
                           "status": "skipped", "status_reason": reason, "verified": None,
                           "verification_message": "", "kernels": [], "totals": {}, "checks": [], "passes": 0,
                           "seconds": 0.0, "source": source_of(item)})

    def document(self):
        return {"schema_version": 1, "metadata": self.run_metadata(), "cases": self.cases}

    def finish(self):
        if self.writer is not None:
            self.summary_lines.append(self.writer.finish())
        if not self.cases:
            return
        document = self.document()
        if self.update:
            if document["metadata"].get("gpu_key"):
                update = results.update_baselines(document, self.baselines)
                written = update["written"]
                self.summary_lines.append(
                    f"counterguard: baselines: {len(written)} file(s) written under {self.baselines}"
                    + ("" if written else " (nothing changed)"))
                self.summary_lines.extend(f"  {path}" for path in written)
                self.summary_lines.extend(f"counterguard: not recorded: {why}" for why in update["not_recorded"])
                self.summary_lines.append(update["summary"].rstrip())
            else:
                self.summary_lines.append("counterguard: no baselines recorded: nothing was profiled on a GPU")
        if any(self.reports.values()):
            results.write_reports(document, strict=self.strict, **self.reports)
            self.summary_lines.extend(f"counterguard: wrote {path}" for path in self.reports.values() if path)


def _recording_options(config, worker):
    """The recording a session judges (--counterguard-from-recording) or writes (--counterguard-save-counter-data)."""
    source = config.getoption("--counterguard-from-recording")
    target = config.getoption("--counterguard-save-counter-data")
    if source and target:
        raise pytest.UsageError("--counterguard-from-recording judges a recorded session and "
                                "--counterguard-save-counter-data records one on the GPU: give one of them")
    if source and config.getoption("--counterguard-disable"):
        raise pytest.UsageError("--counterguard-from-recording judges recorded blocks; --counterguard-disable "
                                "profiles nothing: give one of them")
    if target and worker:
        raise pytest.UsageError("--counterguard-save-counter-data records one session's blocks: run it without "
                                "pytest-xdist's -n")
    base = config.invocation_params.dir
    return (SessionRecording(base / source) if source else None,
            RecordingWriter(base / target) if target else None)


def git_commit(root):
    commit = os.environ.get("COUNTERGUARD_GIT_COMMIT", "")
    if not commit:
        try:
            commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=str(root), capture_output=True, text=True,
                                    timeout=10, check=False).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            commit = ""
    return commit if len(commit) == 40 else "unknown"


def failure_message(case, measurement):
    failing = [check for check in case["checks"] if check["failing"]]
    names = measurement.kernel_names
    if len(names) == 1:
        # One kernel: its own rows (the baselines keep one per kernel) are the block's totals again.
        totals = {(check["metric"], check["origin"]) for check in failing if not check["kernel"]}
        failing = [check for check in failing if not (check["kernel"] and (check["metric"], check["origin"]) in totals)]
    lines = [f"counterguard: {case['instance']}: {len(failing)} counter check(s) failed"]
    kernels = f"kernel {names[0]}" if len(names) == 1 else f"kernels {', '.join(names) or '(no kernel launches)'}"
    for check in failing:
        where = f"kernel {check['kernel']}" if check["kernel"] else kernels
        line = (f"  {check['metric']}: expected {check['expected']}, measured {number_text(check['measured'])} "
                f"({check['verdict']}, {check['origin']}) in {where}")
        lines.append(line)
        if check["origin"] == "baseline" and check.get("message"):
            lines.append(f"    {check['message']}")  # the band and the change
    return "\n".join(lines)

