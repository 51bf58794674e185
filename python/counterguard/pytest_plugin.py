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
- --counterguard-save-counter-data DIR also records every block's counter data on the GPU;
  --counterguard-from-recording DIR judges such a recording on any machine, no GPU needed, as
  `counterguard evaluate DIR` judges a run's: a CPU CI job gates or refreshes a GPU session.
- Where profiling is not possible (no GPU, no permission, another profiler) the tests are skipped with the
  reason. Under `counterguard exec` the tests run unprofiled (exec's cases check the counters).
"""

import pytest

from . import _profiling, results
from ._pytest_fixture import Counters, skip
from ._pytest_identity import instance_name, marker_mistake, marker_settings, profiles
from ._pytest_rootdir import check_rootdir
from ._pytest_session import Session, failure_message
from ._session_recording import RecordedFailure, failure_text
from .errors import CounterguardError, ProfilingUnavailable

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
    group.addoption("--counterguard-save-counter-data", metavar="DIR", default=None,
                    help="also record every profiled block's counter data into DIR (a new or empty directory, or an "
                         "earlier recording, replaced), for --counterguard-from-recording on any machine")
    group.addoption("--counterguard-from-recording", metavar="DIR", default=None,
                    help="judge the blocks recorded in DIR (--counterguard-save-counter-data) instead of running the "
                         "tests: no GPU needed; each test's blocks are matched by node id and ordinal")
    parser.addini("counterguard_baselines", "baseline directory (relative to the ini file), as "
                  "--counterguard-baselines", default="")


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "counterguard(expect=None, metrics=None, max_launches=256): counter expectations of this test's profiled "
        "blocks, in the forms of a suite's expect: block (docs/python.md)")
    check_rootdir(config)
    config.stash[_SESSION] = Session(config)




@pytest.fixture
def counters(request):
    """counterguard.profile bound to this test; its blocks are judged and reported (docs/python.md)."""
    return Counters(request.config.stash[_SESSION], request.node)


# Hooks ---------------------------------------------------------------------------------------------------------------

_MISTAKE = pytest.StashKey()


def pytest_collection_modifyitems(session, config, items):
    """Every marker is checked when the tests are collected, GPU or not: a marker used wrongly (a keyword it
    does not have) stops the session with a usage error; a mistake in its metrics or expectations (an unknown
    metric, two comparisons, a negative tolerance, a formula naming an unknown parameter) is the test's error,
    reported before anything runs, never a skip. Judging a recording, the collected tests must be the recorded
    ones (before -k and -m deselect any), and their fixtures and bodies do not run: their kernels ran on the GPU."""
    for item in items:
        settings = marker_settings(item)
        if settings is None:
            continue
        mistake = marker_mistake(item, settings)
        if mistake is not None:
            item.stash[_MISTAKE] = mistake
    recording = config.stash[_SESSION].recording
    if recording is None:
        return
    named = any("::" in str(argument) for argument in config.args)
    mismatch = recording.mismatch(items, profiles, explicit_selection=named)
    if mismatch is not None:
        raise pytest.UsageError(mismatch)
    for item in items:
        if profiles(item):
            item.setup = lambda: None  # no fixture: they would allocate on a GPU this machine may not have
        else:
            item.add_marker(pytest.mark.skip(reason="counterguard: --counterguard-from-recording judges recorded "
                                                    "blocks; this test profiles nothing"))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    mistake = item.stash.get(_MISTAKE, None)
    if mistake is not None:
        pytest.fail(f"counterguard: {mistake}", pytrace=False)
    if not profiles(item):
        return
    session = item.config.stash[_SESSION]
    if session.recording is not None:
        recorded = session.recording.test(item.nodeid)
        if recorded["outcome"] == "skipped":
            reason = f"skipped when recorded on the GPU: {recorded['message']}"
            session.record_skip(item, reason)
            skip(reason)
        return
    if session.disabled:
        return
    why = session.profiling_unavailable()
    if why is not None and why.problem != "under_exec":
        reason = f"counterguard: {why.reason}"
        session.record_skip(item, reason)
        skip(reason)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Recording: a test that skipped (or failed) in its fixtures is recorded so, to be reported so again."""
    report = (yield).get_result()
    if report.when != "setup" or report.passed or not profiles(item):
        return
    session = item.config.stash[_SESSION]
    if session.writer is None or session.unprofiled() or session.profiling_unavailable() is not None:
        return
    if report.skipped and isinstance(report.longrepr, tuple):
        reason = str(report.longrepr[2])
        session.writer.record_test(item.nodeid, [], "skipped", reason[len("Skipped: "):]
                                   if reason.startswith("Skipped: ") else reason)
    else:
        text = str(call.excinfo.value) if call.excinfo is not None else str(report.longrepr)
        name = call.excinfo.typename if call.excinfo is not None else "Error"
        session.writer.record_test(item.nodeid, [], "failed", f"{name} in a fixture: {text}".splitlines()[0])


def _run_and_judge(item, runtest):
    """The test's call with counterguard around it: the marker's block (a marked test without `counters`),
    then every block judged; a failing check fails the test, as any assertion does."""
    session = item.config.stash[_SESSION]
    settings = marker_settings(item) if profiles(item) else None
    if session.recording is not None and profiles(item):
        return _judge_recorded(session, item, settings)
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
        skip(reason)
    except BaseException as failure:
        # A test that failed still reports what its blocks measured, as an error case (not when it was
        # skipped or interrupted).
        if isinstance(failure, (KeyboardInterrupt, SystemExit)):
            raise
        _record(session, item, counters_fixture, None, failure)
        if counters_fixture is not None and not isinstance(failure, (pytest.skip.Exception, pytest.xfail.Exception)):
            _judge_blocks(session, item, settings, counters_fixture.blocks, failure, counters_fixture.parameters)
        raise
    if settings is None and counters_fixture is None:
        return
    _record(session, item, counters_fixture, whole and (settings["metrics"], whole.measurement), None)
    blocks = counters_fixture.blocks if counters_fixture is not None else [(None, whole.measurement)] if whole else []
    given = counters_fixture.parameters if counters_fixture is not None else {}
    messages = _judge_blocks(session, item, settings, blocks, None, given)
    if messages:
        pytest.fail("\n".join(messages), pytrace=False)


def _record(session, item, counters_fixture, whole, failure):
    """--counterguard-save-counter-data: the test's blocks and how its own code ended."""
    if session.writer is None or session.unprofiled():
        return
    if counters_fixture is not None:
        blocks = [(label, measurement, counters_fixture.metrics[label], counters_fixture.parameters.get(label))
                  for label, measurement in counters_fixture.blocks]
    else:
        blocks = [(None, whole[1], whole[0], None)] if whole else []
    if failure is None:
        session.writer.record_test(item.nodeid, blocks, "passed")
    elif isinstance(failure, (pytest.skip.Exception, pytest.xfail.Exception)):
        session.writer.record_test(item.nodeid, blocks, "skipped", str(failure))
    else:
        session.writer.record_test(item.nodeid, blocks, "failed", failure_text(failure))


def _judge_recorded(session, item, settings):
    """The test's blocks measured again from the recording and judged as they were on the GPU; a test whose
    own code failed there fails again, with what it raised."""
    recorded = session.recording.test(item.nodeid)
    wanted = settings["metrics"] if settings else []
    blocks, given = [], {}
    for block in recorded["blocks"]:
        metrics = list(block["metrics"]) + [metric for metric in wanted if metric not in block["metrics"]]
        blocks.append((block["label"], session.recording.measure(block, metrics)))
        given[block["label"]] = block["parameters"]
    failure = RecordedFailure(recorded["message"]) if recorded["outcome"] == "failed" else None
    messages = _judge_blocks(session, item, settings, blocks, failure, given)
    if failure is not None:
        messages.insert(0, f"counterguard: the test failed when it was recorded on the GPU: {failure.text}")
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
            messages.append(f"counterguard: {instance_name(item, label)}: {error}")
            continue
        if case["status"] == "failed":
            messages.append(failure_message(case, measurement))
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
