#!/usr/bin/env python3
"""The CI templates, run step by step on a CPU in a temporary git repository laid out like a user's project.

The project has its own suites (tests/counterguard/), baselines (tests/counterguard/baselines/) and runner
(build/my_counterguard: a wrapper that logs its command line and COUNTERGUARD_GIT_COMMIT, then runs the real
counterguard). The GPU is replaced by the H200 recording (measure: `evaluate harness/test/fixtures/h200_builtin`)
and the refresh by refresh_standin.py; `gh` and `glab` are stubs (ci/test/stubs/) that keep pull requests,
merge requests and comments in a state file; git pushes go to a local bare repository.

  python3 ci/test/test_ci_templates.py [--counterguard build/counterguard] [unittest options]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import template_runner  # noqa: E402  (after the path is set)

COUNTERGUARD = os.path.join(SOURCE, "build", "counterguard")
RECORDING = os.path.join(SOURCE, "harness", "test", "fixtures", "h200_builtin")
GATE_ACTION = os.path.join(SOURCE, "ci", "github", "gate")
NIGHTLY_ACTION = os.path.join(SOURCE, "ci", "github", "nightly")
GITLAB_GATE = os.path.join(SOURCE, "ci", "gitlab", "counterguard-gate.yml")
GITLAB_GATE_SHARDED = os.path.join(SOURCE, "ci", "gitlab", "counterguard-gate-sharded.yml")
GITLAB_NIGHTLY = os.path.join(SOURCE, "ci", "gitlab", "counterguard-nightly.yml")
KEY = "GH100-132sm-cuda13"
CASES = "tests/counterguard"
BASELINES = "tests/counterguard/baselines"
RUNNER = "build/my_counterguard"
# A planted regression: the baseline of a value the recording measures is halved, so the measurement is twice it.
STORE_SECTORS = "global_store_sectors: {value: 1048576, class: exact, min: 1048576, max: 1048576"
HALVED_STORE_SECTORS = "global_store_sectors: {value: 524288, class: exact, min: 524288, max: 524288"
GITHUB_BODY_LIMIT = 65536


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def read_json_lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def git(*arguments, cwd):
    return subprocess.run(["git", *arguments], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


class ci_sandbox:
    """origin.git (bare, branch main), the stubs' state and the environment a CI job's steps run in."""

    def __init__(self, root):
        self.root = root
        self.origin = os.path.join(root, "origin.git")
        self.state = os.path.join(root, "stub-state")
        os.makedirs(self.state)
        git("init", "--quiet", "--bare", "--initial-branch=main", self.origin, cwd=root)
        self.checkouts = 0

    def publish(self, seed):
        """Commits everything in the `seed` repository and pushes it as origin's main."""
        git("add", "-A", cwd=seed)
        git("-c", "user.name=dev", "-c", "user.email=dev@example.com", "commit", "--quiet", "-m", "initial", cwd=seed)
        git("push", "--quiet", self.origin, "main", cwd=seed)

    def environment(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "CI_", "GITLAB_", "GH_"))}
        env.update({"PATH": os.path.join(HERE, "stubs") + os.pathsep + os.environ["PATH"],
                    "CG_STUB_STATE": self.state, "CG_STUB_ORIGIN": self.origin,
                    "HOME": os.path.join(self.root, "home"), "GIT_CONFIG_NOSYSTEM": "1",
                    "COUNTERGUARD_LOCK_DIR": self.root})
        os.makedirs(env["HOME"], exist_ok=True)
        return env

    def runner_calls(self):
        path = os.path.join(self.state, "runner.log")
        return read_json_lines(path) if os.path.exists(path) else []

    def stub_calls(self, tool):
        path = os.path.join(self.state, f"{tool}.log")
        return [c["argv"] for c in read_json_lines(path)] if os.path.exists(path) else []

    def stub_state(self, platform):
        path = os.path.join(self.state, f"{platform}.json")
        return read_json(path) if os.path.exists(path) else None

    def seed_stub_state(self, platform, state):
        with open(os.path.join(self.state, f"{platform}.json"), "w", encoding="utf-8") as f:
            json.dump(state, f)

    def branch_sha(self, branch):
        done = subprocess.run(["git", "rev-parse", "--verify", "-q", f"refs/heads/{branch}"], cwd=self.origin,
                              capture_output=True, text=True, check=False)
        return done.stdout.strip() if done.returncode == 0 else None


class user_project(ci_sandbox):
    """A user's project in origin.git, and fresh checkouts of it."""

    def __init__(self, root):
        super().__init__(root)
        seed = os.path.join(root, "seed")
        git("init", "--quiet", "--initial-branch=main", seed, cwd=root)
        shutil.copytree(os.path.join(SOURCE, "cases"), os.path.join(seed, CASES))
        shutil.copytree(os.path.join(SOURCE, "baselines", KEY), os.path.join(seed, BASELINES, KEY))
        with open(os.path.join(seed, ".gitignore"), "w") as f:
            f.write("/build/\n")
        with open(os.path.join(seed, "README.md"), "w") as f:
            f.write("A CUDA project gated by counterguard.\n")
        self.publish(seed)

    def checkout(self, ref="main"):
        """A fresh clone at `ref`, with the runner built (the wrapper) as the user's build step would."""
        self.checkouts += 1
        workspace = os.path.join(self.root, f"workspace-{self.checkouts}")
        git("clone", "--quiet", "--branch", ref, self.origin, workspace, cwd=self.root)
        os.makedirs(os.path.join(workspace, "build"))
        wrapper = os.path.join(workspace, RUNNER)
        with open(wrapper, "w") as f:
            f.write("#!/usr/bin/env bash\n"
                    f"printf '%s\\n' \"$(python3 -c 'import json, os, sys; print(json.dumps("
                    "{\"commit\": os.environ.get(\"COUNTERGUARD_GIT_COMMIT\"), \"argv\": sys.argv[1:]}))' \"$@\")\" "
                    f">>'{self.state}/runner.log'\n"
                    f"exec '{COUNTERGUARD}' \"$@\"\n")
        os.chmod(wrapper, 0o755)
        return workspace



def edit_baseline(workspace, suite, old, new):
    path = os.path.join(workspace, BASELINES, KEY, suite + ".yaml")
    text = read_text(path)
    assert old in text, f"{old} not in {path}"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, 1))


def junit_failures(xml_text):
    root = ElementTree.fromstring(xml_text)
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    return sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)


class template_test(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="counterguard-ci-")
        self.project = user_project(self.root)

    def tearDown(self):
        if os.environ.get("CG_KEEP_TEMPORARY") != "1":
            shutil.rmtree(self.root, ignore_errors=True)

    def assert_shellcheck_clean(self, scripts, label):
        problems = "".join(template_runner.shellcheck(s, f"{label} script {i}") for i, s in enumerate(scripts))
        self.assertEqual(problems, "", problems)


# ---------------------------------------------------------------------------------------------------------------
# GitHub: the gate action
# ---------------------------------------------------------------------------------------------------------------

class github_gate_base(template_test):
    HEAD = "1" * 40   # the pull request's head commit
    MERGE = "2" * 40  # the temporary merge commit GitHub checks out for pull_request events

    def github(self, event_name="pull_request"):
        event = {"repository": {"default_branch": "main"}}
        if event_name == "pull_request":
            event["pull_request"] = {"number": 7, "head": {"sha": self.HEAD}}
        return {"repository": "acme/kernels", "sha": self.MERGE, "server_url": "https://github.com",
                "run_id": 4242, "event_name": event_name, "ref": "refs/pull/7/merge", "workflow": "counterguard gate",
                "job": "gate", "token": "ghs_job_token", "event": event}

    def run_gate(self, workspace, event_name="pull_request", **inputs):
        job = template_runner.github_job(workspace, self.github(event_name), self.project.environment(),
                                         tempfile.mkdtemp(dir=self.root))
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


class github_gate_test(github_gate_base):
    def test_a_passing_run_reports_everywhere_and_passes(self):
        self.seed_pull_request()
        job, steps, outputs = self.run_gate(self.project.checkout())
        self.assertEqual(outputs["status"], "0")
        self.assertEqual([s.status for s in steps.values()], ["skipped"] + ["success"] * 6, steps)
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


# ---------------------------------------------------------------------------------------------------------------
# GitHub: the nightly action
# ---------------------------------------------------------------------------------------------------------------

class github_nightly_test(template_test):
    BRANCH = "counterguard/baseline-refresh"

    def night(self, *standin_arguments):
        workspace = self.project.checkout()
        sha = git("rev-parse", "HEAD", cwd=workspace)
        github = {"repository": "acme/kernels", "sha": sha, "server_url": "https://github.com", "run_id": 99,
                  "event_name": "schedule", "ref": "refs/heads/main", "ref_name": "main",
                  "workflow": "counterguard nightly baselines",
                  "job": "refresh", "token": "ghs_job_token", "event": {"repository": {"default_branch": "main"}}}
        job = template_runner.github_job(workspace, github, self.project.environment(),
                                         tempfile.mkdtemp(dir=self.root))
        refresh = " ".join([sys.executable, os.path.join(HERE, "refresh_standin.py"), BASELINES] +
                           [f"'{a}'" for a in standin_arguments])
        records, outputs = job.run_action(NIGHTLY_ACTION, {
            "runner": RUNNER, "cases": CASES, "baseline-dir": BASELINES, "refresh": refresh,
            "token": "github_pat_bot"})
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


# ---------------------------------------------------------------------------------------------------------------
# GitLab: the gate and the nightly includes
# ---------------------------------------------------------------------------------------------------------------

class gitlab_test(template_test):
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

    def mr_pipeline(self):
        return self.pipeline("merge_request_event", CI_COMMIT_SHA=self.MERGED, CI_MERGE_REQUEST_IID="7",
                             CI_MERGE_REQUEST_SOURCE_BRANCH_SHA=self.HEAD)

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


# ---------------------------------------------------------------------------------------------------------------
# Sharding: relies on `counterguard run --shard I/N` and `counterguard merge`
# ---------------------------------------------------------------------------------------------------------------

def sharding_missing():
    run_help = subprocess.run([COUNTERGUARD, "run", "--help"], capture_output=True, text=True, check=False).stdout
    merge_help = subprocess.run([COUNTERGUARD, "merge", "--help"], capture_output=True, text=True, check=False)
    if "--shard" not in run_help:
        return "this counterguard's `run --help` has no --shard: the sharded templates cannot be tested yet"
    if merge_help.returncode != 0:
        return "this counterguard has no `merge` command: the sharded templates cannot be tested yet"
    return None


class sharded_gate_test(template_test):
    def setUp(self):
        missing = sharding_missing()
        if missing:
            self.skipTest(missing)
        super().setUp()

    def partial_results(self, workspace, directory, suite_filter):
        """One shard's results: the recording evaluated for some suites (no GPU runs a shard here)."""
        os.makedirs(os.path.join(workspace, directory), exist_ok=True)
        subprocess.run([COUNTERGUARD, "evaluate", RECORDING, "--cases", CASES, "--baseline-dir", BASELINES,
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
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--counterguard", default=COUNTERGUARD)
    known, rest = parser.parse_known_args()
    COUNTERGUARD = os.path.abspath(known.counterguard)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
