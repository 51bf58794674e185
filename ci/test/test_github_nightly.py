#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The GitHub nightly action (ci/github/nightly): the baseline refresh proposed as one pull request,
and unmodified programs (`exec`) refreshed from an exec recording and gated.

Run in a temporary user project (ci_fixtures.user_project) on the H200 recording.

  python3 ci/test/test_github_nightly.py [--counterguard build/counterguard] [unittest options]
"""

import json
import os
import sys
import tempfile

import ci_fixtures
import template_runner
from ci_fixtures import (HERE, SOURCE, EXEC_RECORDING, DEMO_SUITE, NIGHTLY_ACTION, KEY, CASES, BASELINES, RUNNER,
                         STORE_SECTORS, GITHUB_BODY_LIMIT, read_text, read_json_lines, git, with_demo_suite,
                         template_test)
from template_job_fixtures import github_gate_base


class github_nightly_test(template_test):
    BRANCH = "counterguard/baseline-refresh"

    def night(self, *standin_arguments, server="https://github.com", **inputs):
        workspace = self.project.checkout()
        sha = git("rev-parse", "HEAD", cwd=workspace)
        github = {"repository": "acme/kernels", "sha": sha, "server_url": server, "run_id": 99,
                  "event_name": "schedule", "ref": "refs/heads/main", "ref_name": "main",
                  "workflow": "counterguard nightly baselines",
                  "job": "refresh", "token": "ghs_job_token", "event": {"repository": {"default_branch": "main"}}}
        environment = dict(self.project.environment(), CG_STUB_GITHUB_HOST=server.split("://", 1)[1])
        job = template_runner.github_job(workspace, github, environment, tempfile.mkdtemp(dir=self.root))
        refresh = " ".join([sys.executable, os.path.join(HERE, "refresh_standin.py"), BASELINES] +
                           [f"'{a}'" for a in standin_arguments])
        records, outputs = job.run_action(NIGHTLY_ACTION, dict({
            "runner": RUNNER, "cases": CASES, "baseline-dir": BASELINES, "refresh": refresh,
            "token": "github_pat_bot"}, **inputs))
        self.assert_shellcheck_clean(job.scripts, "nightly")
        for record in records:
            self.assertNotEqual(record.status, "failure", record.detail)
        return job, outputs

    def pulls(self):
        state = self.project.stub_state("github")
        return state["pulls"] if state else []

    def creates(self):
        return [c for c in self.project.stub_calls("gh") if c[:2] == ["pr", "create"]]

    def test_nights_open_one_pull_request_only_for_changed_values_and_update_it(self):
        # Night 1: every file re-dated, no value moved: nothing is pushed or proposed.
        job, outputs = self.night("--redate", "2026-12-01T03:17:00Z")
        self.assertEqual(outputs["proposal"], "none")
        self.assertIsNone(self.project.branch_sha(self.BRANCH))
        self.assertEqual(self.creates(), [])

        # Night 2: a value moved: one branch, one pull request, whose body names it and fits GitHub's limit.
        job, outputs = self.night("--redate", "2026-12-02T03:17:00Z", "--set", "transpose", STORE_SECTORS,
                                  STORE_SECTORS.replace("1048576", "1048577"))
        self.assertEqual(outputs["proposal"], "opened")
        self.assertEqual(outputs["pull-request"], "1")
        first_push = self.project.branch_sha(self.BRANCH)
        self.assertIsNotNone(first_push)
        changed = git("diff", "--name-only", "main", first_push, cwd=self.project.origin).split("\n")
        yaml_baselines = [f for f in os.listdir(os.path.join(SOURCE, "baselines", KEY)) if f.endswith(".yaml")]
        self.assertEqual(len(changed), len(yaml_baselines))  # every YAML baseline redated, no .lines.json
        self.assertTrue(all(p.startswith(BASELINES + "/") for p in changed), changed)
        (pull,) = self.pulls()
        self.assertEqual((pull["head"], pull["base"], pull["state"]), (self.BRANCH, "main", "OPEN"))
        self.assertIn("`global_store_sectors` | 1048576 | 1048577", pull["body"])
        self.assertLessEqual(len(pull["body"]), GITHUB_BODY_LIMIT)
        self.assertIn("## Baseline changes: `transpose` on `GH100-132sm-cuda13`", read_text(job.summary))
        self.assertTrue(all(e == "github_pat_bot" for e in
                            [c["GH_TOKEN"] for c in read_json_lines(os.path.join(self.project.state, "gh.log"))]))

        # Night 3: the same values (a new date): the open pull request already proposes them.
        job, outputs = self.night("--redate", "2026-12-03T03:17:00Z", "--set", "transpose", STORE_SECTORS,
                                  STORE_SECTORS.replace("1048576", "1048577"))
        self.assertEqual(outputs["proposal"], "unchanged")
        self.assertEqual(self.project.branch_sha(self.BRANCH), first_push)
        self.assertEqual(self.pulls()[0]["edits"], 0)

        # Night 4: another value, and a new GPU key: the same pull request is updated; its body is shortened to
        # fit and the complete summary is in the artifact.
        job, outputs = self.night("--set", "transpose", STORE_SECTORS, STORE_SECTORS.replace("1048576", "1048578"),
                                  "--new-key", "GA100-108sm-cuda13")
        self.assertEqual(outputs["proposal"], "updated")
        self.assertNotEqual(self.project.branch_sha(self.BRANCH), first_push)
        (pull,) = self.pulls()
        self.assertEqual(pull["edits"], 1)
        self.assertEqual(len(self.creates()), 1)
        self.assertIn("on `GA100-108sm-cuda13`", pull["body"])
        self.assertIn("1048578", pull["body"])
        self.assertLessEqual(len(pull["body"]), GITHUB_BODY_LIMIT)
        self.assertIn("baseline-changes.full.md", job.artifacts["counterguard-baselines"])
        tree = git("ls-tree", "-r", "--name-only", self.BRANCH, cwd=self.project.origin)
        self.assertIn(f"{BASELINES}/GA100-108sm-cuda13/transpose.yaml", tree.split("\n"))

        # Night 5: back to the base branch's values: the pull request is closed.
        job, outputs = self.night("--redate", "2026-12-05T03:17:00Z")
        self.assertEqual(outputs["proposal"], "none")
        self.assertEqual(self.pulls()[0]["state"], "CLOSED")

        # Night 6: a change again: a new pull request on the same branch.
        job, outputs = self.night("--set", "transpose", STORE_SECTORS, STORE_SECTORS.replace("1048576", "1048579"))
        self.assertEqual(outputs["proposal"], "opened")
        self.assertEqual([p["state"] for p in self.pulls()], ["CLOSED", "OPEN"])

    def test_on_an_enterprise_server_the_pull_request_is_opened_there_and_the_summary_uploaded_with_v3(self):
        job, outputs = self.night("--set", "transpose", STORE_SECTORS, STORE_SECTORS.replace("1048576", "1048577"),
                                  server="https://ghe.example.com", **{"artifact-actions": "v3"})
        self.assertEqual(outputs["proposal"], "opened")
        calls = read_json_lines(os.path.join(self.project.state, "gh.log"))
        self.assertEqual({(c["host"], c["token"]) for c in calls}, {("ghe.example.com", "github_pat_bot")})
        self.assertEqual([p["state"] for p in self.pulls()], ["OPEN"])
        steps = {r.name: r for r in job.log}
        self.assertEqual(steps["Upload the summaries (v3)"].detail["uses"], "actions/upload-artifact@v3")
        self.assertEqual(steps["Upload the summaries"].status, "skipped")
        self.assertIn("baseline-changes.md", job.artifacts["counterguard-baselines"])

    def test_the_default_refresh_is_baseline_update(self):
        workspace = self.project.checkout()
        github = {"repository": "acme/kernels", "sha": "3" * 40, "server_url": "https://github.com", "run_id": 1,
                  "event_name": "schedule", "ref": "refs/heads/main", "ref_name": "main", "workflow": "w", "job": "j",
                  "token": "t", "event": {}}
        job = template_runner.github_job(workspace, github, self.project.environment(), tempfile.mkdtemp(dir=self.root))
        records, _ = job.run_action(NIGHTLY_ACTION, {"runner": RUNNER, "cases": CASES, "baseline-dir": BASELINES,
                                                     "token": "t", "repeat": "3"})
        refresh = [r for r in records if r.name == "Refresh the baselines"][0]
        # No GPU here: baseline update stops with exit status 3, and nothing is proposed.
        self.assertEqual(refresh.status, "failure")
        self.assertEqual(refresh.detail["status"], 3)
        (call,) = self.project.runner_calls()
        self.assertEqual(call["argv"][:2], ["baseline", "update"])
        self.assertEqual(call["commit"], "3" * 40)
        for flag, value in (("--repeat", "3"), ("--baseline-dir", BASELINES)):
            self.assertEqual(call["argv"][call["argv"].index(flag) + 1], value)
        self.assertEqual([r.status for r in records if r.name == "Propose the changed values"], ["skipped"])
        self.assertEqual([r.status for r in records if r.name == "Upload the summaries"], ["success"])


class github_program_test(github_gate_base):
    """Unmodified programs (`exec`): the nightly refresh from a committed exec recording and the gate of it, on
    recorded data (harness/test/fixtures/h200_exec_demo), and the gate's `exec` mode."""

    def test_a_night_from_an_exec_recording_proposes_its_baselines_which_the_gate_then_passes(self):
        workspace = with_demo_suite(self.project.checkout())
        sha = git("rev-parse", "HEAD", cwd=workspace)
        github = {"repository": "acme/kernels", "sha": sha, "server_url": self.SERVER, "run_id": 99,
                  "event_name": "schedule", "ref": "refs/heads/main", "ref_name": "main", "workflow": "nightly",
                  "job": "refresh", "token": "ghs_job_token", "event": {"repository": {"default_branch": "main"}}}
        environment = dict(self.project.environment(), CG_STUB_GITHUB_HOST="github.com")
        job = template_runner.github_job(workspace, github, environment, tempfile.mkdtemp(dir=self.root))
        _, outputs = job.run_action(NIGHTLY_ACTION, {"runner": RUNNER, "cases": DEMO_SUITE,
                                                     "baseline-dir": BASELINES, "token": "github_pat_bot",
                                                     "from-recording": EXEC_RECORDING})
        self.assert_shellcheck_clean(job.scripts, "nightly")
        self.assertEqual(outputs["proposal"], "opened")
        (call,) = self.project.runner_calls()[:1]
        self.assertEqual(call["argv"][:3], ["baseline", "update", DEMO_SUITE])
        self.assertEqual(call["argv"][call["argv"].index("--from-recording") + 1], EXEC_RECORDING)
        self.assertNotIn("--repeat", call["argv"])
        branch = "counterguard/baseline-refresh"
        tree = git("ls-tree", "-r", "--name-only", branch, cwd=self.project.origin).split("\n")
        self.assertIn(f"{BASELINES}/{KEY}/exec_demo.yaml", tree)

        # The gate of the refreshed branch, on the same recording: it passes, every value judged by a baseline.
        self.seed_pull_request()
        gated = with_demo_suite(self.project.checkout(branch))
        _, steps, gate_outputs = self.run_gate(gated, cases=DEMO_SUITE, measure=f"evaluate {EXEC_RECORDING}")
        self.assertEqual(gate_outputs["status"], "0")
        results = json.loads(read_text(os.path.join(gated, gate_outputs["results"])))
        verdicts = {c["verdict"] for case in results["cases"] for c in case["checks"]}
        self.assertNotIn("new_metric", verdicts)
        self.assertIn("## counterguard: passed", self.our_comments()[0]["body"])

    def test_the_gate_runs_a_program_under_exec_with_its_arguments_after_the_separator(self):
        workspace = with_demo_suite(self.project.checkout())
        _, steps, outputs = self.run_gate(workspace, cases=DEMO_SUITE, measure="exec",
                                          program="./build/app --size 64", arguments="--strict")
        (call,) = self.project.runner_calls()
        argv = call["argv"]
        self.assertEqual(argv[:2], ["exec", DEMO_SUITE])
        self.assertEqual(argv[argv.index("--") + 1:], ["./build/app", "--size", "64"])
        self.assertLess(argv.index("--strict"), argv.index("--"), "counterguard's options come before the program")
        self.assertEqual(argv[argv.index("--baseline-dir") + 1], BASELINES)
        # No GPU (nor ./build/app) here: exec stops before running anything, and the verdict says so.
        self.assertIn(outputs["status"], ("2", "3"))
        self.assertEqual(steps["Verdict"].status, "failure")

    def test_exec_without_a_program_is_refused(self):
        _, steps, outputs = self.run_gate(self.project.checkout(), measure="exec")
        self.assertEqual(outputs["status"], "2")
        self.assertEqual(self.project.runner_calls(), [])


if __name__ == "__main__":
    ci_fixtures.main()
