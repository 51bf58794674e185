#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The CI templates, run step by step on a CPU in a temporary git repository laid out like a user's project.

The project has its own suites (tests/counterguard/), baselines (tests/counterguard/baselines/) and runner
(build/my_counterguard: a wrapper that logs its command line and COUNTERGUARD_GIT_COMMIT, then runs the real
counterguard). The GPU is replaced by the H200 recording (measure: `evaluate harness/test/fixtures/h200_builtin`)
and the refresh by refresh_standin.py; `gh` and `glab` are stubs (ci/test/stubs/) that keep pull requests,
merge requests and comments in a state file; git pushes go to a local bare repository.

  python3 ci/test/test_ci_templates.py [--counterguard build/counterguard] [unittest options]
"""

import argparse
import hashlib
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
import blamed_regression  # noqa: E402  (after the path is set)
import template_runner  # noqa: E402
import workflow_runner  # noqa: E402

COUNTERGUARD = os.path.join(SOURCE, "build", "counterguard")
RECORDING = os.path.join(SOURCE, "harness", "test", "fixtures", "h200_builtin")
EXEC_RECORDING = os.path.join(SOURCE, "harness", "test", "fixtures", "h200_exec_demo")
DEMO_SUITE = "tools/exec_demo/demo.yaml"  # the path the exec recording names its suite by
GATE_ACTION = os.path.join(SOURCE, "ci", "github", "gate")
NIGHTLY_ACTION = os.path.join(SOURCE, "ci", "github", "nightly")
SETUP_ACTION = os.path.join(SOURCE, "ci", "github", "setup")
SHARDED_WORKFLOW = os.path.join(SOURCE, "ci", "github", "counterguard-gate-sharded.yml")
GITLAB_GATE = os.path.join(SOURCE, "templates", "gate.yml")
GITLAB_GATE_SHARDED = os.path.join(SOURCE, "templates", "gate-sharded.yml")
GITLAB_NIGHTLY = os.path.join(SOURCE, "templates", "nightly.yml")
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

    def checkout(self, ref="main", built=True):
        """A fresh clone at `ref`, with the runner built (the wrapper) as the user's build step would (unless
        `built` is false: then `build_command()` builds it)."""
        self.checkouts += 1
        workspace = os.path.join(self.root, f"workspace-{self.checkouts}")
        git("clone", "--quiet", "--branch", ref, self.origin, workspace, cwd=self.root)
        if built:
            self.write_runner(os.path.join(workspace, RUNNER))
        return workspace

    def write_runner(self, path):
        """The runner: a wrapper that logs its command line and commit, then runs the real counterguard."""
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("#!/usr/bin/env bash\n"
                    f"printf '%s\\n' \"$(python3 -c 'import json, os, sys; print(json.dumps("
                    "{\"runner\": sys.argv[1], \"commit\": os.environ.get(\"COUNTERGUARD_GIT_COMMIT\"), "
                    "\"argv\": sys.argv[2:]}))' \"$0\" \"$@\")\" "
                    f">>'{self.state}/runner.log'\n"
                    f"exec '{COUNTERGUARD}' \"$@\"\n")
        os.chmod(path, 0o755)

    def build_command(self):
        """A build step for a checkout without the runner: puts it in place and counts the builds in builds.log."""
        built = os.path.join(self.root, "built-runner")
        if not os.path.exists(built):
            self.write_runner(built)
        return (f"mkdir -p {os.path.dirname(RUNNER)} && cp '{built}' {RUNNER} && "
                f"pwd >>'{os.path.join(self.state, 'builds.log')}'")

    def builds(self):
        path = os.path.join(self.state, "builds.log")
        return read_text(path).split() if os.path.exists(path) else []

    def release_tarball(self, version, layout="cpack"):
        """counterguard-<version>-linux-x86_64.tar.gz as CPack's TGZ packs it (one top-level folder; layout "flat": the
        tree itself; "empty": no bin/counterguard), with the logging wrapper as bin/counterguard. Returns the
        release-url with {version} and the tarball's SHA-256."""
        releases = os.path.join(self.root, "releases")
        tree = os.path.join(self.root, f"release-tree-{version}-{layout}")
        top = os.path.join(tree, f"counterguard-{version}-linux-x86_64") if layout != "flat" else tree
        os.makedirs(os.path.join(top, "lib", "counterguard"), exist_ok=True)
        if layout != "empty":
            self.write_runner(os.path.join(top, "bin", "counterguard"))
        os.makedirs(releases, exist_ok=True)
        tarball = os.path.join(releases, f"counterguard-{version}-linux-x86_64.tar.gz")
        subprocess.run(["tar", "-czf", tarball, "-C", tree, "."], check=True)
        with open(tarball, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        return "file://" + os.path.join(releases, "counterguard-{version}-linux-x86_64.tar.gz"), digest


def without_stubs(environment, tool):
    """`environment` with the stubs' folder off PATH, so that `tool` is missing (None when the machine has it)."""
    path = os.pathsep.join(p for p in environment["PATH"].split(os.pathsep) if p != os.path.join(HERE, "stubs"))
    return None if shutil.which(tool, path=path) else dict(environment, PATH=path)


def with_demo_suite(workspace):
    """The exec recording's suite, at the path the recording names it by, in a checkout."""
    os.makedirs(os.path.join(workspace, os.path.dirname(DEMO_SUITE)), exist_ok=True)
    shutil.copy(os.path.join(SOURCE, DEMO_SUITE), os.path.join(workspace, DEMO_SUITE))
    return workspace


def replace_once(path, old, new):
    text = read_text(path)
    assert old in text, f"{old} not in {path}"
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, 1))


def edit_baseline(workspace, suite, old, new):
    replace_once(os.path.join(workspace, BASELINES, KEY, suite + ".yaml"), old, new)


def junit_failures(xml_text):
    root = ElementTree.fromstring(xml_text)
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    return sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)


class sandbox_test(unittest.TestCase):
    """A test in its own temporary folder (self.root; CG_KEEP_TEMPORARY=1 keeps it)."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="counterguard-ci-")

    def tearDown(self):
        if os.environ.get("CG_KEEP_TEMPORARY") != "1":
            shutil.rmtree(self.root, ignore_errors=True)

    def assert_shellcheck_clean(self, scripts, label):
        problems = "".join(template_runner.shellcheck(s, f"{label} script {i}") for i, s in enumerate(scripts))
        self.assertEqual(problems, "", problems)


class template_test(sandbox_test):
    def setUp(self):
        super().setUp()
        self.project = user_project(self.root)


# ---------------------------------------------------------------------------------------------------------------
# GitHub: the gate action
# ---------------------------------------------------------------------------------------------------------------

class github_gate_base(template_test):
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
                steps = template_runner.yaml.safe_load(f)["runs"]["steps"]
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
# GitHub: the setup action (a release tarball, or one build per commit through the Actions cache)
# ---------------------------------------------------------------------------------------------------------------

class github_setup_test(github_gate_base):
    def setup(self, workspace, stores=None, **inputs):
        job = self.job(workspace, **(stores or {}))
        records, outputs = job.run_action(SETUP_ACTION, inputs)
        self.assert_shellcheck_clean(job.scripts, "setup")
        return job, {r.name: r for r in records}, outputs

    def test_a_release_is_downloaded_once_into_the_tool_cache_and_runs_the_gate(self):
        url, digest = self.project.release_tarball("9.9.9")
        tool_cache = os.path.join(self.root, "tool-cache")
        workspace = self.project.checkout(built=False)
        job, steps, outputs = self.setup(workspace, {"tool_cache": tool_cache}, **{
            "counterguard-version": "9.9.9", "release-url": url, "release-sha256": digest})
        self.assertEqual(outputs["source"], "release", steps["Get the release"].detail)
        self.assertTrue(outputs["runner"].startswith(os.path.join(tool_cache, "counterguard", "9.9.9") + "/"))
        self.assertTrue(outputs["runner"].endswith("/bin/counterguard"))
        self.assertIn("+ curl file://", steps["Get the release"].detail["output"])
        self.assertEqual(steps["Build the runner"].status, "skipped")
        self.assertEqual(steps["Restore the build"].status, "skipped")
        job, gate, status = self.run_gate(workspace, event_name="push", runner=outputs["runner"])
        self.assertEqual(status["status"], "0")
        (call,) = self.project.runner_calls()
        self.assertEqual(call["runner"], outputs["runner"])
        # The next job on this machine finds it in the tool cache: no download (the tarball is gone).
        os.remove(url[len("file://"):].replace("{version}", "9.9.9"))
        job, steps, again = self.setup(self.project.checkout(built=False), {"tool_cache": tool_cache},
                                       **{"counterguard-version": "9.9.9", "release-url": url})
        self.assertEqual(again["runner"], outputs["runner"])
        self.assertIn("in the tool cache", steps["Get the release"].detail["output"])

    def test_a_release_is_the_cmake_package_the_gates_build_of_the_users_runner_finds(self):
        url, _ = self.project.release_tarball("9.9.8")
        workspace = self.project.checkout(built=False)
        job = self.job(workspace, event_name="push")
        _, outputs = job.run_action(SETUP_ACTION, {"counterguard-version": "9.9.8", "release-url": url})
        self.assertEqual(outputs["prefix"], os.path.dirname(os.path.dirname(outputs["runner"])))
        self.assertTrue(os.path.isdir(os.path.join(outputs["prefix"], "lib")))
        build = f'printf "%s" "$CMAKE_PREFIX_PATH" >prefix.txt && {self.project.build_command()}'
        _, gate = job.run_action(GATE_ACTION, {"build": build, "runner": RUNNER, "cases": CASES,
                                               "baseline-dir": BASELINES, "measure": f"evaluate {RECORDING}"})
        self.assertEqual(gate["status"], "0")
        self.assertEqual(read_text(os.path.join(workspace, "prefix.txt")).split(":")[0], outputs["prefix"])

    def test_a_flat_tarball_works_and_a_wrong_digest_or_no_program_is_refused(self):
        url, _ = self.project.release_tarball("1.0.0", layout="flat")
        job, steps, outputs = self.setup(self.project.checkout(built=False),
                                         **{"counterguard-version": "1.0.0", "release-url": url})
        self.assertEqual(outputs["source"], "release")
        self.assertTrue(os.access(outputs["runner"], os.X_OK))

        url, _ = self.project.release_tarball("1.0.1")
        job, steps, outputs = self.setup(self.project.checkout(built=False), **{
            "counterguard-version": "1.0.1", "release-url": url, "release-sha256": "0" * 64})
        self.assertEqual(steps["Get the release"].status, "failure")
        self.assertIn("is not the release-sha256 given", steps["Get the release"].detail["output"])
        self.assertEqual(steps["The runner"].status, "skipped")
        self.assertEqual(outputs["runner"], "")

        url, _ = self.project.release_tarball("1.0.2", layout="empty")
        job, steps, outputs = self.setup(self.project.checkout(built=False),
                                         **{"counterguard-version": "1.0.2", "release-url": url})
        self.assertEqual(steps["Get the release"].status, "failure")
        self.assertIn("holds no single bin/counterguard", steps["Get the release"].detail["output"])

    def test_inputs_that_do_not_go_together_are_refused(self):
        for inputs, message in (({"counterguard-version": "1.0.0"}, "counterguard-version needs release-url"),
                                ({"counterguard-version": "1.0.0", "release-url": "file:///x", "build": "true"},
                                 "not both"),
                                ({"build-cache": "build"}, "build-cache needs the build command"),
                                ({"build": "true", "cache-action": "v2"}, "valid: v4, v3")):
            job, steps, outputs = self.setup(self.project.checkout(built=False), **inputs)
            self.assertEqual(steps["Check the inputs"].status, "failure", inputs)
            self.assertEqual(steps["Check the inputs"].detail["status"], 2)
            self.assertIn(message, steps["Check the inputs"].detail["output"])

    def test_one_build_per_commit_is_shared_through_the_actions_cache(self):
        stores = {"cache_store": os.path.join(self.root, "actions-cache")}
        inputs = {"build": self.project.build_command(), "runner": RUNNER, "build-cache": "build"}
        # The first job of the commit builds and saves the build directory.
        job, steps, outputs = self.setup(self.project.checkout(built=False), stores, **inputs)
        self.assertEqual(outputs, {"runner": RUNNER, "source": "build", "prefix": ""})
        self.assertEqual(steps["Restore the build"].detail["hit"], False)
        self.assertTrue(steps["Save the build"].detail["saved"])
        self.assertEqual(steps["Save the build"].detail["with"]["key"], f"counterguard-build-Linux-{self.MERGE}")
        self.assertEqual(len(self.project.builds()), 1)
        # Every other job of the commit (shards, the report job, a re-run) restores it and builds nothing.
        workspace = self.project.checkout(built=False)
        job, steps, outputs = self.setup(workspace, stores, **inputs)
        self.assertEqual(outputs, {"runner": RUNNER, "source": "cache", "prefix": ""})
        self.assertEqual(steps["Build the runner"].status, "skipped")
        self.assertEqual(steps["Save the build"].status, "skipped")
        self.assertEqual(len(self.project.builds()), 1)
        job, gate, status = self.run_gate(workspace, event_name="push", runner=outputs["runner"])
        self.assertEqual(status["status"], "0")
        # Another commit builds again; actions/cache@v3 where the server has only that.
        self.MERGE = "3" * 40
        job, steps, outputs = self.setup(self.project.checkout(built=False), stores,
                                         **dict(inputs, **{"cache-action": "v3"}))
        self.assertEqual(outputs["source"], "build")
        self.assertEqual(steps["Save the build (v3)"].detail["uses"], "actions/cache/save@v3")
        self.assertEqual(len(self.project.builds()), 2)

    def test_without_release_or_build_the_runner_is_taken_as_given(self):
        job, steps, outputs = self.setup(self.project.checkout(), runner=RUNNER)
        self.assertEqual(outputs, {"runner": RUNNER, "source": "given", "prefix": ""})
        job, steps, outputs = self.setup(self.project.checkout(built=False), runner=RUNNER)
        self.assertEqual(steps["The runner"].status, "failure")
        self.assertIn(f"no runner at {RUNNER}", steps["The runner"].detail["output"])


# ---------------------------------------------------------------------------------------------------------------
# GitHub: the nightly action
# ---------------------------------------------------------------------------------------------------------------

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

    def mr_pipeline(self, **more):
        return self.pipeline("merge_request_event", CI_COMMIT_SHA=self.MERGED, CI_MERGE_REQUEST_IID="7",
                             CI_MERGE_REQUEST_SOURCE_BRANCH_SHA=self.HEAD, **more)

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
            header, jobs = list(template_runner.yaml.safe_load_all(text))
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

class sharded_gate_test(template_test):
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
        subprocess.run([COUNTERGUARD, "evaluate", RECORDING, "--cases", CASES, "--no-baselines", "--json", out,
                        "--quiet"], cwd=workspace, check=False, capture_output=True)
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
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--counterguard", default=COUNTERGUARD)
    known, rest = parser.parse_known_args()
    COUNTERGUARD = os.path.abspath(known.counterguard)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
