#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The GitLab CI/CD components (templates/): the gate and the nightly includes.

Run in a temporary user project (ci_fixtures.user_project) on the H200 recording.

  python3 ci/test/test_gitlab_templates.py [--counterguard build/counterguard] [unittest options]
"""

import os
import sys

import yaml

import blamed_regression
import ci_fixtures
import template_runner
from ci_fixtures import (HERE, SOURCE, RECORDING, EXEC_RECORDING, DEMO_SUITE, GITLAB_GATE, GITLAB_GATE_SHARDED,
                         GITLAB_NIGHTLY, KEY, CASES, BASELINES, RUNNER, STORE_SECTORS, HALVED_STORE_SECTORS,
                         GITHUB_BODY_LIMIT, read_text, read_json, read_json_lines, git, without_stubs,
                         with_demo_suite, edit_baseline, junit_failures)
from template_job_fixtures import gitlab_pipeline_base


class gitlab_test(gitlab_pipeline_base):
    def test_gate_defines_no_stages_and_runs_only_for_merge_requests(self):
        jobs = template_runner.load_gitlab_include(GITLAB_GATE, self.gate_inputs(stage="verify"))
        self.assertNotIn("stages", jobs)
        self.assertEqual(jobs["counterguard-gate"]["stage"], "verify")
        self.assertEqual(jobs["counterguard-gate"]["tags"], ["gpu"])
        self.assertEqual(jobs["counterguard-gate"]["resource_group"], "counterguard-gpu")
        _, result, _ = self.run_job(GITLAB_GATE, "counterguard-gate", self.gate_inputs(), self.pipeline("push"))
        self.assertFalse(result.ran)

    def test_gate_passes_then_fails_on_a_planted_regression_keeping_one_note(self):
        self.project.seed_stub_state("gitlab", {"mrs": [{"iid": 7, "state": "opened", "source_branch": "feature",
                                                         "target_branch": "main", "title": "t", "description": "",
                                                         "edits": 0}],
                                                "notes": [{"id": 1, "mr": 7, "body": "LGTM", "edits": 0}], "next": 8})
        job, result, workspace = self.run_job(GITLAB_GATE, "counterguard-gate", self.gate_inputs(), self.mr_pipeline())
        self.assertEqual(result.status, 0, result.output)
        out = os.path.join(workspace, "counterguard-out")
        self.assertEqual(job["artifacts"]["reports"]["junit"], "counterguard-out/junit.xml")
        self.assertEqual(job["artifacts"]["when"], "always")
        for name in ("results.json", "junit.xml", "report.html", "summary.md"):
            self.assertTrue(os.path.isfile(os.path.join(out, name)), name)
        self.assertEqual(self.project.runner_calls()[0]["commit"], self.HEAD)

        workspace = self.project.checkout()
        edit_baseline(workspace, "transpose", STORE_SECTORS, HALVED_STORE_SECTORS)
        _, result, workspace = self.run_job(GITLAB_GATE, "counterguard-gate", self.gate_inputs(), self.mr_pipeline(),
                                            workspace)
        self.assertEqual(result.status, 1, result.output)
        self.assertGreater(junit_failures(read_text(os.path.join(workspace, "counterguard-out", "junit.xml"))), 0)
        notes = [n for n in self.project.stub_state("gitlab")["notes"]
                 if n["body"].startswith("<!-- counterguard-gate: counterguard-gate -->")]
        self.assertEqual(len(notes), 1, "the gate's note is edited, not added")
        self.assertEqual(notes[0]["edits"], 1)
        self.assertIn("## counterguard: FAILED", notes[0]["body"])

    def test_gate_without_a_token_skips_the_note_and_still_gates(self):
        variables = self.mr_pipeline()
        del variables["COUNTERGUARD_GITLAB_TOKEN"]
        workspace = self.project.checkout()
        edit_baseline(workspace, "transpose", STORE_SECTORS, HALVED_STORE_SECTORS)
        _, result, _ = self.run_job(GITLAB_GATE, "counterguard-gate", self.gate_inputs(), variables, workspace)
        self.assertEqual(result.status, 1, result.output)
        self.assertIn("no merge-request note", result.output)
        self.assertEqual(self.project.stub_calls("glab"), [])

    def test_gate_without_glab_skips_the_note_saying_what_it_needs_and_still_gates(self):
        environment = without_stubs(self.project.environment(), "glab")
        if environment is None:
            self.skipTest("this machine has glab")
        jobs = template_runner.load_gitlab_include(GITLAB_GATE, self.gate_inputs())
        result = template_runner.run_gitlab_job(jobs, "counterguard-gate", self.project.checkout(),
                                                dict(self.mr_pipeline(), CI_JOB_NAME="counterguard-gate"), environment)
        self.assertEqual(result.status, 0, result.output)
        self.assertIn("no merge-request note: the note needs glab (GitLab CLI", result.output)
        self.assertNotIn("scope api", result.output)

    def test_gate_publishes_the_code_quality_report_of_a_blamed_regression(self):
        self.project.seed_stub_state("gitlab", {"mrs": [{"iid": 7, "state": "opened", "source_branch": "feature",
                                                         "target_branch": "main", "title": "t", "description": "",
                                                         "edits": 0}], "notes": [], "next": 8})
        workspace = self.project.checkout()
        profiles = blamed_regression.plant(workspace, BASELINES, self.root)
        job, result, workspace = self.run_job(GITLAB_GATE, "counterguard-gate",
                                              self.gate_inputs(arguments=blamed_regression.gate_arguments(profiles)),
                                              self.mr_pipeline(CI_PROJECT_URL="https://gitlab.example.com/acme/kernels"),
                                              workspace)
        self.assertEqual(result.status, 1, result.output)
        self.assertEqual(job["artifacts"]["reports"]["codequality"], "counterguard-out/codequality.json")
        findings = read_json(os.path.join(workspace, "counterguard-out", "codequality.json"))
        self.assertEqual((findings[0]["location"]["path"], findings[0]["location"]["lines"]["begin"]),
                         (blamed_regression.KERNEL_SOURCE, blamed_regression.BLAMED_LINE))
        notes = [n for n in self.project.stub_state("gitlab")["notes"]
                 if n["body"].startswith("<!-- counterguard-gate: counterguard-gate -->")]
        self.assertIn(f"(https://gitlab.example.com/acme/kernels/-/blob/{self.HEAD}/{blamed_regression.KERNEL_SOURCE}"
                      f"#L{blamed_regression.BLAMED_LINE})", notes[0]["body"])

    def test_every_template_is_a_catalog_component_with_described_inputs(self):
        templates = sorted(os.listdir(os.path.join(SOURCE, "templates")))
        self.assertEqual(templates, ["gate-sharded.yml", "gate.yml", "nightly.yml"])
        for name in templates:
            path = os.path.join(SOURCE, "templates", name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            header, jobs = list(yaml.safe_load_all(text))
            self.assertEqual(list(header), ["spec"], name)
            self.assertEqual(list(header["spec"]), ["inputs"], name)
            for input_name, spec in header["spec"]["inputs"].items():
                self.assertTrue(spec.get("description"), f"{name}: input {input_name} has no description")
            self.assertNotIn("include", jobs)
            # The header comment shows the component's own reference, which resolves to this file.
            component = f"$CI_SERVER_FQDN/my-group/counterguard/{name[:-len('.yml')]}@v1.0"
            self.assertIn(f"- component: {component}", text)
            self.assertEqual(template_runner.included_template({"component": component}, SOURCE), path)
            self.assertEqual(template_runner.included_template(
                {"project": "my-group/counterguard", "ref": "v1.0", "file": f"/templates/{name}"}, SOURCE), path)

    def test_gate_jobs_are_interruptible_and_link_their_reports_the_nightly_is_not(self):
        gate = template_runner.load_gitlab_include(GITLAB_GATE, {})
        sharded = template_runner.load_gitlab_include(GITLAB_GATE_SHARDED, {})
        nightly = template_runner.load_gitlab_include(GITLAB_NIGHTLY, {})
        self.assertIs(gate["counterguard-gate"]["interruptible"], True)
        self.assertIs(sharded[".counterguard-gate-variables"]["interruptible"], True)
        for job in ("counterguard-gate-shard", "counterguard-gate"):
            self.assertEqual(sharded[job]["extends"], ".counterguard-gate-variables")
        self.assertIs(nightly["counterguard-nightly"]["interruptible"], False)
        self.assertEqual(gate["counterguard-gate"]["artifacts"]["expose_as"], "counterguard reports")
        self.assertEqual(sharded["counterguard-gate"]["artifacts"]["expose_as"], "counterguard reports")
        for jobs in (gate, sharded, nightly):
            for job in jobs.values():
                if "artifacts" in job:
                    self.assertEqual(job["artifacts"]["when"], "always")

    def test_gate_runs_a_release_downloaded_once_per_machine(self):
        url, digest = self.project.release_tarball("9.9.9")
        inputs = self.gate_inputs(**{"counterguard-version": "9.9.9", "release-url": url, "release-sha256": digest})
        del inputs["runner"]
        _, result, workspace = self.run_job(GITLAB_GATE, "counterguard-gate", inputs, self.mr_pipeline(),
                                            self.project.checkout(built=False))
        self.assertEqual(result.status, 0, result.output)
        self.assertIn("+ curl file://", result.output)
        release = os.path.join(self.project.environment()["HOME"], ".cache", "counterguard", "9.9.9", os.uname().machine,
                               "bin", "counterguard")
        (call,) = self.project.runner_calls()
        self.assertEqual(call["runner"], release)
        self.assertEqual(call["argv"][:2], ["evaluate", RECORDING])
        os.remove(url[len("file://"):].replace("{version}", "9.9.9"))
        _, result, _ = self.run_job(GITLAB_GATE, "counterguard-gate", inputs, self.mr_pipeline(),
                                    self.project.checkout(built=False))
        self.assertEqual(result.status, 0, result.output)
        self.assertNotIn("+ curl", result.output)

        url, _ = self.project.release_tarball("9.9.8")
        _, result, _ = self.run_job(GITLAB_GATE, "counterguard-gate", dict(inputs, **{
            "counterguard-version": "9.9.8", "release-url": url, "release-sha256": "0" * 64}), self.mr_pipeline())
        self.assertEqual(result.status, 1)
        self.assertIn("is not the release-sha256 given", result.output)
        _, result, _ = self.run_job(GITLAB_GATE, "counterguard-gate", dict(inputs, build="true"), self.mr_pipeline())
        self.assertEqual(result.status, 2)
        self.assertIn("give counterguard-version or build, not both", result.output)

    def test_a_runner_built_from_the_commit_is_not_built_again(self):
        inputs = self.gate_inputs(build=self.project.build_command(), **{"build-cache": ["build/"]})
        jobs = template_runner.load_gitlab_include(GITLAB_GATE, inputs)
        self.assertEqual(jobs["counterguard-gate"]["cache"],
                         [{"key": "counterguard-build-$CI_COMMIT_SHA", "paths": ["build/"], "when": "always"}])
        self.assertEqual(template_runner.load_gitlab_include(GITLAB_GATE, {})["counterguard-gate"]["cache"][0]["paths"],
                         [])
        workspace = self.project.checkout(built=False)
        variables = self.mr_pipeline()
        variables["CI_COMMIT_SHA"] = self.MERGED
        for _ in range(2):  # the second job finds the build (as the cache restores it) and does not build
            _, result, _ = self.run_job(GITLAB_GATE, "counterguard-gate", inputs, variables, workspace)
            self.assertEqual(result.status, 0, result.output)
        self.assertEqual(len(self.project.builds()), 1)
        self.assertIn(f"{RUNNER} was built from {self.MERGED}: not building it again", result.output)
        variables["CI_COMMIT_SHA"] = "6" * 40
        _, result, _ = self.run_job(GITLAB_GATE, "counterguard-gate", inputs, variables, workspace)
        self.assertEqual(result.status, 0, result.output)
        self.assertEqual(len(self.project.builds()), 2)

    def nightly(self, *standin_arguments, variables=None):
        refresh = " ".join([sys.executable, os.path.join(HERE, "refresh_standin.py"), BASELINES] +
                           [f"'{a}'" for a in standin_arguments])
        workspace = self.project.checkout()
        sha = git("rev-parse", "HEAD", cwd=workspace)
        variables = variables or self.pipeline("schedule", COUNTERGUARD_NIGHTLY="true", CI_COMMIT_SHA=sha)
        _, result, workspace = self.run_job(GITLAB_NIGHTLY, "counterguard-nightly",
                                            {"runner": RUNNER, "cases": CASES, "baseline-dir": BASELINES,
                                             "refresh": refresh}, variables, workspace)
        if result.ran:
            self.assertEqual(result.status, 0, result.output)
            return read_text(os.path.join(workspace, "counterguard-out", "proposal")).strip()
        return None

    def mrs(self):
        state = self.project.stub_state("gitlab")
        return state["mrs"] if state else []

    def test_nightly_runs_only_on_its_schedule(self):
        self.assertIsNone(self.nightly(variables=self.pipeline("schedule", CI_COMMIT_SHA="0" * 40)))
        self.assertIsNone(self.nightly(variables=self.pipeline("push", COUNTERGUARD_NIGHTLY="true")))
        jobs = template_runner.load_gitlab_include(GITLAB_NIGHTLY, {})
        self.assertNotIn("stages", jobs)

    def test_a_night_from_an_exec_recording_opens_a_merge_request_with_its_baselines(self):
        workspace = with_demo_suite(self.project.checkout())
        sha = git("rev-parse", "HEAD", cwd=workspace)
        variables = self.pipeline("schedule", COUNTERGUARD_NIGHTLY="true", CI_COMMIT_SHA=sha)
        _, result, workspace = self.run_job(GITLAB_NIGHTLY, "counterguard-nightly",
                                            {"runner": RUNNER, "cases": DEMO_SUITE,
                                             "baseline-dir": BASELINES, "from-recording": EXEC_RECORDING},
                                            variables, workspace)
        self.assertEqual(result.status, 0, result.output)
        self.assertEqual(read_text(os.path.join(workspace, "counterguard-out", "proposal")).strip(), "opened")
        (call,) = self.project.runner_calls()[:1]
        self.assertEqual(call["argv"][call["argv"].index("--from-recording") + 1], EXEC_RECORDING)
        tree = git("ls-tree", "-r", "--name-only", "counterguard/baseline-refresh", cwd=self.project.origin)
        self.assertIn(f"{BASELINES}/{KEY}/exec_demo.yaml", tree.split("\n"))

    def test_nights_open_one_merge_request_only_for_changed_values_and_update_it(self):
        branch = "counterguard/baseline-refresh"
        self.assertEqual(self.nightly("--redate", "2026-12-01T03:17:00Z"), "none")
        self.assertIsNone(self.project.branch_sha(branch))
        self.assertEqual(self.mrs(), [])

        self.assertEqual(self.nightly("--set", "transpose", STORE_SECTORS, STORE_SECTORS.replace("1048576", "1048577")),
                         "opened")
        (mr,) = self.mrs()
        self.assertEqual((mr["source_branch"], mr["target_branch"], mr["state"]), (branch, "main", "opened"))
        self.assertIn("`global_store_sectors` | 1048576 | 1048577", mr["description"])
        first_push = self.project.branch_sha(branch)

        self.assertEqual(self.nightly("--redate", "2026-12-03T03:17:00Z", "--set", "transpose", STORE_SECTORS,
                                      STORE_SECTORS.replace("1048576", "1048577")), "unchanged")
        self.assertEqual(self.project.branch_sha(branch), first_push)

        self.assertEqual(self.nightly("--new-key", "GA100-108sm-cuda13"), "updated")
        (mr,) = self.mrs()
        self.assertEqual(mr["edits"], 1)
        self.assertIn("on `GA100-108sm-cuda13`", mr["description"])
        self.assertLessEqual(len(mr["description"]), GITHUB_BODY_LIMIT)
        tokens = {c["GITLAB_TOKEN"] for c in read_json_lines(os.path.join(self.project.state, "glab.log"))}
        self.assertEqual(tokens, {"glpat-bot"})

        self.assertEqual(self.nightly("--redate", "2026-12-05T03:17:00Z"), "none")
        self.assertEqual(self.mrs()[0]["state"], "closed")

    def test_nightly_without_a_token_fails_saying_what_to_set(self):
        variables = self.pipeline("schedule", COUNTERGUARD_NIGHTLY="true", CI_COMMIT_SHA="0" * 40)
        del variables["COUNTERGUARD_GITLAB_TOKEN"]
        refresh = f"{sys.executable} {os.path.join(HERE, 'refresh_standin.py')} {BASELINES} --redate x"
        _, result, _ = self.run_job(GITLAB_NIGHTLY, "counterguard-nightly",
                                    {"runner": RUNNER, "cases": CASES, "baseline-dir": BASELINES, "refresh": refresh},
                                    variables)
        self.assertEqual(result.status, 3)
        self.assertIn("COUNTERGUARD_GITLAB_TOKEN", result.output)

    def test_nightly_without_glab_fails_saying_what_it_needs(self):
        environment = without_stubs(self.project.environment(), "glab")
        if environment is None:
            self.skipTest("this machine has glab")
        variables = self.pipeline("schedule", COUNTERGUARD_NIGHTLY="true", CI_COMMIT_SHA="0" * 40,
                                  CI_JOB_NAME="counterguard-nightly")
        refresh = f"{sys.executable} {os.path.join(HERE, 'refresh_standin.py')} {BASELINES} --redate x"
        jobs = template_runner.load_gitlab_include(
            GITLAB_NIGHTLY, {"runner": RUNNER, "cases": CASES, "baseline-dir": BASELINES, "refresh": refresh})
        result = template_runner.run_gitlab_job(jobs, "counterguard-nightly", self.project.checkout(), variables,
                                                environment)
        self.assertEqual(result.status, 3, result.output)
        self.assertIn("the merge request needs glab on this runner's PATH", result.output)


if __name__ == "__main__":
    ci_fixtures.main()
