#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The sharded gate on GitHub (the gate action's shard and merge modes, the sharded workflow) and
GitLab (templates/gate-sharded.yml); relies on `counterguard run --shard I/N` and `counterguard merge`.

Run in a temporary user project (ci_fixtures.user_project) on the H200 recording.

  python3 ci/test/test_sharded_gate.py [--counterguard build/counterguard] [unittest options]
"""

import os
import subprocess
import tempfile

import ci_fixtures
import template_runner
import workflow_runner
from ci_fixtures import (SOURCE, RECORDING, GATE_ACTION, SHARDED_WORKFLOW, GITLAB_GATE_SHARDED, CASES, BASELINES,
                         RUNNER, read_json, template_test)
from template_job_fixtures import github_gate_base


class sharded_gate_test(template_test):
    def partial_results(self, workspace, directory, suite_filter):
        """One shard's results: the recording evaluated for some suites (no GPU runs a shard here)."""
        os.makedirs(os.path.join(workspace, directory), exist_ok=True)
        subprocess.run([ci_fixtures.COUNTERGUARD, "evaluate", RECORDING, "--cases", CASES, "--baseline-dir", BASELINES,
                        "--filter", suite_filter, "--json", os.path.join(directory, "results.json"), "--quiet"],
                       cwd=workspace, check=False, capture_output=True)

    def test_github_shard_job_passes_the_shard_and_the_report_job_merges(self):
        workspace = self.project.checkout()
        github = github_gate_base.github(github_gate_base(), "pull_request")
        self.project.seed_stub_state("github", {"pulls": [{"number": 7, "head": "f", "base": "main", "title": "t",
                                                           "body": "", "state": "OPEN", "edits": 0}],
                                                "comments": [], "next": 8})
        job = template_runner.github_job(workspace, github, self.project.environment(), tempfile.mkdtemp(dir=self.root))
        job.run_action(GATE_ACTION, {"runner": RUNNER, "cases": CASES, "baseline-dir": BASELINES, "shard": "2/4",
                                     "comment": "false", "junit-check": "false", "artifact-name": "shard-2",
                                     "output-dir": "counterguard-out/shard-2"})
        self.assertIn("--shard", self.project.runner_calls()[0]["argv"])
        self.assertIn("2/4", self.project.runner_calls()[0]["argv"])
        self.partial_results(workspace, "shards/counterguard-shard-1", "transpose/*")
        self.partial_results(workspace, "shards/counterguard-shard-2", "spills/*")
        job = template_runner.github_job(workspace, github, self.project.environment(), tempfile.mkdtemp(dir=self.root))
        records, outputs = job.run_action(GATE_ACTION, {"runner": RUNNER, "merge": "shards/*/results.json"})
        self.assertEqual(outputs["status"], "0", [r.detail for r in records])
        merged = read_json(os.path.join(workspace, "counterguard-out", "results.json"))
        suites = {c["instance"].split("/")[0] for c in merged["cases"]}
        self.assertEqual(suites, {"transpose", "spills"})
        self.assertEqual(len(self.project.stub_state("github")["comments"]), 1)

    def test_github_report_job_downloads_the_shard_artifacts_and_merges_them(self):
        for version in ("v4", "v3"):
            run_store = tempfile.mkdtemp(dir=self.root)  # the workflow run's artifacts
            base = github_gate_base()
            for i in (1, 2):
                job = template_runner.github_job(self.project.checkout(), base.github("pull_request"),
                                                 self.project.environment(), tempfile.mkdtemp(dir=self.root),
                                                 run_store=run_store)
                records, outputs = job.run_action(GATE_ACTION, {
                    "runner": RUNNER, "cases": CASES, "baseline-dir": BASELINES, "measure": f"evaluate {RECORDING}",
                    "shard": f"{i}/2", "comment": "false", "junit-check": "false",
                    "output-dir": f"counterguard-out/shard-{i}", "artifact-name": f"counterguard-shard-{i}",
                    "artifact-actions": version})
                self.assertEqual(outputs["status"], "0", [r.detail for r in records])
            job = template_runner.github_job(self.project.checkout(), base.github("pull_request"),
                                             self.project.environment(), tempfile.mkdtemp(dir=self.root),
                                             run_store=run_store)
            records, outputs = job.run_action(GATE_ACTION, {"runner": RUNNER, "merge-artifacts": "counterguard-shard-*",
                                                            "comment": "false", "artifact-actions": version})
            self.assert_shellcheck_clean(job.scripts, "gate")
            steps = {r.name: r for r in records}
            download = steps["Download the shards' results" + (" (v3)" if version == "v3" else "")]
            self.assertEqual(download.detail["uses"], f"actions/download-artifact@{version}")
            self.assertEqual(download.detail["artifacts"], ["counterguard-shard-1", "counterguard-shard-2"])
            self.assertEqual(outputs["status"], "0", steps["Measure and check"].detail["output"])
            self.assertIn(" merge ", steps["Measure and check"].detail["output"])
            merged = read_json(os.path.join(job.workspace, "counterguard-out", "results.json"))
            self.assertEqual(len(merged["cases"]), self.recorded_instances(job.workspace), version)
            self.assertIn("counterguard-results", job.artifacts)

    def recorded_instances(self, workspace):
        """How many case instances the recording holds for the project's suites (the shards together)."""
        out = os.path.join(workspace, "whole.json")
        subprocess.run([ci_fixtures.COUNTERGUARD, "evaluate", RECORDING, "--cases", CASES, "--no-baselines", "--json",
                        out, "--quiet"], cwd=workspace, check=False, capture_output=True)
        return len(read_json(out)["cases"])

    def test_github_sharded_workflow_builds_once_runs_every_shard_and_reports_once(self):
        # The example workflow as written, job after job as `needs:` orders them: one build saved in the Actions
        # cache, four matrix shard jobs that restore it (evaluating the recording in place of the GPU), and the
        # report job that downloads the shards' artifacts, merges them and comments once.
        workflow = workflow_runner.load_workflow(SHARDED_WORKFLOW)
        self.assertEqual(list(workflow["jobs"]), ["build", "shard", "report"])
        self.assertEqual(workflow["jobs"]["shard"]["strategy"]["fail-fast"], False)
        self.project.seed_stub_state("github", {"pulls": [{"number": 7, "head": "feature", "base": "main",
                                                           "title": "t", "body": "", "state": "OPEN", "edits": 0}],
                                                "comments": [], "next": 8})
        base = github_gate_base()
        stores = {"run_store": os.path.join(self.root, "run-artifacts"),
                  "cache_store": os.path.join(self.root, "actions-cache")}
        build = {"build": self.project.build_command()}

        def run_job(job_id, matrix=None, gate=None):
            job = template_runner.github_job(self.project.checkout(built=False), base.github("pull_request"),
                                             dict(self.project.environment(), CG_STUB_GITHUB_HOST="github.com"),
                                             tempfile.mkdtemp(dir=self.root), **stores)
            steps = workflow_runner.run_workflow_job(job, SHARDED_WORKFLOW, job_id, matrix=matrix,
                                                     overrides={"setup": build, "gate": gate or {}},
                                                     submodules={"counterguard": SOURCE})
            self.assert_shellcheck_clean(job.scripts, job_id)
            self.assertEqual([s.status for s in steps], ["success"] * len(steps), steps)
            return job, steps

        self.assertTrue(workflow_runner.job_condition(SHARDED_WORKFLOW, "build", {}))
        _, (checkout, setup) = run_job("build")
        self.assertEqual(setup.outputs, {"runner": RUNNER, "source": "build", "prefix": ""})
        self.assertEqual(len(self.project.builds()), 1)

        self.assertTrue(workflow_runner.job_condition(SHARDED_WORKFLOW, "shard", {"build": "success"}))
        matrix = workflow_runner.matrix_values(SHARDED_WORKFLOW, "shard")
        self.assertEqual(matrix, [{"shard": i} for i in (1, 2, 3, 4)])
        for values in matrix:
            job, (checkout, setup, gate) = run_job("shard", values, {"measure": f"evaluate {RECORDING}"})
            self.assertEqual(setup.outputs["source"], "cache")
            self.assertEqual(gate.inputs["shard"], f"{values['shard']}/4")
            self.assertIn(f"counterguard-shard-{values['shard']}", job.artifacts)
        self.assertEqual(len(self.project.builds()), 1)  # every shard restored the one build
        shard_calls = self.project.runner_calls()
        self.assertEqual(sorted(c["argv"][c["argv"].index("--shard") + 1] for c in shard_calls),
                         ["1/4", "2/4", "3/4", "4/4"])

        # A failed shard (a regression) still gets its report: `!cancelled()`, not success().
        self.assertTrue(workflow_runner.job_condition(SHARDED_WORKFLOW, "report", {"shard": "failure"}))
        self.assertFalse(workflow_runner.job_condition(SHARDED_WORKFLOW, "report", {"shard": "cancelled"}))
        job, (checkout, setup, gate) = run_job("report")
        self.assertEqual(setup.outputs["source"], "cache")
        self.assertEqual(len(self.project.builds()), 1)
        records = {r.name: r for r in gate.records}
        self.assertEqual(records["Download the shards' results"].detail["artifacts"],
                         [f"counterguard-shard-{i}" for i in (1, 2, 3, 4)])
        self.assertEqual(gate.outputs["status"], "0", records["Measure and check"].detail["output"])
        merged = read_json(os.path.join(job.workspace, "counterguard-out", "results.json"))
        self.assertNotIn("shard", merged["metadata"])
        self.assertEqual(len(merged["cases"]), self.recorded_instances(job.workspace))
        self.assertEqual(len(self.project.stub_state("github")["comments"]), 1)
        self.assertEqual(len(job.check_runs), 1)

    def test_gitlab_report_job_merges_the_shards(self):
        jobs = template_runner.load_gitlab_include(GITLAB_GATE_SHARDED, {"shards": 3, "runner": RUNNER, "cases": CASES,
                                                                         "baseline-dir": BASELINES})
        self.assertEqual(jobs["counterguard-gate-shard"]["parallel"], 3)
        workspace = self.project.checkout()
        self.partial_results(workspace, "counterguard-out/shard-1", "transpose/*")
        self.partial_results(workspace, "counterguard-out/shard-2", "spills/*")
        variables = {"CI_PIPELINE_SOURCE": "merge_request_event", "CI_PROJECT_ID": "99", "CI_COMMIT_SHA": "6" * 40,
                     "CI_MERGE_REQUEST_IID": "7", "CI_JOB_NAME": "counterguard-gate",
                     "CI_JOB_URL": "https://gitlab.example.com/acme/kernels/-/jobs/6",
                     "CI_SERVER_URL": "https://gitlab.example.com"}
        result = template_runner.run_gitlab_job(jobs, "counterguard-gate", workspace, variables,
                                                self.project.environment())
        self.assertEqual(result.status, 0, result.output)
        self.assertTrue(os.path.isfile(os.path.join(workspace, "counterguard-out", "junit.xml")))


if __name__ == "__main__":
    ci_fixtures.main()
