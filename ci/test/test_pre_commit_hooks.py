#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""counterguard's pre-commit hooks (.pre-commit-hooks.yaml) run by a real pre-commit (Debian's package) in a
scratch project, as a user's `.pre-commit-config.yaml` names them: a hook repository holding the file as it is in
this tree, a project with counterguard's transpose suite in cases/, counterguard on PATH.

  python3 ci/test/test_pre_commit_hooks.py --counterguard build/counterguard [unittest options]

Exit status 77 (skipped) when pre-commit is not installed (apt-get install pre-commit).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
COUNTERGUARD = os.path.join(SOURCE, "build", "counterguard")


def git(*arguments, cwd):
    return subprocess.run(["git", "-c", "user.name=dev", "-c", "user.email=dev@example.com", *arguments], cwd=cwd,
                          check=True, capture_output=True, text=True).stdout.strip()


class pre_commit_test(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="counterguard-pre-commit-")
        hooks = os.path.join(self.root, "hooks")
        os.makedirs(hooks)
        git("init", "--quiet", "--initial-branch=main", ".", cwd=hooks)
        shutil.copy(os.path.join(SOURCE, ".pre-commit-hooks.yaml"), hooks)
        git("add", "-A", cwd=hooks)
        git("commit", "--quiet", "-m", "hooks", cwd=hooks)
        self.project = os.path.join(self.root, "project")
        os.makedirs(os.path.join(self.project, "cases"))
        git("init", "--quiet", "--initial-branch=main", ".", cwd=self.project)
        shutil.copy(os.path.join(SOURCE, "cases", "transpose.yaml"), os.path.join(self.project, "cases"))
        with open(os.path.join(self.project, ".pre-commit-config.yaml"), "w", encoding="utf-8") as f:
            f.write(f"repos:\n  - repo: {hooks}\n    rev: {git('rev-parse', 'HEAD', cwd=hooks)}\n    hooks:\n"
                    "      - id: counterguard-metrics\n      - id: counterguard-static\n")

    def tearDown(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def edit_suite(self, old, new):
        path = os.path.join(self.project, "cases", "transpose.yaml")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        self.assertIn(old, text)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new, 1))

    def pre_commit(self):
        """`pre-commit run --all-files` in the project, counterguard first on PATH; (exit status, output)."""
        git("add", "-A", cwd=self.project)
        env = dict(os.environ, PATH=os.path.dirname(COUNTERGUARD) + os.pathsep + os.environ["PATH"],
                   PRE_COMMIT_HOME=os.path.join(self.root, "pre-commit-home"))
        done = subprocess.run(["pre-commit", "run", "--all-files", "--color", "never"], cwd=self.project, env=env,
                              capture_output=True, text=True, check=False)
        return done.returncode, done.stdout + done.stderr

    def test_the_suites_as_written_pass_both_hooks(self):
        status, output = self.pre_commit()
        self.assertEqual(status, 0, output)
        self.assertRegex(output, r"counterguard metrics validate\.+Passed")
        self.assertRegex(output, r"counterguard static\.+Passed")

    def test_a_misspelt_metric_fails_the_commit_naming_the_file_line_and_field(self):
        self.edit_suite("shared_load_bank_conflicts: 0", "shared_load_bank_conflictz: 0")
        status, output = self.pre_commit()
        self.assertEqual(status, 1, output)
        self.assertRegex(output, r"counterguard metrics validate\.+Failed")
        self.assertIn("cases/transpose.yaml:34:7", output)
        self.assertIn("did you mean 'shared_load_bank_conflicts'", output)

    def test_a_violated_static_expectation_fails_the_static_hook(self):
        self.edit_suite("expect:\n", "expect:\n      registers_per_thread: {max: 1}\n")
        status, output = self.pre_commit()
        self.assertEqual(status, 1, output)
        self.assertRegex(output, r"counterguard metrics validate\.+Passed")
        self.assertRegex(output, r"counterguard static\.+Failed")
        self.assertIn("registers_per_thread", output)

    def test_baseline_files_are_not_taken_for_suites(self):
        baselines = os.path.join(self.project, "cases", "baselines", "GH100-132sm-cuda13")
        os.makedirs(baselines)
        shutil.copy(os.path.join(SOURCE, "baselines", "GH100-132sm-cuda13", "transpose.yaml"), baselines)
        status, output = self.pre_commit()
        self.assertEqual(status, 0, output)


def main():
    global COUNTERGUARD
    parser = argparse.ArgumentParser()
    parser.add_argument("--counterguard", default=COUNTERGUARD)
    known, rest = parser.parse_known_args()
    COUNTERGUARD = os.path.abspath(known.counterguard)
    if shutil.which("pre-commit") is None:
        print("test_pre_commit_hooks: pre-commit is not installed (apt-get install pre-commit): skipped")
        return 77
    program = unittest.main(argv=[sys.argv[0], *rest], exit=False)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
