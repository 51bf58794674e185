#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The CI templates in `pytest` mode, on a CPU: a real pytest session with counterguard's plugin judges the H200
recording of ci/test/pytest_project (harness/test/fixtures/h200_pytest_session, validation/record_pytest_session.sh)
with --counterguard-from-recording. The nightly refresh (GitHub action, GitLab component) proposes its baselines;
the gate of the proposed branch passes and reports (job summary, pull-request comment or merge-request note, JUnit),
and fails after reporting on a planted regression. The user project keeps the suite under python/.

pytest is this interpreter's (Debian's python3-pytest); the package is the build's (<build>/python). `python3` in
the jobs is a wrapper that logs its arguments, then runs this interpreter.

  python3 ci/test/test_ci_pytest_modes.py [--counterguard build/counterguard] [unittest options]
"""

import os
import re
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ci_fixtures  # noqa: E402  (after the path is set)
import template_job_fixtures  # noqa: E402
import template_runner  # noqa: E402

SOURCE = ci_fixtures.SOURCE
PROJECT_SOURCE = os.path.join(HERE, "pytest_project")
RECORDING = os.path.join(SOURCE, "harness", "test", "fixtures", "h200_pytest_session")
SUITE_DIR = "python"  # where the user project keeps its pytest suite
BASELINES = "python/baselines"
SUITE_FILE = f"{BASELINES}/{ci_fixtures.KEY}/tests.test_copy.yaml"
JUDGE = f"{SUITE_DIR} --counterguard-from-recording={RECORDING}"
# An exact value of the recording, planted at half its size in the baselines: the measurement is twice it.
EXACT_VALUE = re.compile(r"(global_load_requests: \{value: )(\d+)(, class: exact, min: )\2(, max: )\2")


def plant_regression(workspace):
    path = os.path.join(workspace, SUITE_FILE)
    text = ci_fixtures.read_text(path)
    def half(match):
        value = int(match[2]) // 2
        return f"{match[1]}{value}{match[3]}{value}{match[4]}{value}"

    planted, count = EXACT_VALUE.subn(half, text, count=1)
    assert count == 1, f"no exact global_load_requests in {path}"
    with open(path, "w", encoding="utf-8") as f:
        f.write(planted)


class pytest_project(ci_fixtures.user_project):
    """The user project with the pytest suite under python/, and python3 as a logging wrapper."""

    def __init__(self, root):
        super().__init__(root)
        seed = os.path.join(root, "seed")
        shutil.copytree(PROJECT_SOURCE, os.path.join(seed, SUITE_DIR),
                        ignore=shutil.ignore_patterns("__pycache__", "README.md"))
        self.publish_more(seed)
        self.bin = os.path.join(root, "bin")
        os.makedirs(self.bin)
        with open(os.path.join(self.bin, "python3"), "w", encoding="utf-8") as f:
            f.write("#!/usr/bin/env bash\n"
                    f"printf '%s\\n' \"$*\" >>'{self.state}/python3.log'\n"
                    f"exec '{sys.executable}' \"$@\"\n")
        os.chmod(os.path.join(self.bin, "python3"), 0o755)

    def publish_more(self, seed):
        ci_fixtures.git("add", "-A", cwd=seed)
        ci_fixtures.git("-c", "user.name=dev", "-c", "user.email=dev@example.com", "commit", "--quiet", "-m", "pytest",
                      cwd=seed)
        ci_fixtures.git("push", "--quiet", self.origin, "main", cwd=seed)

    def environment(self):
        env = super().environment()
        env["PATH"] = self.bin + os.pathsep + env["PATH"]
        env["PYTHONPATH"] = os.path.join(os.path.dirname(ci_fixtures.COUNTERGUARD), "python")
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        return env

    def pytest_calls(self):
        """The arguments of every `python3 -m pytest` the jobs ran (the runner's wrapper runs python3 too)."""
        path = os.path.join(self.state, "python3.log")
        calls = ci_fixtures.read_text(path).splitlines() if os.path.exists(path) else []
        return [call for call in calls if call.startswith("-m pytest")]


@unittest.skipUnless(os.path.isfile(os.path.join(RECORDING, "session.json")),
                     f"no recorded pytest session at {RECORDING}: record it with validation/record_pytest_session.sh")
class github_pytest_test(template_job_fixtures.github_gate_base):
    def setUp(self):
        ci_fixtures.sandbox_test.setUp(self)
        self.project = pytest_project(self.root)

    def night(self):
        workspace = self.project.checkout()
        sha = ci_fixtures.git("rev-parse", "HEAD", cwd=workspace)
        github = {"repository": "acme/kernels", "sha": sha, "server_url": self.SERVER, "run_id": 99,
                  "event_name": "schedule", "ref": "refs/heads/main", "ref_name": "main", "workflow": "nightly",
                  "job": "refresh", "token": "ghs_job_token", "event": {"repository": {"default_branch": "main"}}}
        environment = dict(self.project.environment(), CG_STUB_GITHUB_HOST="github.com")
        job = template_runner.github_job(workspace, github, environment, tempfile.mkdtemp(dir=self.root))
        _, outputs = job.run_action(ci_fixtures.NIGHTLY_ACTION, {
            "runner": ci_fixtures.RUNNER, "baseline-dir": BASELINES, "token": "github_pat_bot", "pytest": SUITE_DIR,
            "from-recording": RECORDING})
        self.assert_shellcheck_clean(job.scripts, "nightly")
        return outputs

    def gate_refreshed_branch(self, plant=False):
        self.seed_pull_request()
        workspace = self.project.checkout("counterguard/baseline-refresh")
        if plant:
            plant_regression(workspace)
        job, steps, outputs = self.run_gate(workspace, measure="pytest", program=JUDGE, **{"baseline-dir": BASELINES})
        return job, steps, outputs, workspace

    def test_a_night_proposes_the_recorded_sessions_baselines_and_the_gate_passes_them_reporting_everywhere(self):
        self.assertEqual(self.night()["proposal"], "opened")
        refresh = self.project.pytest_calls()[0]
        self.assertIn("--counterguard-update-baselines", refresh)
        self.assertIn(f"--counterguard-from-recording={RECORDING}", refresh)
        tree = ci_fixtures.git("ls-tree", "-r", "--name-only", "counterguard/baseline-refresh",
                             cwd=self.project.origin).split("\n")
        self.assertIn(SUITE_FILE, tree)

        job, steps, outputs, workspace = self.gate_refreshed_branch()
        self.assertEqual(outputs["status"], "0")
        self.assertIn("## counterguard: passed", ci_fixtures.read_text(job.summary))
        self.assertIn("## counterguard: passed", self.our_comments()[0]["body"])
        self.assertEqual(ci_fixtures.junit_failures(job.check_runs[0]["xml"]), 0)
        results = ci_fixtures.read_json(os.path.join(workspace, outputs["results"]))
        checks = [check for case in results["cases"] for check in case["checks"]]
        self.assertIn("baseline", {check["origin"] for check in checks})
        self.assertNotIn("new_metric", {check["verdict"] for check in checks})
        gate = self.project.pytest_calls()[-1]
        self.assertNotIn("--counterguard-save-counter-data", gate, "a recording is judged, not recorded again")

    def test_the_gate_fails_on_a_planted_regression_after_reporting(self):
        self.night()
        job, steps, outputs, _ = self.gate_refreshed_branch(plant=True)
        self.assertEqual(outputs["status"], "1")
        self.assertEqual(steps["Verdict"].status, "failure")
        self.assertIn("## counterguard: FAILED", self.our_comments()[0]["body"])
        self.assertIn("global_load_requests", ci_fixtures.read_text(job.summary))
        self.assertGreater(ci_fixtures.junit_failures(job.check_runs[0]["xml"]), 0)


class github_pytest_on_gpu_test(template_job_fixtures.github_gate_base):
    def setUp(self):
        ci_fixtures.sandbox_test.setUp(self)
        self.project = pytest_project(self.root)

    def test_the_gate_on_the_gpu_keeps_each_blocks_counter_data(self):
        _, _, outputs = self.run_gate(self.project.checkout(), measure="pytest", program=SUITE_DIR,
                                      **{"baseline-dir": BASELINES})
        (call,) = self.project.pytest_calls()
        self.assertIn("--counterguard-save-counter-data=counterguard-out/counterdata", call)
        self.assertIn("--junitxml counterguard-out/junit.xml", call)
        # No GPU here: the plugin skips every counter test saying why, and the gate passes.
        self.assertEqual(outputs["status"], "0")


@unittest.skipUnless(os.path.isfile(os.path.join(RECORDING, "session.json")),
                     f"no recorded pytest session at {RECORDING}: record it with validation/record_pytest_session.sh")
class gitlab_pytest_test(ci_fixtures.template_test):
    pipeline = template_job_fixtures.gitlab_pipeline_base.pipeline
    run_job = template_job_fixtures.gitlab_pipeline_base.run_job
    mr_pipeline = template_job_fixtures.gitlab_pipeline_base.mr_pipeline
    HEAD = template_job_fixtures.gitlab_pipeline_base.HEAD
    MERGED = template_job_fixtures.gitlab_pipeline_base.MERGED

    def setUp(self):
        ci_fixtures.sandbox_test.setUp(self)
        self.project = pytest_project(self.root)

    def test_a_night_opens_a_merge_request_whose_baselines_the_gate_passes_with_a_note_and_junit(self):
        workspace = self.project.checkout()
        sha = ci_fixtures.git("rev-parse", "HEAD", cwd=workspace)
        variables = self.pipeline("schedule", COUNTERGUARD_NIGHTLY="true", CI_COMMIT_SHA=sha)
        _, result, workspace = self.run_job(ci_fixtures.GITLAB_NIGHTLY, "counterguard-nightly",
                                            {"runner": ci_fixtures.RUNNER, "baseline-dir": BASELINES,
                                             "pytest": SUITE_DIR, "from-recording": RECORDING}, variables, workspace)
        self.assertEqual(result.status, 0, result.output)
        proposal = ci_fixtures.read_text(os.path.join(workspace, "counterguard-out", "proposal"))
        self.assertEqual(proposal.strip(), "opened")
        tree = ci_fixtures.git("ls-tree", "-r", "--name-only", "counterguard/baseline-refresh", cwd=self.project.origin)
        self.assertIn(SUITE_FILE, tree.split("\n"))

        self.project.seed_stub_state("gitlab", {"mrs": [{"iid": 7, "state": "opened", "source_branch": "feature",
                                                         "target_branch": "main", "title": "t", "description": "",
                                                         "edits": 0}], "notes": [], "next": 8})
        gated = self.project.checkout("counterguard/baseline-refresh")
        inputs = {"runner": ci_fixtures.RUNNER, "baseline-dir": BASELINES, "measure": "pytest", "program": JUDGE}
        _, result, gated = self.run_job(ci_fixtures.GITLAB_GATE, "counterguard-gate", inputs, self.mr_pipeline(), gated)
        self.assertEqual(result.status, 0, result.output)
        out = os.path.join(gated, "counterguard-out")
        self.assertEqual(ci_fixtures.junit_failures(ci_fixtures.read_text(os.path.join(out, "junit.xml"))), 0)
        self.assertTrue(os.path.isfile(os.path.join(out, "report.html")))
        (note,) = self.project.stub_state("gitlab")["notes"]
        self.assertIn("## counterguard: passed", note["body"])


if __name__ == "__main__":
    ci_fixtures.main()
