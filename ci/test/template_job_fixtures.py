# SPDX-License-Identifier: Apache-2.0
"""The base classes of the template tests: a GitHub job that runs the gate action, a GitLab
pipeline that runs an include's job.
"""

import tempfile

import template_runner
from ci_fixtures import RECORDING, GATE_ACTION, CASES, BASELINES, RUNNER, template_test


class github_gate_base(template_test):
    """A GitHub job on a pull request of acme/kernels, and the gate action run in it."""

    HEAD = "1" * 40   # the pull request's head commit
    MERGE = "2" * 40  # the temporary merge commit GitHub checks out for pull_request events

    SERVER = "https://github.com"  # github.server_url; an Enterprise Server's for the GHES tests

    def github(self, event_name="pull_request", server=None):
        event = {"repository": {"default_branch": "main"}}
        if event_name == "pull_request":
            event["pull_request"] = {"number": 7, "head": {"sha": self.HEAD}}
        return {"repository": "acme/kernels", "sha": self.MERGE, "server_url": server or self.SERVER,
                "run_id": 4242, "event_name": event_name, "ref": "refs/pull/7/merge", "workflow": "counterguard gate",
                "job": "gate", "token": "ghs_job_token", "event": event}

    def job(self, workspace, event_name="pull_request", **stores):
        """A job on the runner; the gh stub's server is the host of github.server_url."""
        github = self.github(event_name)
        environment = self.project.environment()
        environment["CG_STUB_GITHUB_HOST"] = github["server_url"].split("://", 1)[1]
        return template_runner.github_job(workspace, github, environment, tempfile.mkdtemp(dir=self.root), **stores)

    def run_gate(self, workspace, event_name="pull_request", stores=None, **inputs):
        job = self.job(workspace, event_name, **(stores or {}))
        given = {"runner": RUNNER, "cases": CASES, "baseline-dir": BASELINES, "measure": f"evaluate {RECORDING}"}
        given.update(inputs)
        records, outputs = job.run_action(GATE_ACTION, given)
        self.assert_shellcheck_clean(job.scripts, "gate")
        return job, {r.name: r for r in records}, outputs

    def seed_pull_request(self):
        self.project.seed_stub_state("github", {
            "pulls": [{"number": 7, "head": "feature", "base": "main", "title": "t", "body": "", "state": "OPEN",
                       "edits": 0}],
            "comments": [{"id": 1, "pull": 7, "body": "Looks good to me"},
                         {"id": 2, "pull": 7, "body": "<!-- counterguard-gate: another workflow/gate -->\nold"}],
            "next": 8})

    def our_comments(self):
        marker = "<!-- counterguard-gate: counterguard gate/gate -->"
        return [c for c in self.project.stub_state("github")["comments"] if c["body"].startswith(marker)]


class gitlab_pipeline_base(template_test):
    """A GitLab pipeline's variables and one job of an include run in a checkout."""

    HEAD = "4" * 40
    MERGED = "5" * 40

    def pipeline(self, source, **more):
        variables = {"CI_PIPELINE_SOURCE": source, "CI_PROJECT_ID": "99", "CI_SERVER_URL": "https://gitlab.example.com",
                     "CI_JOB_URL": "https://gitlab.example.com/acme/kernels/-/jobs/5", "CI_DEFAULT_BRANCH": "main",
                     "CI_REPOSITORY_URL": self.project.origin, "COUNTERGUARD_GITLAB_TOKEN": "glpat-bot"}
        variables.update(more)
        return variables

    def run_job(self, path, job_name, inputs, variables, workspace=None):
        jobs = template_runner.load_gitlab_include(path, inputs)
        workspace = workspace or self.project.checkout()
        variables = dict(variables, CI_JOB_NAME=job_name)
        result = template_runner.run_gitlab_job(jobs, job_name, workspace, variables, self.project.environment())
        if result.ran:
            self.assert_shellcheck_clean([result.script], job_name)
        return jobs[job_name], result, workspace

    def gate_inputs(self, **more):
        inputs = {"runner": RUNNER, "cases": CASES, "baseline-dir": BASELINES, "measure": f"evaluate {RECORDING}"}
        inputs.update(more)
        return inputs

    def mr_pipeline(self, **more):
        return self.pipeline("merge_request_event", CI_COMMIT_SHA=self.MERGED, CI_MERGE_REQUEST_IID="7",
                             CI_MERGE_REQUEST_SOURCE_BRANCH_SHA=self.HEAD, **more)
