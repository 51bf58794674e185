# SPDX-License-Identifier: Apache-2.0
"""What every CI template test shares: a temporary git repository laid out like a user's project, its stubs, and
helpers to read what the templates wrote.

The project has its own suites (tests/counterguard/), baselines (tests/counterguard/baselines/) and runner
(build/my_counterguard: a wrapper that logs its command line and COUNTERGUARD_GIT_COMMIT, then runs the real
counterguard). The GPU is replaced by the H200 recording (measure: `evaluate harness/test/fixtures/h200_builtin`)
and the refresh by refresh_standin.py; `gh` and `glab` are stubs (ci/test/stubs/) that keep pull requests,
merge requests and comments in a state file; git pushes go to a local bare repository.
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

import template_runner

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
# The real counterguard the user project's runner wraps; main() sets it from --counterguard.
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


def main():
    """Runs the calling test script's tests: `--counterguard PATH` (the program under test) and unittest's options."""
    global COUNTERGUARD
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--counterguard", default=COUNTERGUARD)
    known, rest = parser.parse_known_args()
    COUNTERGUARD = os.path.abspath(known.counterguard)
    unittest.main(module="__main__", argv=[sys.argv[0]] + rest, verbosity=2)
