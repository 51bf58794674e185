# SPDX-License-Identifier: Apache-2.0
"""A session recorded with --counterguard-save-counter-data and judged again with --counterguard-from-recording:
the recording session's blocks are measured from real H200 counter data (recorded_backend.py), the judging
session has no stand-in at all (this machine has no GPU: only the recording can give it values)."""

import json
import shutil

import pytest

PLUGIN = ("-p", "counterguard.pytest_plugin")
COALESCED = "coalescing/contiguous"
STRIDED_32 = "coalescing/strided?stride=32"

# Tests whose fixture needs the GPU (ON_GPU=1 while recording): judging the recording must not run it.
TESTS = """
import os
import pytest

@pytest.fixture
def gpu_buffers():
    if os.environ.get("ON_GPU") != "1":
        raise AssertionError("a fixture ran without a GPU")
    return "buffers"

@pytest.mark.counterguard(expect={"global_load_sectors_per_request": 4})
def test_marked(gpu_buffers):
    pass

@pytest.mark.counterguard(expect={"global_load_requests": "n / 32"}, parameters=["n"])
def test_two_blocks(counters, gpu_buffers):
    with counters.profile(["global_load_sectors"], parameters={"n": 8388608}):
        pass
    with counters.profile(name="again", parameters={"n": 8388608}):
        pass

@pytest.mark.parametrize("stride", [32])
@pytest.mark.counterguard(expect={"global_load_sectors_per_request": "stride"})
def test_strided(counters, stride, gpu_buffers):
    with counters.profile():
        pass

def test_without_counters():
    pass
"""
RECORDINGS = {"test_marked": COALESCED, "test_two_blocks": COALESCED, "test_strided": STRIDED_32}


def record(recorded_session, monkeypatch, tests=TESTS, recordings=None, *arguments):
    """Runs `tests` with the recorded backend into recording/; the pytester, the result."""
    pytester = recorded_session(recordings or RECORDINGS)
    pytester.makepyfile(test_kernels=tests)
    monkeypatch.setenv("ON_GPU", "1")
    result = pytester.runpytest(*PLUGIN, "--counterguard-save-counter-data", "recording", "--counterguard-json",
                                "gpu.json", *arguments)
    monkeypatch.delenv("ON_GPU")
    pytester.makeconftest("")  # what judges the recording has no stand-in
    return pytester, result


def judge(pytester, *arguments):
    return pytester.runpytest(*PLUGIN, "-rs", "--counterguard-from-recording", "recording", *arguments)


def cases(pytester, name):
    return json.loads((pytester.path / name).read_text())["cases"]


def test_a_recorded_session_is_judged_again_without_a_gpu_exactly_as_it_was(recorded_session, monkeypatch):
    pytester, recorded = record(recorded_session, monkeypatch)
    recorded.assert_outcomes(passed=4)
    recorded.stdout.fnmatch_lines(["*counterguard: recorded 4 block(s) of 3 test(s) into *recording*"])
    result = judge(pytester, "--counterguard-json", "cpu.json")
    result.assert_outcomes(passed=3, skipped=1)
    result.stdout.fnmatch_lines(["SKIPPED *test_kernels.py: counterguard: *this test profiles nothing"])
    assert cases(pytester, "cpu.json") == cases(pytester, "gpu.json")
    instances = [case["instance"] for case in cases(pytester, "cpu.json")]
    assert instances == ["test_kernels/test_marked", "test_kernels/test_two_blocks",
                         "test_kernels/test_two_blocks#again", "test_kernels/test_strided?stride=32"]


def test_a_changed_expectation_is_judged_on_the_recorded_counters(recorded_session, monkeypatch):
    pytester, _ = record(recorded_session, monkeypatch)
    pytester.makepyfile(test_kernels=TESTS.replace('"global_load_sectors_per_request": "stride"',
                                                   '"global_load_sectors_per_request": 4'))
    result = judge(pytester)
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    result.stdout.fnmatch_lines(["*test_kernels/test_strided?stride=32: 1 counter check(s) failed*",
                                 "*global_load_sectors_per_request: expected == 4, measured 32*"])


def test_a_test_that_failed_or_skipped_when_recorded_does_so_again_with_what_it_said(recorded_session, monkeypatch):
    tests = """
import pytest

@pytest.fixture
def needs_a_library():
    pytest.skip("the library is missing")

@pytest.mark.counterguard(expect={"global_load_sectors_per_request": 4})
def test_wrong_output(counters):
    with counters.profile():
        pass
    assert 1 + 1 == 3, "the copy is wrong"

@pytest.mark.counterguard(expect={"global_load_sectors_per_request": 4})
def test_skips_itself(counters):
    pytest.skip("not on this GPU")

@pytest.mark.counterguard(expect={"global_load_sectors_per_request": 4})
def test_skips_in_its_fixture(needs_a_library):
    pass
"""
    pytester, recorded = record(recorded_session, monkeypatch, tests, {"test_wrong_output": COALESCED})
    recorded.assert_outcomes(failed=1, skipped=2)
    result = judge(pytester, "--counterguard-json", "cpu.json")
    result.assert_outcomes(failed=1, skipped=2)
    result.stdout.fnmatch_lines([
        "*counterguard: the test failed when it was recorded on the GPU: AssertionError: the copy is wrong*",
        "*skipped when recorded on the GPU: not on this GPU*",
        "*skipped when recorded on the GPU: the library is missing*"])
    statuses = {case["instance"]: (case["status"], case["status_reason"]) for case in cases(pytester, "cpu.json")}
    assert statuses["test_kernels/test_wrong_output"] == ("error",
                                                          "the test raised AssertionError: the copy is wrong")


def test_tests_that_do_not_match_the_recording_are_refused_naming_each(recorded_session, monkeypatch):
    pytester, _ = record(recorded_session, monkeypatch)
    pytester.makepyfile(test_kernels=TESTS.replace("def test_marked(", "def test_renamed("))
    result = judge(pytester)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*the tests and the recording do not match (3 test(s) recorded)*",
                                 "*not in the recording: test_kernels.py::test_renamed*",
                                 "*recorded, not collected: test_kernels.py::test_marked*",
                                 "*record the session again on the GPU*"])


def test_deselected_tests_are_no_mismatch(recorded_session, monkeypatch):
    pytester, _ = record(recorded_session, monkeypatch)
    result = judge(pytester, "-k", "strided")
    result.assert_outcomes(passed=1)


def test_baselines_recorded_from_a_recording_gate_it(recorded_session, monkeypatch):
    pytester, _ = record(recorded_session, monkeypatch)
    refreshed = judge(pytester, "--counterguard-baselines", "baselines", "--counterguard-update-baselines")
    refreshed.assert_outcomes(passed=3, skipped=1)
    refreshed.stdout.fnmatch_lines(["*counterguard: baselines: 1 file(s) written under *baselines*"])
    assert (pytester.path / "baselines" / "GH100-132sm-cuda13" / "test_kernels.yaml").is_file()
    gated = judge(pytester, "--counterguard-baselines", "baselines", "--counterguard-json", "gated.json")
    gated.assert_outcomes(passed=3, skipped=1)
    origins = {check["origin"] for case in cases(pytester, "gated.json") for check in case["checks"]}
    verdicts = {check["verdict"] for case in cases(pytester, "gated.json") for check in case["checks"]}
    assert "baseline" in origins and "new_metric" not in verdicts


def test_recording_into_a_directory_that_holds_other_files_is_refused(recorded_session, monkeypatch):
    pytester = recorded_session(RECORDINGS)
    (pytester.path / "recording").mkdir()
    (pytester.path / "recording" / "notes.txt").write_text("mine")
    pytester.makepyfile(test_kernels=TESTS)
    result = pytester.runpytest(*PLUGIN, "--counterguard-save-counter-data", "recording")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--counterguard-save-counter-data *recording: the directory is not empty*"])


def test_an_earlier_recording_is_replaced(recorded_session, monkeypatch):
    pytester, _ = record(recorded_session, monkeypatch)
    shutil.copytree(pytester.path / "recording", pytester.path / "first")
    pytester, again = record(recorded_session, monkeypatch)
    again.assert_outcomes(passed=4)
    blocks = sorted(path.name for path in (pytester.path / "recording" / "blocks").iterdir())
    assert blocks == ["0000", "0001", "0002", "0003"]


def test_judging_without_a_recording_or_while_recording_is_refused(pytester):
    pytester.makepyfile(test_kernels=TESTS)
    missing = pytester.runpytest(*PLUGIN, "--counterguard-from-recording", "nowhere")
    assert missing.ret == pytest.ExitCode.USAGE_ERROR
    missing.stderr.fnmatch_lines(["*--counterguard-from-recording *nowhere: no session.json there*"])
    both = pytester.runpytest(*PLUGIN, "--counterguard-from-recording", "a", "--counterguard-save-counter-data", "b")
    assert both.ret == pytest.ExitCode.USAGE_ERROR
    both.stderr.fnmatch_lines(["*give one of them*"])


def test_a_recording_outside_the_project_given_as_a_separate_word_is_refused_saying_to_write_it_with_equals(
        recorded_session, monkeypatch, tmp_path_factory):
    pytester, _ = record(recorded_session, monkeypatch)
    pytester.makeini("[pytest]\n")
    outside = tmp_path_factory.mktemp("elsewhere") / "recording"
    shutil.move(str(pytester.path / "recording"), str(outside))
    separate = pytester.runpytest(*PLUGIN, "--counterguard-from-recording", str(outside))
    assert separate.ret == pytest.ExitCode.USAGE_ERROR
    separate.stderr.fnmatch_lines([f"*pytest took '{outside}' for a test path when it chose its rootdir*"
                                   f"write --counterguard-from-recording={outside} (with '=')"])
    joined = pytester.runpytest(*PLUGIN, f"--counterguard-from-recording={outside}", "--counterguard-json",
                                "cpu.json")
    joined.assert_outcomes(passed=3, skipped=1)
    assert cases(pytester, "cpu.json") == cases(pytester, "gpu.json")
