# SPDX-License-Identifier: Apache-2.0
"""The pytest plugin, run on test projects with pytester: skips without a GPU, the marker's expectations and
formulas, the counters fixture, baselines and reports, with blocks measured from real H200 recordings."""

import json

import pytest

import counterguard

PLUGIN = ("-p", "counterguard.pytest_plugin")
COALESCED = "coalescing/contiguous"
STRIDED_32 = "coalescing/strided?stride=32"


def run(pytester, *arguments):
    return pytester.runpytest(*PLUGIN, "-rs", *arguments)


def test_counter_tests_are_skipped_with_the_reason_where_profiling_is_not_possible(pytester):
    why = counterguard.profiling_unavailable()
    if why is None or why.problem == "under_exec":
        pytest.skip("this machine can profile: the no-GPU path is exercised on CPU machines")
    pytester.makepyfile(test_kernels="""
import counterguard
import pytest

def test_with_the_fixture(counters):
    with counters.profile(["global_load_requests"]) as m:
        raise AssertionError("the block must not run")

@pytest.mark.counterguard(expect={"shared_load_bank_conflicts": 0})
def test_with_the_marker():
    raise AssertionError("a marked test must not run unprofiled")

def test_with_profile_directly():
    with counterguard.profile(["global_load_requests"]):
        raise AssertionError("the block must not run")

def test_without_counters():
    pass
""")
    result = run(pytester)
    result.assert_outcomes(passed=1, skipped=3)
    result.stdout.fnmatch_lines(["SKIPPED *counterguard: counterguard cannot profile here*"])
    assert why.reason in result.stdout.str()


def test_marker_expectations_pass_and_a_violation_names_metric_expected_measured_and_kernel(recorded_session):
    pytester = recorded_session({"test_coalesced": COALESCED, "test_strided": STRIDED_32})
    pytester.makepyfile(test_copy="""
import pytest

@pytest.mark.counterguard(expect={"global_load_sectors_per_request": 4, "global_load_requests": {"min": 1}})
def test_coalesced():
    pass

@pytest.mark.counterguard(expect={"global_load_sectors_per_request": 4})
def test_strided():
    pass
""")
    result = run(pytester)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*counterguard: test_copy/test_strided: 1 counter check(s) failed*",
        "*global_load_sectors_per_request: expected == 4, measured 32 (fail, expectation) in kernel "
        "counterguard::kernels::coalescing::strided_add*",
    ])
    assert "Traceback" not in result.stdout.str()


def test_formulas_read_the_parametrize_values(recorded_session):
    pytester = recorded_session({f"test_stride[{s}]": f"coalescing/strided?stride={s}" for s in (1, 2, 4, 8)})
    pytester.makepyfile(test_strides="""
import pytest

@pytest.mark.parametrize("stride", [1, 2, 4, 8])
@pytest.mark.counterguard(expect={
    "global_load_sectors_per_request": {"equals": "min(4 * stride, 32)"},
    "global_load_requests": {"between": ["262144 / stride", "262144 / stride"]},
})
def test_stride(stride):
    pass
""")
    result = run(pytester, "--counterguard-json", "results.json")
    result.assert_outcomes(passed=4)
    written = json.loads((pytester.path / "results.json").read_text())
    instances = [case["instance"] for case in written["cases"]]
    assert instances == [f"test_strides/test_stride?stride={s}" for s in (1, 2, 4, 8)]
    expected = [check["expected"] for case in written["cases"] for check in case["checks"]
                if check["metric"] == "global_load_sectors_per_request"]
    assert expected == ["== 4", "== 8", "== 16", "== 32"]


def test_a_formula_with_an_unknown_parameter_fails_naming_the_test_and_the_parameters(recorded_session):
    pytester = recorded_session({"test_stride": STRIDED_32})
    pytester.makepyfile(test_bad="""
import pytest

@pytest.mark.parametrize("stride", [32])
@pytest.mark.counterguard(expect={"global_load_requests": "n / stride"})
def test_stride(stride):
    pass
""")
    result = run(pytester)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*test_bad.py:*formula 'n / stride' uses 'n', which is not a parameter*"
                                 "numeric parameters of this case: stride*"])


@pytest.mark.parametrize("marker, message", [
    ('expect={"shared_load_bank_conflict": 0}',
     "*field 'expect.shared_load_bank_conflict': unknown metric 'shared_load_bank_conflict'; did you mean "
     "'shared_load_bank_conflicts'*"),
    ('expect={"shared_load_bank_conflicts": {"min": 1, "max": 3}}', "*both 'min' and 'max' are given*"),
    ('expect={"shared_load_bank_conflicts": {"max": 0, "tolerance": -1}}',
     "*'expect.shared_load_bank_conflicts.tolerance': tolerance must be a number >= 0, got '-1'*"),
    ('expect={"global_load_requests": "n / 32"}', "*formula 'n / 32' uses 'n', which is not a parameter*"),
    ('metrics=["global_load_request"]', "*unknown metric 'global_load_request'*"),
], ids=["misspelled_metric", "two_comparisons", "negative_tolerance", "unknown_parameter", "misspelled_extra_metric"])
def test_a_marker_mistake_fails_its_test_at_collection_gpu_or_not(pytester, marker, message):
    # No recorded backend: on a CPU machine these tests would otherwise be skipped for want of a GPU.
    pytester.makepyfile(test_mistake=f"""
import pytest

@pytest.mark.counterguard({marker})
def test_kernel(counters):
    raise AssertionError("a test with a broken marker must not run")

def test_unmarked():
    pass
""")
    result = run(pytester)
    result.assert_outcomes(passed=1, errors=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*ERROR at setup of test_kernel*", f"*counterguard: test_mistake.py:3:1: {message}"])
    assert "Traceback" not in result.stdout.str() and "must not run" not in result.stdout.str()


def test_formulas_name_values_the_test_gives_its_block(recorded_session):
    # The recorded contiguous copy makes 262144 load requests: n / 32 with n = 32 * 262144.
    pytester = recorded_session({"test_given": COALESCED, "test_wrong": COALESCED})
    pytester.makepyfile(test_values="""
import pytest

@pytest.mark.counterguard(expect={"global_load_requests": "n / 32"}, parameters=["n"])
def test_given(counters):
    n = 32 * 262144
    with counters.profile(parameters={"n": n}):
        pass

@pytest.mark.counterguard(expect={"global_load_requests": "n / 32"}, parameters=["n"])
def test_wrong(counters):
    with counters.profile(parameters={"n": 1024}):
        pass
""")
    result = run(pytester)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*global_load_requests: expected == 32, measured 262144 (fail, expectation)*"])


def test_the_marker_gives_formulas_values_of_its_own(recorded_session):
    pytester = recorded_session({"test_constant": COALESCED})
    pytester.makepyfile(test_constant="""
import pytest

N = 32 * 262144

@pytest.mark.counterguard(expect={"global_load_requests": "n / 32"}, parameters={"n": N})
def test_constant():
    pass
""")
    run(pytester).assert_outcomes(passed=1)


def test_a_value_left_to_the_block_and_not_given_fails_saying_how_to_give_it(recorded_session):
    pytester = recorded_session({"test_forgot": COALESCED})
    pytester.makepyfile(test_forgot="""
import pytest

@pytest.mark.counterguard(expect={"global_load_requests": "n / 32"}, parameters=["n"])
def test_forgot(counters):
    with counters.profile():
        pass
""")
    result = run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*the marker leaves n to be given at run time: pass "
                                 "counters.profile(..., parameters={'n': ...})*"])


def test_a_value_left_to_the_block_in_a_test_without_the_fixture_is_a_marker_mistake(pytester):
    pytester.makepyfile(test_no_fixture="""
import pytest

@pytest.mark.counterguard(expect={"global_load_requests": "n / 32"}, parameters=["n"])
def test_whole():
    pass
""")
    result = run(pytester)
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*leaves n to be given at run time, which only counters.profile(*) can do*"])


def test_a_failing_single_kernel_block_prints_each_check_once(recorded_session, monkeypatch):
    # The baselines keep the block's totals and each kernel's rows: with one kernel they are the same check.
    monkeypatch.setenv("CG_PLANT", "")
    pytester = recorded_session({"test_strided": "coalescing/strided?stride=2",
                                 "test_strided_planted": STRIDED_32})
    pytester.makeconftest(pytester.path.joinpath("conftest.py").read_text().replace(
        "return RECORDINGS.get(test)",
        "import os\n    if os.environ.get('CG_PLANT') == 'stride':\n        test = test + '_planted'\n"
        "    return RECORDINGS.get(test)"))
    pytester.makepyfile(test_once="""
def test_strided(counters):
    with counters.profile(["global_load_sectors_per_request"]):
        pass
""")
    run(pytester, "--counterguard-baselines", "b", "--counterguard-update-baselines").assert_outcomes(passed=1)
    monkeypatch.setenv("CG_PLANT", "stride")
    gated = run(pytester, "--counterguard-baselines", "b")
    gated.assert_outcomes(failed=1)
    failure = gated.stdout.str().split("counter check(s) failed")[1].split("counterguard ---")[0]
    assert failure.count("global_load_sectors_per_request: expected") == 1, failure
    gated.stdout.fnmatch_lines(["*test_once/test_strided: 1 counter check(s) failed*",
                                "*(regression, baseline) in kernel counterguard::kernels::coalescing::strided_add*"])


def test_the_counters_fixture_measures_its_blocks_with_the_marker_metrics(recorded_session):
    pytester = recorded_session({"test_blocks": COALESCED})
    pytester.makepyfile(test_fixture="""
import pytest

@pytest.mark.counterguard(expect={"global_load_sectors_per_request": 4})
def test_blocks(counters):
    with counters.profile(["global_load_requests"]) as first:
        pass
    assert first["global_load_requests"] == 262144
    assert first["global_load_sectors_per_request"] == 4  # the marker's metric is measured too
    assert first.for_kernel("vec_add")["global_load_requests"] == 262144
    with counters.profile("global_store_requests", name="again") as second:
        pass
    assert len(counters.measurements) == 2
""")
    result = run(pytester, "--counterguard-json", "results.json", "-v")
    result.assert_outcomes(passed=1)
    instances = [case["instance"] for case in json.loads((pytester.path / "results.json").read_text())["cases"]]
    assert instances == ["test_fixture/test_blocks", "test_fixture/test_blocks#again"]
    result.stdout.fnmatch_lines(["*counterguard*", "*test_fixture/test_blocks*global_load_sectors_per_request*"])


def test_baselines_are_recorded_then_gate_a_planted_regression(recorded_session, monkeypatch):
    monkeypatch.setenv("CG_PLANT", "")
    pytester = recorded_session({"test_copy": COALESCED, "test_copy_planted": STRIDED_32})
    pytester.makeconftest(pytester.path.joinpath("conftest.py").read_text().replace(
        "return RECORDINGS.get(test)",
        "import os\n    if os.environ.get('CG_PLANT') == 'stride':\n        test = test + '_planted'\n"
        "    return RECORDINGS.get(test)"))
    pytester.makepyfile(test_gate="""
def test_copy(counters):
    with counters.profile(["global_load_sectors_per_request", "global_load_requests"]):
        pass
""")
    recorded = run(pytester, "--counterguard-baselines", "baselines", "--counterguard-update-baselines")
    recorded.assert_outcomes(passed=1)
    baseline = pytester.path / "baselines" / "GH100-132sm-cuda13" / "test_gate.yaml"
    assert "test_gate/test_copy:" in baseline.read_text()
    recorded.stdout.fnmatch_lines(["*counterguard: baselines: 1 file(s) written*"])

    run(pytester, "--counterguard-baselines", "baselines").assert_outcomes(passed=1)

    monkeypatch.setenv("CG_PLANT", "stride")
    gated = run(pytester, "--counterguard-baselines", "baselines", "--counterguard-markdown", "summary.md")
    gated.assert_outcomes(failed=1)
    gated.stdout.fnmatch_lines(["*global_load_sectors_per_request: expected 4*measured 32 (regression, baseline)*"])
    assert "global_load_sectors_per_request" in (pytester.path / "summary.md").read_text()


def test_reports_of_run_are_written_for_the_session(recorded_session):
    pytester = recorded_session({"test_strided": STRIDED_32})
    pytester.makepyfile(test_report="""
import pytest

@pytest.mark.counterguard(expect={"global_load_sectors_per_request": 4})
def test_strided():
    pass
""")
    result = run(pytester, "--counterguard-json", "r.json", "--counterguard-markdown", "r.md",
                 "--counterguard-html", "r.html")
    result.assert_outcomes(failed=1)
    written = json.loads((pytester.path / "r.json").read_text())
    assert written["metadata"]["mode"] == "pytest"
    assert written["metadata"]["gpu_key"] == "GH100-132sm-cuda13"
    assert written["cases"][0]["status"] == "failed"
    assert written["summary"]["exit_code"] == 1
    assert "test_report/test_strided" in (pytester.path / "r.md").read_text()
    assert "test_report/test_strided" in (pytester.path / "r.html").read_text()
    result.stdout.fnmatch_lines(["*counterguard: wrote r.json*"])


def test_a_wrong_marker_keyword_is_a_usage_error_saying_what_is_valid_without_a_traceback(recorded_session):
    pytester = recorded_session({"test_typo": COALESCED})
    pytester.makepyfile(test_typo="""
import pytest

@pytest.mark.counterguard(expects={"global_load_requests": 1})
def test_typo():
    pass
""")
    result = run(pytester)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: test_typo.py::test_typo: @pytest.mark.counterguard has no keyword expects; "
                                 "valid: expect, metrics, max_launches, parameters"])
    assert "Traceback" not in result.stdout.str() + result.stderr.str()


def test_the_ini_option_names_the_baseline_directory_relative_to_the_ini_file(recorded_session):
    pytester = recorded_session({"test_copy": COALESCED})
    pytester.makeini("[pytest]\ncounterguard_baselines = gpu-baselines\n")
    pytester.makepyfile(test_ini="""
def test_copy(counters):
    with counters.profile("global_load_requests"):
        pass
""")
    run(pytester, "--counterguard-update-baselines").assert_outcomes(passed=1)
    assert (pytester.path / "gpu-baselines" / "GH100-132sm-cuda13" / "test_ini.yaml").is_file()


def test_recording_baselines_without_a_directory_is_a_usage_error(pytester):
    pytester.makepyfile(test_nothing="def test_nothing():\n    pass\n")
    result = run(pytester, "--counterguard-update-baselines")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*--counterguard-update-baselines needs --counterguard-baselines DIR*"])
