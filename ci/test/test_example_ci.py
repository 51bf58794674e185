#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The example project's own CI files (examples/reduction_stencil/.github/workflows/, .gitlab-ci.yml), executed.

A temporary git repository holds a copy of the example project (origin.git, branch main); each job runs in a
fresh clone of it, where the checkout puts counterguard (this checkout) at third_party/counterguard/ as the
submodule would.
The workflows' and components' inputs are used as written, except:
  - build: the example's runner is not compiled again; the build step puts the one that ctest
    example_project.builds_and_passes_installed built (--runner) at build/reduction_stencil_counterguard,
    behind a wrapper that logs its command line and COUNTERGUARD_GIT_COMMIT;
  - measure (gate): `evaluate recordings/h200`, the example's H200 recording, in place of the GPU;
  - refresh (nightly): ci/test/refresh_standin.py edits the baselines as a refresh's results would.
`gh` and `glab` are the stubs of ci/test/stubs/; pushes go to origin.git.

  python3 ci/test/test_example_ci.py --runner BUILD/example-installed/build/reduction_stencil_counterguard
Exit status 77 (skipped) when that runner does not exist.
"""

import argparse
import os
import shutil
import sys
import tempfile
import unittest

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import template_runner  # noqa: E402  (after the path is set)
import workflow_runner  # noqa: E402
from ci_fixtures import (ci_sandbox, git, junit_failures, read_json, read_json_lines, read_text,  # noqa: E402
                               replace_once, sandbox_test)

EXAMPLE = os.path.join(SOURCE, "examples", "reduction_stencil")
GATE_WORKFLOW = ".github/workflows/counterguard-gate.yml"
NIGHTLY_WORKFLOW = ".github/workflows/counterguard-nightly.yml"
RUNNER = "build/reduction_stencil_counterguard"
SUBMODULE = "third_party/counterguard"  # where the example keeps counterguard (its cases are in counterguard/)
RECORDING = "recordings/h200"
KEY = "GH100-132sm-cuda13"
SUITE = "reduction_stencil"
BASELINE = f"baselines/{KEY}/{SUITE}.yaml"
# A planted regression: the baseline of the interleaved reduction's shared-load bank conflicts is halved, so the
# recording measures twice it.
CONFLICTS = "shared_load_bank_conflicts: {value: 1081344, class: exact, min: 1081344, max: 1081344"
HALVED_CONFLICTS = "shared_load_bank_conflicts: {value: 540672, class: exact, min: 540672, max: 540672"
MOVED_CONFLICTS = CONFLICTS.replace("1081344", "1081345")
BOT_TOKEN = "github_pat_example_bot"
PREBUILT_RUNNER = None  # set from --runner


class example_repository(ci_sandbox):
    """origin.git holding a copy of the example project, and fresh checkouts of it."""

    def __init__(self, root):
        super().__init__(root)
        seed = os.path.join(root, "seed")
        shutil.copytree(EXAMPLE, seed, ignore=shutil.ignore_patterns("build", "counterguard-out"))
        git("init", "--quiet", "--initial-branch=main", seed, cwd=root)
        self.publish(seed)
        # What the build step runs instead of compiling: the prebuilt runner behind a logging wrapper.
        self.build_standin = os.path.join(root, "build_standin.sh")
        with open(self.build_standin, "w", encoding="utf-8") as f:
            f.write("#!/usr/bin/env bash\nset -euo pipefail\nmkdir -p build\n"
                    f"cat >{RUNNER} <<'WRAPPER'\n#!/usr/bin/env bash\n"
                    "python3 -c 'import json, os, sys; print(json.dumps({\"commit\": "
                    "os.environ.get(\"COUNTERGUARD_GIT_COMMIT\"), \"argv\": sys.argv[1:]}))' \"$@\" "
                    f">>'{self.state}/runner.log'\n"
                    f"exec '{PREBUILT_RUNNER}' \"$@\"\nWRAPPER\nchmod +x {RUNNER}\n")

    def checkout(self):
        self.checkouts += 1
        workspace = os.path.join(self.root, f"workspace-{self.checkouts}")
        git("clone", "--quiet", "--branch", "main", self.origin, workspace, cwd=self.root)
        return workspace



def edit(workspace, old, new):
    replace_once(os.path.join(workspace, BASELINE), old, new)


def refresh_standin(*arguments):
    return " ".join([sys.executable, os.path.join(HERE, "refresh_standin.py"), "baselines"] +
                    [f"'{a}'" for a in arguments])


class example_test(sandbox_test):
    def setUp(self):
        super().setUp()
        self.repository = example_repository(self.root)

    def assert_project_inputs(self, inputs):
        """The inputs the example's CI files give, before the test replaces the build."""
        self.assertEqual(inputs["runner"], RUNNER)
        self.assertEqual(inputs["cases"], "counterguard")
        self.assertEqual(inputs["baseline-dir"], "baselines")
        # The build as example_project.builds_and_passes_subdirectory does it, from the submodule.
        self.assertIn("-DREDUCTION_STENCIL_COUNTERGUARD_SOURCE=third_party/counterguard", inputs["build"])
        self.assertIn("--target reduction_stencil_counterguard", inputs["build"])


# ---------------------------------------------------------------------------------------------------------------
# GitHub: .github/workflows/counterguard-gate.yml and counterguard-nightly.yml
# ---------------------------------------------------------------------------------------------------------------

class github_workflows_test(example_test):
    HEAD = "1" * 40   # the pull request's head commit
    MERGE = "2" * 40  # the temporary merge commit GitHub checks out for pull_request events

    def github(self, workflow, job_id, event_name, sha):
        event = {"repository": {"default_branch": "main"}}
        if event_name == "pull_request":
            event["pull_request"] = {"number": 7, "head": {"sha": self.HEAD}}
        return {"repository": "acme/reduction_stencil", "sha": sha, "server_url": "https://github.com",
                "run_id": 4242, "event_name": event_name,
                "ref": "refs/pull/7/merge" if event_name == "pull_request" else "refs/heads/main", "ref_name": "main",
                "workflow": workflow_runner.load_workflow(os.path.join(EXAMPLE, workflow))["name"], "job": job_id,
                "token": "ghs_job_token", "event": event}

    def run_workflow(self, workflow, job_id, event_name, sha, overrides, workspace=None):
        workspace = workspace or self.repository.checkout()
        job = template_runner.github_job(workspace, self.github(workflow, job_id, event_name, sha),
                                         self.repository.environment(), tempfile.mkdtemp(dir=self.root))
        steps = workflow_runner.run_workflow_job(
            job, os.path.join(workspace, workflow), job_id, secrets={"COUNTERGUARD_BOT_TOKEN": BOT_TOKEN},
            overrides=overrides, submodules={SUBMODULE: SOURCE})
        self.assert_shellcheck_clean(job.scripts, workflow)
        return job, steps, workspace

    def run_gate(self, workspace=None):
        job, steps, workspace = self.run_workflow(
            GATE_WORKFLOW, "gate", "pull_request", self.MERGE,
            {"gate": {"build": f"bash {self.repository.build_standin}", "measure": f"evaluate {RECORDING}"}},
            workspace)
        checkout, gate = steps
        self.assertEqual(checkout.inputs, {"submodules": "true"})
        return job, gate, workspace

    def test_workflows_trigger_on_pull_requests_and_nightly_and_share_the_gpu(self):
        gate = workflow_runner.load_workflow(os.path.join(EXAMPLE, GATE_WORKFLOW))
        nightly = workflow_runner.load_workflow(os.path.join(EXAMPLE, NIGHTLY_WORKFLOW))
        self.assertIn("pull_request", gate["on"])
        self.assertIn("schedule", nightly["on"])
        for workflow, job_id in ((gate, "gate"), (nightly, "refresh")):
            job = workflow["jobs"][job_id]
            self.assertIn("self-hosted", job["runs-on"])
            self.assertIn("gpu", job["runs-on"])
            self.assertEqual(job["concurrency"], {"group": "counterguard-gpu", "queue": "max"})
        self.assertEqual(gate["permissions"], {"contents": "read", "pull-requests": "write", "checks": "write"})

    def test_gate_passes_on_the_recording_then_fails_on_a_planted_regression(self):
        self.repository.seed_stub_state("github", {
            "pulls": [{"number": 7, "head": "feature", "base": "main", "title": "t", "body": "", "state": "OPEN",
                       "edits": 0}], "comments": [], "next": 8})
        job, gate, workspace = self.run_gate()
        self.assert_project_inputs(workflow_runner.load_workflow(
            os.path.join(EXAMPLE, GATE_WORKFLOW))["jobs"]["gate"]["steps"][1]["with"])
        records = {r.name: r for r in gate.records}
        self.assertEqual(gate.outputs["status"], "0", records["Measure and check"].detail["output"])
        self.assertEqual([r.status for r in gate.records if r.status != "skipped"], ["success"] * 7, gate.records)
        self.assertIn("## counterguard: passed", read_text(job.summary))
        (call,) = self.repository.runner_calls()
        self.assertEqual(call["commit"], self.HEAD)
        self.assertEqual(call["argv"][:4], ["evaluate", RECORDING, "--cases", "counterguard"])
        self.assertEqual(call["argv"][call["argv"].index("--baseline-dir") + 1], "baselines")
        results = read_json(os.path.join(workspace, "counterguard-out", "results.json"))
        self.assertEqual(len(results["cases"]), 6)
        self.assertEqual(junit_failures(job.check_runs[0]["xml"]), 0)
        comments = self.repository.stub_state("github")["comments"]
        self.assertEqual(len(comments), 1)
        self.assertTrue(comments[0]["body"].startswith("<!-- counterguard-gate: counterguard gate/gate -->"))

        workspace = self.repository.checkout()
        edit(workspace, CONFLICTS, HALVED_CONFLICTS)
        job, gate, workspace = self.run_gate(workspace)
        records = {r.name: r for r in gate.records}
        self.assertEqual(gate.outputs["status"], "1")
        self.assertEqual(gate.status, "failure")
        self.assertEqual(records["Verdict"].detail["status"], 1)
        for name in ("Measure and check", "Job summary", "Comment on the pull request", "Upload the reports",
                     "JUnit check run"):
            self.assertEqual(records[name].status, "success", name)
        summary = read_text(job.summary)
        self.assertIn("## counterguard: FAILED", summary)
        self.assertIn("shared_load_bank_conflicts", summary)
        self.assertGreater(junit_failures(job.check_runs[0]["xml"]), 0)
        self.assertIn("shared_load_bank_conflicts", job.check_runs[0]["xml"])
        results = read_json(os.path.join(workspace, "counterguard-out", "results.json"))
        verdicts = {(case["instance"], c["verdict"]) for case in results["cases"] for c in case["checks"]
                    if c["metric"] == "shared_load_bank_conflicts" and c["verdict"] != "pass"}
        self.assertIn(("reduction_stencil/interleaved", "regression"), verdicts)
        comments = self.repository.stub_state("github")["comments"]
        self.assertEqual(len(comments), 1, "the gate's comment is edited, not added")
        self.assertIn("## counterguard: FAILED", comments[0]["body"])

    def night(self, *standin_arguments):
        workspace = self.repository.checkout()
        sha = git("rev-parse", "HEAD", cwd=workspace)
        job, steps, workspace = self.run_workflow(
            NIGHTLY_WORKFLOW, "refresh", "schedule", sha,
            {"nightly": {"build": f"bash {self.repository.build_standin}",
                         "refresh": refresh_standin(*standin_arguments)}}, workspace)
        nightly = steps[1]
        for record in nightly.records:
            self.assertNotEqual(record.status, "failure", record.detail)
        return job, nightly

    def test_nightly_proposes_only_changed_values_with_the_bot_token(self):
        self.assert_project_inputs(workflow_runner.load_workflow(
            os.path.join(EXAMPLE, NIGHTLY_WORKFLOW))["jobs"]["refresh"]["steps"][1]["with"])
        branch = "counterguard/baseline-refresh"
        job, nightly = self.night("--redate", "2026-12-01T03:17:00Z")
        self.assertEqual(nightly.outputs["proposal"], "none")
        self.assertIsNone(self.repository.branch_sha(branch))

        job, nightly = self.night("--redate", "2026-12-02T03:17:00Z", "--set", SUITE, CONFLICTS, MOVED_CONFLICTS)
        self.assertEqual(nightly.outputs["proposal"], "opened")
        (pull,) = self.repository.stub_state("github")["pulls"]
        self.assertEqual((pull["head"], pull["base"], pull["state"]), (branch, "main", "OPEN"))
        self.assertIn("`shared_load_bank_conflicts` | 1081344 | 1081345", pull["body"])
        changed = git("diff", "--name-only", "main", self.repository.branch_sha(branch), cwd=self.repository.origin)
        self.assertEqual(changed, BASELINE)
        tokens = {c["GH_TOKEN"] for c in read_json_lines(os.path.join(self.repository.state, "gh.log"))}
        self.assertEqual(tokens, {BOT_TOKEN}, "the nightly uses the secret COUNTERGUARD_BOT_TOKEN")
        self.assertEqual(self.repository.runner_calls()[0]["argv"][:2], ["baseline", "diff"])


# ---------------------------------------------------------------------------------------------------------------
# GitLab: .gitlab-ci.yml
# ---------------------------------------------------------------------------------------------------------------

class gitlab_pipeline_test(example_test):
    HEAD = "4" * 40
    MERGED = "5" * 40

    def setUp(self):
        super().setUp()
        with open(os.path.join(EXAMPLE, ".gitlab-ci.yml"), encoding="utf-8") as f:
            self.pipeline_file = yaml.safe_load(f)

    def include(self, template):
        """The include of counterguard's component templates/<template>: its file and the example's inputs."""
        entries = [i for i in self.pipeline_file["include"]
                   if template_runner.included_template(i, SOURCE) == os.path.join(SOURCE, "templates", template)]
        self.assertEqual(len(entries), 1, self.pipeline_file["include"])
        self.assertRegex(entries[0]["component"], r"^\$CI_SERVER_FQDN/[^/]+/counterguard/[a-z-]+@v[0-9.]+$")
        return entries[0]["inputs"]

    def run_job(self, template, job_name, overrides, variables, workspace=None):
        inputs = self.include(template)
        self.assert_project_inputs(inputs)
        jobs = template_runner.load_gitlab_include(os.path.join(SOURCE, "templates", template),
                                                   dict(inputs, **overrides))
        self.assertIn(jobs[job_name]["stage"], self.pipeline_file["stages"])
        workspace = workspace or self.repository.checkout()
        # The runner clones the submodule (GIT_SUBMODULE_STRATEGY: recursive) before the job.
        self.assertEqual(self.pipeline_file["variables"]["GIT_SUBMODULE_STRATEGY"], "recursive")
        os.makedirs(os.path.join(workspace, os.path.dirname(SUBMODULE)))
        os.symlink(SOURCE, os.path.join(workspace, SUBMODULE))
        variables = dict(self.pipeline_file["variables"], CI_JOB_NAME=job_name, **variables)
        result = template_runner.run_gitlab_job(jobs, job_name, workspace, variables, self.repository.environment())
        self.assertTrue(result.ran)
        self.assert_shellcheck_clean([result.script], job_name)
        return result, workspace

    def pipeline(self, source, **more):
        return dict({"CI_PIPELINE_SOURCE": source, "CI_PROJECT_ID": "99", "CI_SERVER_URL": "https://gitlab.example.com",
                     "CI_JOB_URL": "https://gitlab.example.com/acme/reduction_stencil/-/jobs/5",
                     "CI_DEFAULT_BRANCH": "main", "CI_REPOSITORY_URL": self.repository.origin,
                     "COUNTERGUARD_GITLAB_TOKEN": "glpat-bot"}, **more)

    def test_gate_passes_on_the_recording_then_fails_on_a_planted_regression(self):
        overrides = {"build": f"bash {self.repository.build_standin}", "measure": f"evaluate {RECORDING}"}
        variables = self.pipeline("merge_request_event", CI_COMMIT_SHA=self.MERGED, CI_MERGE_REQUEST_IID="7",
                                  CI_MERGE_REQUEST_SOURCE_BRANCH_SHA=self.HEAD)
        self.repository.seed_stub_state("gitlab", {"mrs": [{"iid": 7, "state": "opened", "source_branch": "feature",
                                                            "target_branch": "main", "title": "t", "description": "",
                                                            "edits": 0}], "notes": [], "next": 8})
        result, workspace = self.run_job("gate.yml", "counterguard-gate", overrides, variables)
        self.assertEqual(result.status, 0, result.output)
        self.assertEqual(self.repository.runner_calls()[0]["commit"], self.HEAD)
        self.assertEqual(junit_failures(read_text(os.path.join(workspace, "counterguard-out", "junit.xml"))), 0)

        workspace = self.repository.checkout()
        edit(workspace, CONFLICTS, HALVED_CONFLICTS)
        result, workspace = self.run_job("gate.yml", "counterguard-gate", overrides, variables, workspace)
        self.assertEqual(result.status, 1, result.output)
        junit = read_text(os.path.join(workspace, "counterguard-out", "junit.xml"))
        self.assertGreater(junit_failures(junit), 0)
        self.assertIn("shared_load_bank_conflicts", junit)
        (note,) = self.repository.stub_state("gitlab")["notes"]
        self.assertIn("## counterguard: FAILED", note["body"])

    def test_nightly_opens_one_merge_request_for_a_changed_value(self):
        overrides = {"build": f"bash {self.repository.build_standin}",
                     "refresh": refresh_standin("--set", SUITE, CONFLICTS, MOVED_CONFLICTS)}
        workspace = self.repository.checkout()
        variables = self.pipeline("schedule", COUNTERGUARD_NIGHTLY="true",
                                  CI_COMMIT_SHA=git("rev-parse", "HEAD", cwd=workspace))
        result, workspace = self.run_job("nightly.yml", "counterguard-nightly", overrides, variables,
                                         workspace)
        self.assertEqual(result.status, 0, result.output)
        self.assertEqual(read_text(os.path.join(workspace, "counterguard-out", "proposal")).strip(), "opened")
        (mr,) = self.repository.stub_state("gitlab")["mrs"]
        self.assertIn("`shared_load_bank_conflicts` | 1081344 | 1081345", mr["description"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--runner", required=True)
    known, rest = parser.parse_known_args()
    PREBUILT_RUNNER = os.path.abspath(known.runner)
    if not os.access(PREBUILT_RUNNER, os.X_OK):
        print(f"test_example_ci: skipped: no example runner at {PREBUILT_RUNNER} "
              "(ctest example_project.builds_and_passes_installed builds it)")
        sys.exit(77)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
