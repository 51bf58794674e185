#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The GitHub gate action (ci/github/gate): its steps, comments, artifacts, annotations, GitHub
Enterprise Server, and (COUNTERGUARD_CI_TEMPLATE_GPU=1 on a GPU host) its default `measure: run`.

Run in a temporary user project (ci_fixtures.user_project) on the H200 recording.

  python3 ci/test/test_github_gate.py [--counterguard build/counterguard] [unittest options]
"""

import os
import subprocess

import yaml

import blamed_regression
import ci_fixtures
from ci_fixtures import (HERE, RECORDING, GATE_ACTION, NIGHTLY_ACTION, CASES, BASELINES, RUNNER, STORE_SECTORS,
                         HALVED_STORE_SECTORS, GITHUB_BODY_LIMIT, read_text, read_json, read_json_lines,
                         without_stubs, edit_baseline, junit_failures)
from template_job_fixtures import github_gate_base


class github_gate_test(github_gate_base):
    def test_a_passing_run_reports_everywhere_and_passes(self):
        self.seed_pull_request()
        job, steps, outputs = self.run_gate(self.project.checkout())
        self.assertEqual(outputs["status"], "0")
        ran = [name for name, s in steps.items() if s.status != "skipped"]
        self.assertEqual(ran, ["Measure and check", "Job summary", "Comment on the pull request",
                               "Upload the reports", "JUnit check run", "Verdict"], steps)
        self.assertTrue(all(steps[name].status == "success" for name in ran), steps)
        self.assertEqual(steps["Upload the reports"].detail["uses"], "actions/upload-artifact@v4")
        calls = [c for c in read_json_lines(os.path.join(self.project.state, "gh.log"))]
        self.assertEqual({(c["host"], c["token"]) for c in calls}, {("github.com", "ghs_job_token")})
        summary = read_text(job.summary)
        self.assertIn("## counterguard: passed", summary)
        self.assertEqual(len(self.our_comments()), 1)
        self.assertIn("## counterguard: passed", self.our_comments()[0]["body"])
        self.assertIn("https://github.com/acme/kernels/actions/runs/4242", self.our_comments()[0]["body"])
        for name in ("results.json", "junit.xml", "report.html", "summary.md"):
            self.assertIn(name, job.artifacts["counterguard-results"])
        self.assertEqual(len(job.check_runs), 1)
        self.assertEqual(job.check_runs[0]["with"]["commit"], self.HEAD)
        self.assertEqual(junit_failures(job.check_runs[0]["xml"]), 0)
        (call,) = self.project.runner_calls()
        self.assertEqual(call["commit"], self.HEAD, "COUNTERGUARD_GIT_COMMIT must be the pull request's head")
        self.assertEqual(call["argv"][:2], ["evaluate", RECORDING])
        self.assertIn("--cases", call["argv"])
        self.assertNotIn("--require-gpu", call["argv"])
        self.assertEqual(call["argv"][call["argv"].index("--baseline-dir") + 1], BASELINES)

    def test_a_planted_regression_fails_after_reporting_and_edits_the_same_comment(self):
        self.seed_pull_request()
        self.run_gate(self.project.checkout())
        workspace = self.project.checkout()
        edit_baseline(workspace, "transpose", STORE_SECTORS, HALVED_STORE_SECTORS)
        job, steps, outputs = self.run_gate(workspace)
        self.assertEqual(outputs["status"], "1")
        self.assertEqual(steps["Verdict"].status, "failure")
        self.assertEqual(steps["Verdict"].detail["status"], 1)
        for name in ("Measure and check", "Job summary", "Comment on the pull request"):
            self.assertEqual(steps[name].status, "success", steps[name].detail)
        self.assertEqual(steps["Upload the reports"].status, "success")
        self.assertEqual(steps["JUnit check run"].status, "success")
        summary = read_text(job.summary)
        self.assertIn("## counterguard: FAILED", summary)
        self.assertIn("global_store_sectors", summary)
        comments = self.our_comments()
        self.assertEqual(len(comments), 1, "the gate's comment is edited, not added")
        self.assertEqual(comments[0].get("edits"), 1)
        self.assertIn("## counterguard: FAILED", comments[0]["body"])
        other = [c for c in self.project.stub_state("github")["comments"] if c["id"] == 2][0]
        self.assertTrue(other["body"].endswith("old"), "another workflow's comment is left alone")
        self.assertLessEqual(len(comments[0]["body"]), GITHUB_BODY_LIMIT)
        self.assertIn("results.json", job.artifacts["counterguard-results"])
        self.assertIn("junit.xml", job.artifacts["counterguard-results"])
        self.assertGreater(junit_failures(job.check_runs[0]["xml"]), 0)
        results = read_json(os.path.join(workspace, "counterguard-out", "results.json"))
        verdicts = [c["verdict"] for case in results["cases"] for c in case["checks"] if c["metric"] == "global_store_sectors"]
        self.assertIn("regression", verdicts)

    def test_a_push_has_no_comment(self):
        job, steps, outputs = self.run_gate(self.project.checkout(), event_name="push")
        self.assertEqual(outputs["status"], "0")
        self.assertEqual(steps["Comment on the pull request"].status, "skipped")
        self.assertEqual(self.project.stub_calls("gh"), [])
        self.assertEqual(self.project.runner_calls()[0]["commit"], self.MERGE)

    def test_invalid_input_fails_with_status_2(self):
        job, steps, outputs = self.run_gate(self.project.checkout(), event_name="push", cases="tests/missing")
        self.assertEqual(outputs["status"], "2")
        self.assertEqual(steps["Verdict"].status, "failure")
        self.assertIn("exit status 2", read_text(job.summary))
        self.assertEqual(steps["JUnit check run"].status, "skipped")

    def test_a_comment_refused_for_permissions_is_a_warning(self):
        self.seed_pull_request()
        job, steps, outputs = self.run_gate(self.project.checkout(), token="")
        self.assertEqual(steps["Comment on the pull request"].status, "success")
        self.assertIn("::warning::", steps["Comment on the pull request"].detail["output"])
        self.assertEqual(steps["Verdict"].status, "success")


    def test_without_gh_the_comment_is_a_warning_naming_what_to_install(self):
        self.seed_pull_request()
        job = self.job(self.project.checkout())
        job.base_env = without_stubs(job.base_env, "gh")
        if job.base_env is None:
            self.skipTest("this machine has gh")
        records, outputs = job.run_action(GATE_ACTION, {"runner": RUNNER, "cases": CASES, "baseline-dir": BASELINES,
                                                        "measure": f"evaluate {RECORDING}"})
        steps = {r.name: r for r in records}
        self.assertEqual(steps["Comment on the pull request"].status, "success")
        self.assertIn("no comment: gh (GitHub CLI) is not on this runner's PATH",
                      steps["Comment on the pull request"].detail["output"])
        self.assertNotIn("permissions", steps["Comment on the pull request"].detail["output"])
        self.assertEqual(outputs["status"], "0")

    def test_reports_are_uploaded_even_when_an_earlier_step_failed(self):
        # A build that fails after writing its log: the measurement and the verdict never run, the upload does.
        workspace = self.project.checkout()
        job, steps, outputs = self.run_gate(
            workspace, build="mkdir -p counterguard-out && echo 'nvcc: error' >counterguard-out/build.log && exit 3")
        self.assertEqual(steps["Build the runner"].status, "failure")
        self.assertEqual(steps["Measure and check"].status, "skipped")
        self.assertEqual(steps["Upload the reports"].status, "success")
        self.assertEqual(job.artifacts["counterguard-results"], ["build.log"])
        self.assertEqual(steps["Verdict"].status, "skipped")

    def test_every_report_upload_runs_always(self):
        for action in (GATE_ACTION, NIGHTLY_ACTION):
            with open(os.path.join(action, "action.yml"), encoding="utf-8") as f:
                steps = yaml.safe_load(f)["runs"]["steps"]
            uploads = [s for s in steps if s.get("uses", "").split("@")[0] in
                       ("actions/upload-artifact", "mikepenz/action-junit-report")]
            self.assertGreaterEqual(len(uploads), 2, action)
            for step in uploads:
                self.assertTrue(str(step.get("if", "")).startswith("always() && "), (action, step["name"]))

    def test_artifact_actions_v3_none_and_an_unknown_version(self):
        job, steps, outputs = self.run_gate(self.project.checkout(), event_name="push", **{"artifact-actions": "v3"})
        self.assertEqual(outputs["status"], "0")
        self.assertEqual(steps["Upload the reports"].status, "skipped")
        self.assertEqual(steps["Upload the reports (v3)"].detail["uses"], "actions/upload-artifact@v3")
        self.assertIn("results.json", job.artifacts["counterguard-results"])

        job, steps, outputs = self.run_gate(self.project.checkout(), event_name="push", **{"artifact-actions": "none"})
        self.assertEqual(outputs["status"], "0")
        self.assertEqual(job.artifacts, {})
        self.assertTrue(os.path.isfile(os.path.join(job.workspace, "counterguard-out", "results.json")))

        job, steps, outputs = self.run_gate(self.project.checkout(), event_name="push", **{"artifact-actions": "v5"})
        self.assertEqual(outputs["status"], "2")
        self.assertIn("input 'artifact-actions' is 'v5'; valid: v4, v3, none", steps["Measure and check"].detail["output"])
        self.assertEqual(steps["Verdict"].status, "failure")


class github_gate_annotation_test(github_gate_base):
    """The gate's annotations (`--annotations github`) on a regression blamed to its source line."""

    def run_blamed_regression(self, **inputs):
        self.seed_pull_request()
        workspace = self.project.checkout()
        profiles = blamed_regression.plant(workspace, BASELINES, self.root)
        job, steps, outputs = self.run_gate(workspace, arguments=blamed_regression.gate_arguments(profiles), **inputs)
        self.assertEqual(outputs["status"], "1", steps["Measure and check"].detail["output"])
        annotations = [line for line in steps["Measure and check"].detail["output"].splitlines()
                       if line.startswith("::error ")]
        return job, annotations

    def test_the_regressed_check_is_an_error_on_the_kernel_source_line_then_on_the_suite_line(self):
        _, annotations = self.run_blamed_regression()
        title = f"title=counterguard%3A shared_store_bank_conflicts regressed in {blamed_regression.INSTANCE}"
        self.assertEqual([a.split("::")[1] for a in annotations], [
            f"error file={blamed_regression.KERNEL_SOURCE},line={blamed_regression.BLAMED_LINE},{title}",
            f"error file={CASES}/transpose.yaml,line={blamed_regression.SUITE_LINE},{title}"])
        self.assertIn("shared_store_bank_conflicts: expected 0 (must stay 0), measured 4063232%0Asource line: "
                      "transpose.cu:34", annotations[0])
        self.assertIn("shared excess wavefronts 4063232", annotations[0])

    def test_the_comment_links_the_blamed_line_at_the_head_commit_and_sarif_is_uploaded(self):
        job, _ = self.run_blamed_regression()
        (comment,) = self.our_comments()
        self.assertIn(f"[transpose.cu:34](https://github.com/acme/kernels/blob/{self.HEAD}/"
                      f"{blamed_regression.KERNEL_SOURCE}#L{blamed_regression.BLAMED_LINE})", comment["body"])
        self.assertIn("findings.sarif", job.artifacts["counterguard-results"])

    def test_annotations_false_writes_none(self):
        _, annotations = self.run_blamed_regression(annotations="false")
        self.assertEqual(annotations, [])
        self.assertNotIn("--annotations", self.project.runner_calls()[-1]["argv"])

    def test_a_passing_run_annotates_nothing(self):
        job, steps, outputs = self.run_gate(self.project.checkout())
        self.assertEqual(outputs["status"], "0")
        self.assertNotIn("::error", steps["Measure and check"].detail["output"])
        self.assertEqual(read_text(os.path.join(job.workspace, "counterguard-out", "annotations.txt")), "")


class github_enterprise_gate_test(github_gate_base):
    """GitHub Enterprise Server: github.server_url is the server; gh must be pointed at it."""
    SERVER = "https://ghe.example.com"

    def test_the_comment_goes_to_the_server_with_the_enterprise_token_and_v3_uploads(self):
        self.seed_pull_request()
        job, steps, outputs = self.run_gate(self.project.checkout(), **{"artifact-actions": "v3"})
        self.assertEqual(outputs["status"], "0")
        self.assertNotIn("::warning::", steps["Comment on the pull request"].detail["output"])
        (comment,) = self.our_comments()
        self.assertIn("https://ghe.example.com/acme/kernels/actions/runs/4242", comment["body"])
        calls = read_json_lines(os.path.join(self.project.state, "gh.log"))
        self.assertEqual({(c["host"], c["token"]) for c in calls}, {("ghe.example.com", "ghs_job_token")})
        self.assertEqual(steps["Upload the reports (v3)"].status, "success")
        self.assertEqual(steps["Upload the reports"].status, "skipped")

    def test_gh_without_the_server_host_fails_there(self):
        # What the derivation of GH_HOST prevents: the stub, like gh, talks to github.com by default.
        done = subprocess.run([os.path.join(HERE, "stubs", "gh"), "pr", "list", "--repo", "acme/kernels"],
                              env=dict(self.project.environment(), GH_TOKEN="t", GITHUB_REPOSITORY="acme/kernels",
                                       CG_STUB_GITHUB_HOST="ghe.example.com"), capture_output=True, text=True)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("error connecting to api.github.com", done.stderr)


# ---------------------------------------------------------------------------------------------------------------
# On a GPU host: the gate's default `measure: run` (COUNTERGUARD_CI_TEMPLATE_GPU=1; skipped elsewhere)
# ---------------------------------------------------------------------------------------------------------------

class gpu_gate_test(github_gate_base):
    def setUp(self):
        if os.environ.get("COUNTERGUARD_CI_TEMPLATE_GPU") != "1":
            self.skipTest("profiles on the GPU: set COUNTERGUARD_CI_TEMPLATE_GPU=1 on a GPU host")
        super().setUp()

    def test_run_on_the_gpu_passes_then_fails_on_a_planted_regression(self):
        self.seed_pull_request()
        gpu = {"measure": "run", "arguments": "--filter transpose/naive*"}
        job, steps, outputs = self.run_gate(self.project.checkout(), **gpu)
        self.assertEqual(outputs["status"], "0", steps["Measure and check"].detail["output"])
        call = self.project.runner_calls()[0]
        self.assertEqual(call["commit"], self.HEAD)
        self.assertIn("--require-gpu", call["argv"])
        self.assertTrue(any(f.startswith("counterdata/") for f in job.artifacts["counterguard-results"]))
        workspace = self.project.checkout()
        edit_baseline(workspace, "transpose", STORE_SECTORS, HALVED_STORE_SECTORS)
        job, steps, outputs = self.run_gate(workspace, **gpu)
        self.assertEqual(outputs["status"], "1")
        self.assertEqual(len(self.our_comments()), 1)


if __name__ == "__main__":
    ci_fixtures.main()
