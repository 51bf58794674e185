#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The machine-readable formats, checked with the tools that read them (python3-jsonschema, Debian's):

- schemas/suite.schema.json and schemas/results.schema.json equal what `counterguard schema` prints and are valid
  draft 2020-12 schemas;
- every committed suite (cases/, examples/, tools/) validates against the suite schema, and the mistakes an
  editor should mark do not;
- every committed results file (harness/test/fixtures, the recordings' run.json) and the results counterguard
  writes now validate against the results schema;
- `--export bencher` matches the Bencher Metric Format's published JSON Schema, `--export github-action-benchmark`
  the entries github-action-benchmark's custom tools read; `--csv` reads back as the documented columns.

  python3 harness/test/cli/json_formats_test.py --counterguard build/counterguard [unittest options]
"""

import argparse
import copy
import csv
import glob
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest

try:
    import jsonschema
    import yaml
except ImportError as missing:  # tools/setup.sh and .ci/run install python3-jsonschema and python3-yaml
    print(f"json_formats_test: {missing}; install python3-jsonschema and python3-yaml")
    sys.exit(77)

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
COUNTERGUARD = os.path.join(SOURCE, "build", "counterguard")
RECORDING = os.path.join(SOURCE, "harness", "test", "fixtures", "h200_builtin")

# The Bencher Metric Format as bencher.dev/docs/reference/bencher-metric-format publishes its JSON Schema
# (draft-07): benchmark name -> measure -> {value, lower_value?, upper_value?}.
BENCHER_METRIC_FORMAT = {
    "$schema": "http://json-schema.org/draft-07/schema",
    "type": "object",
    "patternProperties": {".+": {
        "type": "object",
        "patternProperties": {".+": {
            "type": "object",
            "properties": {"value": {"type": "number"}, "lower_value": {"type": "number"},
                           "upper_value": {"type": "number"}},
            "required": ["value"]}}}},
}
# github-action-benchmark's customSmallerIsBetter / customBiggerIsBetter: a JSON array of its BenchmarkResult
# (src/extract.ts): name, unit and value required, range and extra optional strings.
GITHUB_ACTION_BENCHMARK = {
    "type": "array",
    "items": {"type": "object",
              "properties": {"name": {"type": "string"}, "value": {"type": "number"}, "unit": {"type": "string"},
                             "range": {"type": "string"}, "extra": {"type": "string"}},
              "required": ["name", "value", "unit"]},
}
CSV_COLUMNS = ["instance", "suite", "case", "status", "kernel", "metric", "class", "measured", "origin", "expected",
               "baseline", "verdict", "failing", "message"]


def counterguard(*arguments):
    return subprocess.run([COUNTERGUARD, *arguments], cwd=SOURCE, capture_output=True, text=True, check=False)


def committed_schema(name):
    with open(os.path.join(SOURCE, "schemas", f"{name}.schema.json"), encoding="utf-8") as f:
        return json.load(f)


def committed_suites():
    """Every YAML file in the repository's suite folders that is a suite (baselines are YAML too)."""
    suites = []
    for path in sorted(set(glob.glob(os.path.join(SOURCE, "cases", "**", "*.yaml"), recursive=True) +
                           glob.glob(os.path.join(SOURCE, "examples", "**", "*.yaml"), recursive=True) +
                           glob.glob(os.path.join(SOURCE, "tools", "**", "*.yaml"), recursive=True))):
        with open(path, encoding="utf-8") as f:
            documents = list(yaml.safe_load_all(f))
        if len(documents) == 1 and isinstance(documents[0], dict) and isinstance(documents[0].get("cases"), list):
            suites.append((path, documents[0]))
    return suites


def committed_results():
    """Every results document committed: results files, and the results a recording's run.json (or an exec
    recording's exec.json) holds."""
    found = []
    for path in sorted(glob.glob(os.path.join(SOURCE, "harness", "test", "**", "*.json"), recursive=True) +
                       glob.glob(os.path.join(SOURCE, "examples", "**", "*.json"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        if not isinstance(document, dict):
            continue
        metadata = document.get("metadata")
        if isinstance(metadata, dict) and "gpu_key" in metadata and "cases" in document:
            found.append((path, document))
        elif isinstance(document.get("results"), dict) and "suite_paths" in document:
            found.append((path + " (results)", document["results"]))
    return found


def problems(validator, document):
    return [f"{'/'.join(str(p) for p in e.absolute_path)}: {e.message[:300]}" for e in validator.iter_errors(document)]


class schemas_test(unittest.TestCase):
    def test_committed_schemas_are_what_the_command_prints_and_valid_2020_12_schemas(self):
        for name in ("suite", "results"):
            printed = counterguard("schema", name)
            self.assertEqual(printed.returncode, 0, printed.stderr)
            with open(os.path.join(SOURCE, "schemas", f"{name}.schema.json"), encoding="utf-8") as f:
                self.assertEqual(f.read(), printed.stdout,
                                 f"schemas/{name}.schema.json is stale: counterguard schema {name} "
                                 f">schemas/{name}.schema.json")
            schema = json.loads(printed.stdout)
            self.assertEqual(schema["$schema"], "https://json-schema.org/draft/2020-12/schema")
            jsonschema.Draft202012Validator.check_schema(schema)

    def test_an_unknown_schema_name_is_exit_status_2(self):
        self.assertEqual(counterguard("schema", "baselines").returncode, 2)

    def test_every_committed_suite_validates(self):
        validator = jsonschema.Draft202012Validator(committed_schema("suite"))
        suites = committed_suites()
        self.assertGreaterEqual(len(suites), 12)
        for path, suite in suites:
            self.assertEqual(problems(validator, suite), [], path)

    def test_every_metric_alias_is_a_completion_with_its_description(self):
        aliases = json.loads(counterguard("metrics", "list", "--json", "-").stdout)
        properties = committed_schema("suite")["$defs"]["expectations"]["properties"]
        self.assertEqual(sorted(properties), sorted(a["name"] for a in aliases))
        for alias in aliases:
            self.assertIn(alias["description"], properties[alias["name"]]["description"])

    def test_the_mistakes_an_editor_should_mark_do_not_validate(self):
        validator = jsonschema.Draft202012Validator(committed_schema("suite"))
        with open(os.path.join(SOURCE, "cases", "transpose.yaml"), encoding="utf-8") as f:
            good = yaml.safe_load(f)
        self.assertEqual(problems(validator, good), [])
        case = good["cases"][0]

        def broken(change):
            suite = copy.deepcopy(good)
            change(suite, suite["cases"][0])
            return suite

        mistakes = {
            "a misspelt top-level key": broken(lambda s, c: s.update(suites=s.pop("suite"))),
            "a misspelt case key": broken(lambda s, c: c.update(expects=c.pop("expect"))),
            "an unknown metric alias": broken(lambda s, c: c["expect"].update(shared_bank_conflict=0)),
            "a raw name of the wrong shape": broken(lambda s, c: c["expect"].update({"sm__cycles": 0})),
            "two comparisons": broken(lambda s, c: c["expect"].update(spill_store_bytes={"equals": 0, "max": 1})),
            "no comparison": broken(lambda s, c: c["expect"].update(spill_store_bytes={"tolerance": 0.1})),
            "between of three": broken(lambda s, c: c["expect"].update(spill_store_bytes={"between": [1, 2, 3]})),
            "a negative tolerance": broken(
                lambda s, c: c["expect"].update(spill_store_bytes={"equals": 0, "tolerance": -1})),
            "an unknown class": broken(lambda s, c: c["expect"].update(spill_store_bytes={"max": 0, "class": "x"})),
            "an invalid case name": broken(lambda s, c: c.update(name="has space")),
            "no kernel or select": broken(lambda s, c: c.pop("kernel")),
            "select with axes": broken(lambda s, c: (c.pop("kernel"), c.update(select="reduce*", axes={"n": [1]}))),
            "kernel and select": broken(lambda s, c: c.update(select="reduce*")),
            "an empty axis": broken(lambda s, c: c.update(axes={"n": []})),
            "four block dimensions": broken(lambda s, c: c.update(launch={"block": [1, 1, 1, 1]})),
            "no cases": broken(lambda s, c: s.update(cases=[])),
        }
        self.assertIn("kernel", case)
        for mistake, suite in mistakes.items():
            self.assertNotEqual(problems(validator, suite), [], mistake)
        # Raw CUPTI names and the forms a formula takes do validate.
        fine = broken(lambda s, c: c["expect"].update({
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": {"max": "n * n / 8", "class": "exact",
                                                              "tolerance": 0.01, "kernel": "k"},
            "spill_store_bytes": {"between": ["n - 1", 5]}}))
        self.assertEqual(problems(validator, fine), [])

    def test_every_committed_results_file_validates(self):
        validator = jsonschema.Draft202012Validator(committed_schema("results"))
        found = committed_results()
        self.assertGreaterEqual(len(found), 8)
        for path, document in found:
            self.assertEqual(problems(validator, document), [], path)

    def test_results_written_now_validate_and_a_changed_field_does_not(self):
        validator = jsonschema.Draft202012Validator(committed_schema("results"))
        with tempfile.TemporaryDirectory() as scratch:
            out = os.path.join(scratch, "r.json")
            done = counterguard("evaluate", RECORDING, "cases", "--quiet", "--json", out)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(out, encoding="utf-8") as f:
                results = json.load(f)
        self.assertEqual(problems(validator, results), [])
        results["cases"][0]["status"] = "green"
        self.assertNotEqual(problems(validator, results), [])


class exports_test(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        cls.paths = {name: os.path.join(cls.scratch.name, name) for name in
                     ("bencher.json", "smaller.json", "bigger.json", "checks.csv", "results.json")}
        cls.done = counterguard("evaluate", RECORDING, "cases", "--quiet", "--json", cls.paths["results.json"],
                                "--export", "bencher", cls.paths["bencher.json"],
                                "--export", "github-action-benchmark", cls.paths["smaller.json"],
                                "--export", "github-action-benchmark-bigger", cls.paths["bigger.json"],
                                "--csv", cls.paths["checks.csv"])
        with open(cls.paths["results.json"], encoding="utf-8") as f:
            cls.results = json.load(f)

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def read(self, name):
        with open(self.paths[name], encoding="utf-8") as f:
            return json.load(f)

    def measured(self):
        """(instance, metric) -> value of every finite case total of the cases that ran."""
        return {(c["instance"], metric): total["value"] for c in self.results["cases"]
                if c["status"] in ("passed", "failed") for metric, total in c["totals"].items()
                if total["value"] is not None}

    def test_the_run_passed(self):
        self.assertEqual(self.done.returncode, 0, self.done.stderr)

    def test_bencher_export_is_bencher_metric_format_with_every_measured_total(self):
        document = self.read("bencher.json")
        jsonschema.Draft7Validator(BENCHER_METRIC_FORMAT).validate(document)
        exported = {(benchmark, measure): value["value"] for benchmark, measures in document.items()
                    for measure, value in measures.items()}
        self.assertEqual(exported, self.measured())

    def test_github_action_benchmark_exports_split_the_totals_by_their_better_direction(self):
        smaller, bigger = self.read("smaller.json"), self.read("bigger.json")
        for entries in (smaller, bigger):
            jsonschema.Draft202012Validator(GITHUB_ACTION_BENCHMARK).validate(entries)
        measured = self.measured()
        names = {f"{instance} {metric}": value for (instance, metric), value in measured.items()}
        exported = {e["name"]: e["value"] for e in smaller + bigger}
        self.assertEqual(exported, names)
        self.assertEqual(len(smaller) + len(bigger), len(measured))
        directions = {m["name"]: m["direction"] for m in json.loads(counterguard("metrics", "list", "--json",
                                                                                  "-").stdout)}
        bigger_metrics = {e["name"].split(" ")[-1] for e in bigger}
        self.assertTrue(bigger_metrics)
        self.assertEqual({directions.get(m) for m in bigger_metrics}, {"higher_is_better"})
        self.assertNotIn("higher_is_better", {directions.get(e["name"].split(" ")[-1]) for e in smaller})
        self.assertIn({"name": "transpose/smem_unpadded?n=2048 shared_store_bank_conflicts", "unit": "count",
                       "value": 4063232.0, "extra": "class: exact\ngpu_key: GH100-132sm-cuda13"},
                      [{k: e[k] for k in ("name", "unit", "value", "extra")} for e in smaller])

    def test_an_unknown_export_format_is_exit_status_2_before_anything_runs(self):
        done = counterguard("evaluate", RECORDING, "cases", "--export", "codspeed", "x.json")
        self.assertEqual(done.returncode, 2)
        self.assertIn("unknown export format 'codspeed'", done.stderr)
        self.assertIn("bencher, github-action-benchmark, github-action-benchmark-bigger", done.stderr)

    def test_csv_has_the_documented_columns_and_every_check(self):
        with open(self.paths["checks.csv"], encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows[0], CSV_COLUMNS)
        records = [dict(zip(CSV_COLUMNS, r)) for r in rows[1:]]
        self.assertTrue(all(len(r) == len(CSV_COLUMNS) for r in rows))
        checks = sum(len(c["checks"]) for c in self.results["cases"])
        self.assertEqual(len([r for r in records if r["origin"] in ("expectation", "baseline")]), checks)
        skipped = [r for r in records if r["status"] == "skipped"]
        self.assertTrue(skipped and all(r["message"] for r in skipped))
        self.assertIn({"instance": "transpose/smem_unpadded?n=2048", "metric": "shared_store_bank_conflicts",
                       "origin": "expectation", "measured": "4063232", "verdict": "pass"},
                      [{k: r[k] for k in ("instance", "metric", "origin", "measured", "verdict")} for r in records])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--counterguard", default=COUNTERGUARD)
    known, rest = parser.parse_known_args()
    COUNTERGUARD = os.path.abspath(known.counterguard)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
