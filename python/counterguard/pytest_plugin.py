# SPDX-License-Identifier: Apache-2.0
"""counterguard's pytest plugin: counter assertions in Python test suites, judged and reported as by
`counterguard run` (docs/python.md).

    @pytest.mark.counterguard(expect={"global_load_sectors_per_request": 4,
                                      "shared_load_bank_conflicts": {"max": "n // 32"}})
    @pytest.mark.parametrize("n", [1024, 4096])
    def test_copy(counters, n):
        with counters.profile(["spill_store_bytes"]) as m:
            copy_kernel[grid](x, y, n)
        assert m["spill_store_bytes"] == 0

- `counters` profiles the blocks a test marks (`with counters.profile(metrics):`) and records them for the
  expectations, baselines and reports; a test with the marker and without the fixture is profiled as a whole.
- `@pytest.mark.counterguard(expect={...})`: the forms of a suite's `expect:` block, formulas of the test's
  parameters (its parametrize values). Every block of the test measures the metrics it names.
- --counterguard-baselines DIR gates every block against DIR/<gpu_key>/<suite>.yaml with the noise model of
  run; --counterguard-update-baselines records them there instead; --counterguard-json/-markdown/-html write
  run's reports.
- Where profiling is not possible (no GPU, no permission, another profiler) the tests are skipped with the
  reason. Under `counterguard exec` the tests run unprofiled (exec's cases check the counters).
"""

import math
import os
import re
import shlex
import socket
import subprocess
import sys
import time

import pytest

from . import _profiling, results
from ._catalog import resolve_metric
from .errors import CounterguardError, InputError, ProfilingUnavailable

MARKER = "counterguard"
_SESSION = pytest.StashKey()


def pytest_addoption(parser):
    group = parser.getgroup("counterguard", "counter assertions on GPU kernels (counterguard)")
    group.addoption("--counterguard-baselines", metavar="DIR", default=None,
                    help="compare every profiled block with the per-GPU baselines in DIR/<gpu_key>/<suite>.yaml "
                         "(the files and noise model of `counterguard run`)")
    group.addoption("--counterguard-update-baselines", action="store_true", default=False,
                    help="record the profiled blocks into the baseline files of --counterguard-baselines instead "
                         "of comparing with them")
    group.addoption("--counterguard-json", metavar="FILE", default=None,
                    help="write the results JSON of `counterguard run`")
    group.addoption("--counterguard-markdown", metavar="FILE", default=None,
                    help="write the Markdown summary of `counterguard run` (for CI job summaries)")
    group.addoption("--counterguard-html", metavar="FILE", default=None,
                    help="write the HTML report of `counterguard run`")
    group.addoption("--counterguard-strict", action="store_true", default=False,
                    help="improvements over the baselines fail too (baselines must be refreshed)")
    group.addoption("--counterguard-disable", action="store_true", default=False,
                    help="profile nothing: the tests run their kernels unprofiled, and those that read counters "
                         "are skipped after their blocks (to time a session without profiling)")
    group.addoption("--counterguard-false-alarm-rate", metavar="P", type=float, default=None,
                    help="per-check false-alarm probability of noisy baseline checks (default 6.7e-6)")
    parser.addini("counterguard_baselines", "baseline directory (relative to the ini file), as "
                  "--counterguard-baselines", default="")


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "counterguard(expect=None, metrics=None, max_launches=256): counter expectations of this test's profiled "
        "blocks, in the forms of a suite's expect: block (docs/python.md)")
    config.stash[_SESSION] = _Session(config)


# The test's identity in results and baseline files --------------------------------------------------------------

def _suite_name(item):
    """The test module's path without .py, '/' as '.': "tests.test_triton" (one baseline file per module)."""
    path = item.nodeid.split("::")[0]
    if path.endswith(".py"):
        path = path[:-3]
    return re.sub(r"[^A-Za-z0-9_.-]", "_", path.replace("/", "."))


def _case_name(item):
    parts = item.nodeid.split("::")[1:]
    name = getattr(item, "originalname", None) or item.name
    return ".".join(parts[:-1] + [name])


def _parameters(item):
    callspec = getattr(item, "callspec", None)
    return dict(callspec.params) if callspec is not None else {}


def _format_value(value):
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _formula_value(value):
    """A parameter as formulas see it: numbers (and booleans) stay numbers, anything else is its text."""
    if isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    return str(value)


def _instance_name(item, label=None):
    name = f"{_suite_name(item)}/{_case_name(item)}"
    parameters = _parameters(item)
    if parameters:
        name += "?" + ",".join(f"{key}={_format_value(value)}" for key, value in parameters.items())
    if label is not None:
        name += f"#{label}"
    return name


def _source(item):
    path, line, _ = item.location
    return {"file": path, "line": (line or 0) + 1, "column": 1}


MARKER_KEYWORDS = ("expect", "metrics", "max_launches", "parameters")


def _marker_settings(item):
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


def _formula_parameters(item, settings, given=None):
    """What the expectations' formulas see: the parametrize values, the marker's parameters, then the values
    the block was given (counters.profile(..., parameters=...))."""
    values = dict(_parameters(item))
    values.update({name: value for name, value in settings["parameters"].items() if value is not None})
    values.update(given or {})
    return {key: _formula_value(value) for key, value in values.items()}


# The results metadata of a session that has profiled nothing (yet): no device.
_NO_DEVICE = {"gpu_name": "", "chip": "", "sm_count": 0, "compute_capability": 0, "driver_version": "",
              "cuda_runtime_version": "", "cupti_version": "", "sm_clock_mhz": 0, "memory_clock_mhz": 0, "gpu_key": ""}


def _marker_mistake(item, settings):
    """What is wrong with the marker's metrics and expectations, in the messages of a suite's `expect:` block
    (the same parser, without profiling anything), or None. Values given at run time are checked as 1."""
    source = _source(item)
    try:
        if settings["expect"]:
            parameters = _formula_parameters(item, settings)
            for name, value in settings["parameters"].items():
                if value is None:
                    parameters[name] = 1
            metadata = dict(_NO_DEVICE, counterguard_version=results.version(), git_commit="unknown", command_line="",
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


def _number(value):
    if value is None:
        return "nothing"
    return str(int(value)) if float(value).is_integer() else f"{value:.6g}"


# The session: every block judged, then baselines and reports -----------------------------------------------------

class _Session:
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
            metadata = dict(_NO_DEVICE, counterguard_version=results.version())
            if device:
                metadata.update(device)
            metadata.update({"git_commit": _git_commit(self.config.rootpath),
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
        parameters = _parameters(item)
        expect = settings["expect"] if settings else {}
        # The test checks its own outputs (run's "verified" is for registered kernels).
        case.update({"instance": _instance_name(item, label), "suite": _suite_name(item), "case": _case_name(item),
                     "kernel": item.nodeid, "status": "passed", "status_reason": "", "checks": [],
                     "parameters": {key: _format_value(value) for key, value in parameters.items()},
                     "source": _source(item), "unverified": False, "verified": None})
        if failure is not None:
            case.update({"status": "error",
                         "status_reason": f"the test raised {type(failure).__name__}: {failure}".splitlines()[0]})
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
                                                      parameters=_formula_parameters(item, settings, given),
                                                      source=_source(item))
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
        self.cases.append({"instance": _instance_name(item), "suite": _suite_name(item), "case": _case_name(item),
                           "kernel": item.nodeid, "parameters": {k: _format_value(v)
                                                                 for k, v in _parameters(item).items()},
                           "status": "skipped", "status_reason": reason, "verified": None,
                           "verification_message": "", "kernels": [], "totals": {}, "checks": [], "passes": 0,
                           "seconds": 0.0, "source": _source(item)})

    def document(self):
        return {"schema_version": 1, "metadata": self.run_metadata(), "cases": self.cases}

    def finish(self):
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


def _git_commit(root):
    commit = os.environ.get("COUNTERGUARD_GIT_COMMIT", "")
    if not commit:
        try:
            commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=str(root), capture_output=True, text=True,
                                    timeout=10, check=False).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            commit = ""
    return commit if len(commit) == 40 else "unknown"


def _failure_message(case, measurement):
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
        line = (f"  {check['metric']}: expected {check['expected']}, measured {_number(check['measured'])} "
                f"({check['verdict']}, {check['origin']}) in {where}")
        lines.append(line)
        if check["origin"] == "baseline" and check.get("message"):
            lines.append(f"    {check['message']}")  # the band and the change
    return "\n".join(lines)


# The `counters` fixture --------------------------------------------------------------------------------------------

class _Block:
    """One `with counters.profile(...)` block: profiled, then recorded for the test's judgement."""

    def __init__(self, counters, metrics, label, options, parameters):
        self.counters = counters
        self.label = label
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
                _skip(f"counterguard: {self.unprofiled}")
            return False
        self.inner.__exit__(kind, value, traceback)
        if kind is None:
            self.counters.blocks.append((self.label, self.measurement))
            self.counters.parameters[self.label] = self.parameters
        return False


class Counters:
    """The `counters` fixture: counterguard.profile bound to the test. Each block is recorded; when the test
    ends its blocks are checked against the marker's expectations and the baselines, and reported."""

    def __init__(self, session, item):
        self.session = session
        self.item = item
        self.settings = _marker_settings(item) or {"expect": {}, "metrics": [], "max_launches": 256, "parameters": {}}
        self.blocks = []
        self.parameters = {}  # label -> the values the block gave the formulas
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
        return _Block(self, names, label, options, dict(parameters or {}))

    @property
    def measurements(self):
        return [measurement for _, measurement in self.blocks]


@pytest.fixture
def counters(request):
    """counterguard.profile bound to this test; its blocks are judged and reported (docs/python.md)."""
    return Counters(request.config.stash[_SESSION], request.node)


# Hooks ---------------------------------------------------------------------------------------------------------------

def _skip(reason):
    """Skips the running test, reported at the test's own location (pytest 7+), not the plugin's."""
    try:
        exception = pytest.skip.Exception(reason, _use_item_location=True)
    except TypeError:
        exception = pytest.skip.Exception(reason)
    raise exception


def _profiles(item):
    return item.get_closest_marker(MARKER) is not None or "counters" in getattr(item, "fixturenames", ())


_MISTAKE = pytest.StashKey()


def pytest_collection_modifyitems(session, config, items):
    """Every marker is checked when the tests are collected, GPU or not: a marker used wrongly (a keyword it
    does not have) stops the session with a usage error; a mistake in its metrics or expectations (an unknown
    metric, two comparisons, a negative tolerance, a formula naming an unknown parameter) is the test's error,
    reported before anything runs, never a skip."""
    for item in items:
        settings = _marker_settings(item)
        if settings is None:
            continue
        mistake = _marker_mistake(item, settings)
        if mistake is not None:
            item.stash[_MISTAKE] = mistake


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    mistake = item.stash.get(_MISTAKE, None)
    if mistake is not None:
        pytest.fail(f"counterguard: {mistake}", pytrace=False)
    if not _profiles(item):
        return
    session = item.config.stash[_SESSION]
    if session.disabled:
        return
    why = session.profiling_unavailable()
    if why is not None and why.problem != "under_exec":
        reason = f"counterguard: {why.reason}"
        session.record_skip(item, reason)
        _skip(reason)


def _run_and_judge(item, runtest):
    """The test's call with counterguard around it: the marker's block (a marked test without `counters`),
    then every block judged; a failing check fails the test, as any assertion does."""
    session = item.config.stash[_SESSION]
    settings = _marker_settings(item) if _profiles(item) else None
    counters_fixture = getattr(item, "funcargs", {}).get("counters")
    whole = None
    if settings is not None and counters_fixture is None and not session.unprofiled():
        whole = _profiling.profile(settings["metrics"], max_launches=settings["max_launches"])
    try:
        if whole is not None:
            with whole:
                runtest()
        else:
            runtest()
    except ProfilingUnavailable as why:
        # counterguard.profile in the test (or the profiler gone since setup): a skip with the reason.
        reason = f"counterguard: {why.reason}"
        session.record_skip(item, reason)
        _skip(reason)
    except BaseException as failure:
        # A test that failed still reports what its blocks measured, as an error case (not when it was
        # skipped or interrupted).
        ended = (KeyboardInterrupt, SystemExit, pytest.skip.Exception, pytest.xfail.Exception)
        if counters_fixture is not None and not isinstance(failure, ended):
            _judge_blocks(session, item, settings, counters_fixture.blocks, failure, counters_fixture.parameters)
        raise
    if settings is None and counters_fixture is None:
        return
    blocks = counters_fixture.blocks if counters_fixture is not None else [(None, whole.measurement)] if whole else []
    given = counters_fixture.parameters if counters_fixture is not None else {}
    messages = _judge_blocks(session, item, settings, blocks, None, given)
    if messages:
        pytest.fail("\n".join(messages), pytrace=False)


def _judge_blocks(session, item, settings, blocks, failure, given):
    """Judges and records every block of the test; the messages of those that fail. `given`: each block's
    values for the formulas, by label."""
    messages = []
    for label, measurement in blocks:
        try:
            case = session.judge(item, label, measurement, settings, failure, given.get(label))
        except CounterguardError as error:  # a malformed expectation, a baseline file of another GPU key
            messages.append(f"counterguard: {_instance_name(item, label)}: {error}")
            continue
        if case["status"] == "failed":
            messages.append(_failure_message(case, measurement))
    return messages


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    # pytest's own pytest_runtest_call calls item.runtest(): the test runs inside _run_and_judge, so whatever
    # counterguard decides is the test's own outcome (and pytest's capture and reports stay as they are).
    runtest = item.runtest
    own = item.__dict__.get("runtest")  # another plugin's wrapper, kept
    item.runtest = lambda: _run_and_judge(item, runtest)
    try:
        yield
    finally:
        if own is None:
            del item.runtest
        else:
            item.runtest = own


def pytest_sessionfinish(session):
    state = session.config.stash.get(_SESSION, None)
    if state is not None:
        state.finish()


def pytest_terminal_summary(terminalreporter, config):
    state = config.stash.get(_SESSION, None)
    if state is None or not state.cases:
        return
    terminalreporter.write_sep("-", "counterguard")
    if all(case["status"] == "skipped" for case in state.cases):
        reasons = {}
        for case in state.cases:
            reasons[case["status_reason"]] = reasons.get(case["status_reason"], 0) + 1
        for reason, count in reasons.items():
            terminalreporter.write_line(f"{count} test(s) skipped: {reason}")
    else:
        console = results.render_console(state.document(), strict=state.strict,
                                         show_passing=config.getoption("verbose") > 0)
        terminalreporter.write(console if console.endswith("\n") else console + "\n")
    for line in state.summary_lines:
        terminalreporter.write_line(line)
