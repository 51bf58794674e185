#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The GitHub setup action (ci/github/setup): a release tarball, or one build per commit through the
Actions cache.

Run in a temporary user project (ci_fixtures.user_project) on the H200 recording.

  python3 ci/test/test_github_setup.py [--counterguard build/counterguard] [unittest options]
"""

import os

import ci_fixtures
from ci_fixtures import RECORDING, GATE_ACTION, SETUP_ACTION, CASES, BASELINES, RUNNER, read_text
from template_job_fixtures import github_gate_base


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


if __name__ == "__main__":
    ci_fixtures.main()
