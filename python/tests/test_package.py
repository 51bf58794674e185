# SPDX-License-Identifier: Apache-2.0
"""The package's API on a CPU: the catalog, errors, and measurements of real H200 recordings through the C++
measurement, expectations, baselines and reports."""

import json
import math
import os
import subprocess
import sys

import pytest

import counterguard
from counterguard import results
from recorded_backend import recording_directory, recording_metadata

COALESCED = "coalescing/contiguous"
STRIDED = "coalescing/strided?stride=32"
METRICS = ["global_load_sectors_per_request", "global_load_requests", "launch_registers_per_thread",
           "spill_store_bytes"]


def measure(instance, metrics=METRICS):
    return counterguard.measure_recording(recording_directory(instance), metrics, metadata=recording_metadata())


def as_case(measurement, instance, suite="python_api"):
    document = json.loads(json.dumps(measurement.document))
    case = document["cases"][0]
    case.update({"instance": f"{suite}/{instance}", "suite": suite, "case": instance})
    return document


def test_importing_needs_no_library_and_a_missing_one_names_where_it_looked(tmp_path):
    missing = tmp_path / "nowhere" / "libcounterguard_capi.so"
    program = ("import counterguard\n"
               "try:\n"
               "    counterguard.metrics()\n"
               "except counterguard.LibraryNotFound as e:\n"
               "    print(e)\n")
    environment = dict(os.environ, COUNTERGUARD_LIBRARY=str(missing))
    output = subprocess.run([sys.executable, "-c", program], env=environment, capture_output=True, text=True,
                            check=True).stdout
    assert str(missing) in output
    assert "COUNTERGUARD_LIBRARY" in output


def test_the_catalog_gives_the_cpp_names_and_classes():
    catalog = {m.name: m for m in counterguard.metrics()}
    assert catalog["shared_load_bank_conflicts"].cls == "exact"
    assert catalog["shared_load_bank_conflicts_hw"].cls == "noisy"
    assert catalog["spill_store_bytes"].cls == "static"
    assert catalog["spill_store_bytes"].source == "compiler"
    assert catalog["global_load_sectors_per_request"].summable
    raw = counterguard.resolve_metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
    assert raw.source == "cupti" and raw.cls == "exact"


def test_an_unknown_metric_is_an_input_error_naming_the_closest_aliases():
    with pytest.raises(counterguard.InputError, match="shared_load_bank_conflicts"):
        counterguard.resolve_metric("shared_load_bank_conflict")
    with pytest.raises(counterguard.InputError, match="shared_load_bank_conflicts"):
        with counterguard.profile(["shared_load_bank_conflict"]):
            pass


def test_profile_raises_profiling_unavailable_with_the_reason_without_a_gpu():
    why = counterguard.profiling_unavailable()
    if why is None:
        pytest.skip("this machine can profile: the no-GPU path is exercised on CPU machines")
    assert why.problem in {"no_gpu", "insufficient_privileges", "unsupported_device", "under_exec"}
    ran = False
    with pytest.raises(counterguard.ProfilingUnavailable) as raised:
        with counterguard.profile(["global_load_requests"]):
            ran = True
    assert not ran, "the block must not run unprofiled"
    assert raised.value.problem == why.problem
    assert "cannot profile" in raised.value.reason or raised.value.problem == "under_exec"


def test_a_measurement_gives_totals_classes_and_launches_of_the_recording():
    m = measure(COALESCED)
    assert m["global_load_sectors_per_request"] == 4
    assert m["global_load_requests"] == 262144
    assert m.cls("global_load_sectors_per_request") == "exact"
    assert m.classes["global_load_requests"] == "exact"
    assert m.kernel_names == ["counterguard::kernels::coalescing::vec_add"]
    assert m.kernels[0].metrics["global_load_requests"] == 262144
    assert m.metadata["gpu_key"] == "GH100-132sm-cuda13"
    assert "launch_registers_per_thread" in m and m["launch_registers_per_thread"] > 0


def test_a_metric_that_was_not_measured_is_a_key_error_naming_it_and_the_kernels():
    m = measure(COALESCED)
    # The compiler's metrics come from the modules of the kernels; this process has none of the recording's.
    assert "spill_store_bytes" not in m
    assert m.get("spill_store_bytes") is None
    with pytest.raises(KeyError, match="spill_store_bytes.*coalescing::vec_add"):
        m["spill_store_bytes"]


def test_for_kernel_narrows_by_full_or_last_name_part():
    m = measure(STRIDED)
    assert m.for_kernel("strided_add")["global_load_sectors_per_request"] == 32
    assert m.for_kernel("counterguard::kernels::coalescing::strided_add")["global_load_requests"] == 8192
    other = m.for_kernel("vec_add")
    assert other.kernels == [] and "global_load_requests" not in other


def test_values_are_not_readable_before_the_block_ends():
    measurement = counterguard.Measurement()
    with pytest.raises(RuntimeError, match="when the `with` block ends"):
        measurement["global_load_requests"]


def test_expectations_take_the_yaml_forms_and_formulas_of_parameters():
    document = as_case(measure(STRIDED), "strided")
    expect = {"global_load_sectors_per_request": {"equals": "min(4 * stride, 32)"},
              "global_load_requests": {"between": ["262144 / stride", 262144]},
              "launch_registers_per_thread": {"max": 255}}
    checked = results.check_expectations(document, expect, parameters={"stride": 32, "layout": "row"},
                                         source={"file": "tests/test_x.py", "line": 12})
    checks = {c["metric"]: c for c in checked["cases"][0]["checks"]}
    assert checks["global_load_sectors_per_request"]["expected"] == "== 32"
    assert checks["global_load_sectors_per_request"]["verdict"] == "pass"
    assert checks["global_load_requests"]["expected"] == "in [8192, 262144]"
    assert "tests/test_x.py:12" in checks["global_load_requests"]["message"]
    settled, exit_status = results.settle(checked)
    assert settled["cases"][0]["status"] == "passed" and exit_status == 0


def test_a_violated_expectation_fails_the_case_naming_metric_expected_and_measured():
    document = as_case(measure(STRIDED), "strided")
    checked = results.check_expectations(document, {"global_load_sectors_per_request": 4})
    check = checked["cases"][0]["checks"][0]
    assert (check["verdict"], check["expected"], check["measured"]) == ("fail", "== 4", 32)
    settled, exit_status = results.settle(checked)
    assert settled["cases"][0]["status"] == "failed" and exit_status == 1


def test_a_formula_with_an_unknown_parameter_names_the_numeric_ones():
    document = as_case(measure(STRIDED), "strided")
    with pytest.raises(counterguard.InputError, match="'n'.*stride"):
        results.check_expectations(document, {"global_load_requests": "n / 8"}, parameters={"stride": 32})


def test_a_malformed_expectation_is_an_input_error_saying_what_is_valid():
    document = as_case(measure(STRIDED), "strided")
    with pytest.raises(counterguard.InputError, match="between needs exactly 2 values"):
        results.check_expectations(document, {"global_load_requests": {"between": [1]}})
    with pytest.raises(counterguard.InputError, match="exactly one of equals, max, min or between"):
        results.check_expectations(document, {"global_load_requests": {"equals": 1, "max": 2}})


def test_baselines_are_recorded_and_gate_with_the_files_and_rules_of_run(tmp_path):
    recorded = as_case(measure(COALESCED), "copy")
    update = results.update_baselines(recorded, tmp_path)
    path = tmp_path / "GH100-132sm-cuda13" / "python_api.yaml"
    assert update["written"] == [str(path)]
    text = path.read_text()
    assert "python_api/copy:" in text and "global_load_sectors_per_request: {value: 4, class: exact" in text
    same = results.compare_baselines(recorded, tmp_path)
    assert {c["verdict"] for c in same["cases"][0]["checks"]} == {"pass"}
    # The strided kernel's real counters under the same name: 32 sectors per request, a regression.
    planted = as_case(measure(STRIDED), "copy")
    compared = results.compare_baselines(planted, tmp_path)
    verdicts = {c["metric"]: c for c in compared["cases"][0]["checks"] if c["kernel"] == ""}  # the totals
    regression = verdicts["global_load_sectors_per_request"]
    assert (regression["verdict"], regression["measured"], regression["baseline"]) == ("regression", 32, 4)
    settled, exit_status = results.settle(compared)
    assert settled["cases"][0]["status"] == "failed" and exit_status == 1
    # A file of another GPU key is refused, not compared.
    other = json.loads(json.dumps(recorded))
    other["metadata"]["gpu_key"] = "AD102-128sm-cuda13"
    (tmp_path / "AD102-128sm-cuda13").mkdir()
    (tmp_path / "AD102-128sm-cuda13" / "python_api.yaml").write_text(text)
    with pytest.raises(counterguard.InputError, match="GH100-132sm-cuda13"):
        results.compare_baselines(other, tmp_path)


def test_reports_of_run_are_written(tmp_path):
    document = results.check_expectations(as_case(measure(STRIDED), "strided"),
                                          {"global_load_sectors_per_request": 4})
    document, _ = results.settle(document)
    paths = {"json_path": tmp_path / "r.json", "markdown": tmp_path / "r.md", "html": tmp_path / "r.html",
             "junit": tmp_path / "r.xml"}
    results.write_reports(document, **paths)
    written = json.loads(paths["json_path"].read_text())
    assert written["cases"][0]["instance"] == "python_api/strided"
    assert written["summary"]["exit_code"] == 1
    assert "global_load_sectors_per_request" in paths["markdown"].read_text()
    assert "python_api/strided" in paths["html"].read_text()
    assert "failure" in paths["junit"].read_text()
    console = results.render_console(document)
    assert "FAIL" in console and "global_load_sectors_per_request" in console


def test_nan_free_values_cross_the_abi():
    m = measure(COALESCED)
    assert all(not math.isnan(v) for v in m.totals.values())
