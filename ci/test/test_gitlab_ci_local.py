#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The GitLab gate component (templates/gate.yml) run by gitlab-ci-local, a well-kept tool that executes
.gitlab-ci.yml files locally (npm gitlab-ci-local 4.65.0, tools/install_ci_linters.sh), in a scratch user project
on a CPU: the GPU is replaced by the H200 recordings (`measure: evaluate harness/test/fixtures/h200_builtin`, and
for a program gated with exec `h200_exec_demo` against baselines refreshed from it), the
blame by the profile recorded on the H200 (`--blame-from`, blamed_regression.py).

gitlab-ci-local runs the job as GitLab would: the component's spec:inputs interpolated, its rules, variables and
script, its artifacts collected; with --shell-executor-no-image the job (which names no image) runs in a shell.
The component is included as `local:` (a copy of templates/gate.yml in the project): gitlab-ci-local cannot fetch
`include: component:` from a GitLab server here. What it cannot run stays with the template tests' own runner
(template_runner.py): the GitHub composite actions (no local runner for them without Docker), and the paths that
talk to GitLab's API through glab (the note, the nightly's merge request), which need the stubbed server.

  python3 ci/test/test_gitlab_ci_local.py [--counterguard build/counterguard] [--gitlab-ci-local PATH]

Exit status 77 (skipped) when gitlab-ci-local or rsync is not installed.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import blamed_regression  # noqa: E402  (after the path is set)

COUNTERGUARD = os.path.join(SOURCE, "build", "counterguard")
GITLAB_CI_LOCAL = os.path.join(SOURCE, "build", "ci-linters", "gitlab-ci-local-runner", "node_modules", ".bin",
                               "gitlab-ci-local")
RECORDING = os.path.join(SOURCE, "harness", "test", "fixtures", "h200_builtin")
EXEC_RECORDING = os.path.join(SOURCE, "harness", "test", "fixtures", "h200_exec_demo")
DEMO_SUITE = "tools/exec_demo/demo.yaml"  # the path the exec recording names its suite by
CASES = "tests/counterguard"
BASELINES = "tests/counterguard/baselines"
JOB = "counterguard-gate"


def git(*arguments, cwd):
    return subprocess.run(["git", "-c", "user.name=dev", "-c", "user.email=dev@example.com", *arguments], cwd=cwd,
                          check=True, capture_output=True, text=True).stdout.strip()


class gitlab_ci_local_project(unittest.TestCase):
    """A scratch user project with the gate component, run by gitlab-ci-local."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="counterguard-gitlab-ci-local-")
        self.project = os.path.join(self.root, "project")
        shutil.copytree(os.path.join(SOURCE, "cases"), os.path.join(self.project, CASES))
        shutil.copytree(os.path.join(SOURCE, "baselines", blamed_regression.KEY),
                        os.path.join(self.project, BASELINES, blamed_regression.KEY))
        os.makedirs(os.path.join(self.project, ".counterguard"))
        shutil.copy(os.path.join(SOURCE, "templates", "gate.yml"), os.path.join(self.project, ".counterguard"))
        git("init", "--quiet", "--initial-branch=main", ".", cwd=self.project)

    def tearDown(self):
        if os.environ.get("CG_KEEP_TEMPORARY") != "1":
            shutil.rmtree(self.root, ignore_errors=True)

    def run_gate(self, arguments="", inputs=None):
        """The gate as a merge-request pipeline runs it; (gitlab-ci-local's exit status, its output)."""
        inputs = dict({"runner": COUNTERGUARD, "cases": CASES, "baseline-dir": BASELINES,
                       "measure": f"evaluate {RECORDING}", "html": "false", "arguments": arguments}, **(inputs or {}))
        with open(os.path.join(self.project, ".gitlab-ci.yml"), "w", encoding="utf-8") as f:
            yaml.safe_dump({"include": [{"local": ".counterguard/gate.yml", "inputs": inputs}]}, f)
        git("add", "-A", cwd=self.project)  # gitlab-ci-local copies the tracked files
        git("commit", "--quiet", "-m", "project", cwd=self.project)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CI_", "GITLAB_", "COUNTERGUARD_"))}
        env["HOME"] = os.path.join(self.root, "home")
        os.makedirs(env["HOME"], exist_ok=True)
        done = subprocess.run([GITLAB_CI_LOCAL, "--shell-executor-no-image",
                               "--variable", "CI_PIPELINE_SOURCE=merge_request_event",
                               "--ignore-predefined-vars", "CI_PIPELINE_SOURCE", JOB],
                              cwd=self.project, env=env, capture_output=True, text=True, check=False, timeout=600)
        return done.returncode, done.stdout + done.stderr

    def artifact(self, name):
        return os.path.join(self.project, ".gitlab-ci-local", "artifacts", JOB, "counterguard-out", name)

    def code_quality(self):
        with open(self.artifact("codequality.json"), encoding="utf-8") as f:
            return json.load(f)


class gitlab_ci_local_gate_test(gitlab_ci_local_project):
    def test_the_job_declares_the_code_quality_report_as_gitlab_reads_it(self):
        status, output = self.run_gate()
        self.assertEqual(status, 0, output)
        with open(os.path.join(self.project, ".gitlab-ci-local", "expanded-gitlab-ci.yml"), encoding="utf-8") as f:
            job = yaml.safe_load(f)[JOB]
        self.assertEqual(job["artifacts"]["reports"]["codequality"], "counterguard-out/codequality.json")
        self.assertEqual(job["artifacts"]["reports"]["junit"], "counterguard-out/junit.xml")

    def test_a_passing_run_passes_with_an_empty_code_quality_report(self):
        status, output = self.run_gate()
        self.assertEqual(status, 0, output)
        self.assertIn("counterguard: every case passed", output)
        self.assertEqual(self.code_quality(), [])

    def test_a_blamed_regression_fails_the_job_with_findings_on_the_kernel_line_and_the_suite_line(self):
        profiles = blamed_regression.plant(self.project, BASELINES, self.root)
        status, output = self.run_gate(blamed_regression.gate_arguments(profiles))
        self.assertNotEqual(status, 0, output)
        self.assertIn("a check failed (exit status 1)", output)
        with open(self.artifact("status"), encoding="utf-8") as f:
            self.assertEqual(f.read().strip(), "1")
        findings = self.code_quality()
        self.assertEqual([(f["location"]["path"], f["location"]["lines"]["begin"]) for f in findings],
                         [(blamed_regression.KERNEL_SOURCE, blamed_regression.BLAMED_LINE),
                          (f"{CASES}/transpose.yaml", blamed_regression.SUITE_LINE)])
        for finding in findings:
            self.assertEqual(finding["check_name"], "counterguard/regression")
            self.assertEqual(finding["severity"], "major")
            self.assertIn(f"shared_store_bank_conflicts regressed in {blamed_regression.INSTANCE}",
                          finding["description"])
        self.assertIn("source line: transpose.cu:34", findings[0]["description"])
        self.assertEqual(len({f["fingerprint"] for f in findings}), 2)


class gitlab_ci_local_exec_gate_test(gitlab_ci_local_project):
    """The gate of an unmodified program (exec), on its committed H200 recording: the suite's baselines refreshed
    from the recording (`baseline update SUITE --from-recording DIR`, what the nightly's exec refresh runs), then
    the gate evaluates the same recording against them."""

    def setUp(self):
        super().setUp()
        os.makedirs(os.path.join(self.project, os.path.dirname(DEMO_SUITE)))
        shutil.copy(os.path.join(SOURCE, DEMO_SUITE), os.path.join(self.project, DEMO_SUITE))
        subprocess.run([COUNTERGUARD, "baseline", "update", DEMO_SUITE, "--baseline-dir", BASELINES,
                        "--from-recording", EXEC_RECORDING], cwd=self.project, check=True, capture_output=True)

    def run_exec_gate(self):
        return self.run_gate(inputs={"cases": DEMO_SUITE, "measure": f"evaluate {EXEC_RECORDING}"})

    def test_the_program_gate_passes_every_value_against_the_refreshed_baselines(self):
        status, output = self.run_exec_gate()
        self.assertEqual(status, 0, output)
        self.assertIn("counterguard: every case passed", output)
        with open(self.artifact("results.json"), encoding="utf-8") as f:
            checks = [check for case in json.load(f)["cases"] for check in case["checks"]]
        self.assertIn("baseline", {check["origin"] for check in checks})
        self.assertNotIn("new_metric", {check["verdict"] for check in checks})

    def test_a_regressed_program_value_fails_the_job_after_reporting(self):
        path = os.path.join(self.project, BASELINES, blamed_regression.KEY, "exec_demo.yaml")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        planted, count = EXACT_VALUE.subn(halved, text, count=1)
        self.assertEqual(count, 1, f"no exact value in {path}")
        with open(path, "w", encoding="utf-8") as f:
            f.write(planted)
        status, output = self.run_exec_gate()
        self.assertNotEqual(status, 0, output)
        self.assertIn("a check failed (exit status 1)", output)
        with open(self.artifact("junit.xml"), encoding="utf-8") as f:
            self.assertIn("<failure", f.read())


# An exact baseline value (positive), halved by halved(): the recording then measures twice it.
EXACT_VALUE = re.compile(r"(\w+: \{value: )([1-9]\d*)(, class: exact, min: )\2(, max: )\2")


def halved(match):
    value = int(match[2]) // 2
    return f"{match[1]}{value}{match[3]}{value}{match[4]}{value}"


def main():
    global COUNTERGUARD, GITLAB_CI_LOCAL
    parser = argparse.ArgumentParser()
    parser.add_argument("--counterguard", default=COUNTERGUARD)
    parser.add_argument("--gitlab-ci-local", default=GITLAB_CI_LOCAL)
    known, rest = parser.parse_known_args()
    COUNTERGUARD = os.path.abspath(known.counterguard)
    GITLAB_CI_LOCAL = os.path.abspath(known.gitlab_ci_local)
    for tool, hint in ((GITLAB_CI_LOCAL, "tools/install_ci_linters.sh"), ("rsync", "apt-get install rsync"),
                       ("node", "apt-get install nodejs")):
        if shutil.which(tool) is None:
            print(f"test_gitlab_ci_local: {tool} is missing ({hint}): skipped")
            return 77
    program = unittest.main(argv=[sys.argv[0], *rest], exit=False)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
