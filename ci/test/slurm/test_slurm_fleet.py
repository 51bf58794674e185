#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Slurm templates (ci/slurm/) on a real Slurm: Debian's slurm-wlm and munge, started on this machine by
start_slurm.sh (three nodes in two partitions, GPUs as GRES on device files, no GPU) and stopped by stop_slurm.sh
whatever happens. The gate's job array evaluates the recorded H200 run (`evaluate --shard`), one shard per task,
and the merge job joins them; the refresh's partitions and combine job refresh the baselines from recordings.

  test_slurm_fleet.py --counterguard build/counterguard [unittest options]
Exit status 77 (ctest: skipped) when not root: slurmd must be.
"""
import argparse
import ctypes
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
DRIVER = os.path.join(SOURCE, "ci", "slurm", "counterguard_slurm.py")
SAME_RESULTS = os.path.join(SOURCE, "validation", "same_results.py")
RECORDING = os.path.join(SOURCE, "harness", "test", "fixtures", "h200_builtin")
EXEC_RECORDING = os.path.join(SOURCE, "harness", "test", "fixtures", "h200_exec_demo")
KEY = "GH100-132sm-cuda13"
# A baseline value the recording does not measure (halved), so that a refresh from it changes coalescing.yaml.
LOAD_SECTORS = "global_load_sectors: {value: 1048576, class: exact, min: 1048576, max: 1048576"
HALVED_LOAD_SECTORS = "global_load_sectors: {value: 524288, class: exact, min: 524288, max: 524288"
CASES = os.path.join(SOURCE, "cases")
COUNTERGUARD = os.path.join(SOURCE, "build", "counterguard")
CLUSTER = None  # the cluster's directory, while it runs
sys.path.insert(0, os.path.dirname(HERE))
import ci_fixtures  # noqa: E402  (ci/test: the user project)
import template_runner  # noqa: E402  (ci/test: runs the GitHub nightly action's steps)
from ci_fixtures import BASELINES, RUNNER, git, user_project  # noqa: E402
SHARDS = 4


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def ended_with_this_test():
    """A child's pre-exec step: SIGTERM when this test process dies, however it dies (the driver then cancels its
    jobs, as when a CI job is cancelled)."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def slurm_environment():
    return dict(os.environ, SLURM_CONF=os.path.join(CLUSTER, "slurm.conf"))


def driver(*arguments, environment=None):
    """Runs counterguard_slurm.py to its end in the source tree (a recording names its suites relative to it);
    returns (exit status, its output)."""
    done = subprocess.run([sys.executable, DRIVER, *arguments], env=environment or slurm_environment(), cwd=SOURCE,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False, timeout=240,
                          preexec_fn=ended_with_this_test)
    return done.returncode, done.stdout


def evaluate_unsharded(directory):
    whole = os.path.join(directory, "whole.json")
    subprocess.run([COUNTERGUARD, "evaluate", RECORDING, "--cases", CASES, "--quiet", "--json", whole], cwd=SOURCE,
                   check=True, stdout=subprocess.DEVNULL)
    return whole


def cases_without_timing(path):
    cases = json.loads(read_text(path))["cases"]
    for case in cases:
        case.pop("seconds", None)
    return cases


def write_runner(directory, script):
    """A runner that does `script` for some shards and is counterguard for the others."""
    path = os.path.join(directory, "runner.sh")
    with open(path, "w", encoding="utf-8") as f:
        f.write("#!/usr/bin/env bash\n" + script + f'\nexec {COUNTERGUARD} "$@"\n')
    os.chmod(path, 0o755)
    return path


class gate_array(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="cg-slurm-gate-")
        self.results = os.path.join(self.scratch, "gate")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def gate(self, runner=COUNTERGUARD):
        return driver("gate", "--shards", str(SHARDS), "--results", self.results, "--runner", runner,
                      "--merge-argument=--quiet", "--", "evaluate", RECORDING, "--cases", CASES, "--quiet")

    def test_the_merged_shards_equal_one_unsharded_evaluation(self):
        status, output = self.gate()
        self.assertEqual(status, 0, output)
        merged = os.path.join(self.results, "results.json")
        whole = evaluate_unsharded(self.scratch)
        same = subprocess.run([sys.executable, SAME_RESULTS, whole, merged], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, check=False)
        self.assertEqual(same.returncode, 0, same.stdout)
        # Evaluated from one recording, even the noisy values and recorded times are the same.
        self.assertEqual(cases_without_timing(merged), cases_without_timing(whole))
        for report in ("junit.xml", "summary.md", "report.html"):
            self.assertTrue(os.path.isfile(os.path.join(self.results, report)), report)
        self.assertIn("93 cases", read_text(os.path.join(self.results, "summary.md")))

    def test_shards_running_at_once_each_get_their_own_gpu_from_slurm(self):
        # Each task waits until all four run, so that they hold their GPUs at the same time.
        barrier = os.path.join(self.scratch, "barrier")
        os.makedirs(barrier)
        runner = write_runner(self.scratch, f"""
touch {barrier}/$SLURM_ARRAY_TASK_ID
for _ in $(seq 1 240); do
  (($(ls {barrier} | wc -l) == {SHARDS})) && break
  sleep 0.25
done""")
        status, output = self.gate(runner)
        self.assertEqual(status, 0, output)
        gpus = set()
        for task in range(SHARDS):
            first = read_text(os.path.join(self.results, "logs", f"shard-{task}.log")).splitlines()[0]
            self.assertRegex(first, rf"shard {task + 1}/{SHARDS}, job \d+_{task} on cg-a[12], "
                                    r"CUDA_VISIBLE_DEVICES=[01]$")
            gpus.add(first.rsplit(" on ", 1)[1])
        # Partition gpu-a has four GPUs (two nodes of two): each task had one of its own.
        self.assertEqual(len(gpus), SHARDS, gpus)

    def start_gate(self, runner, *options):
        """The driver in the background; returns it and the job id of shard 2's task once that task runs."""
        waiting = subprocess.Popen([sys.executable, DRIVER, "gate", "--shards", str(SHARDS), "--results",
                                    self.results, "--runner", runner, "--merge-argument=--quiet", *options, "--",
                                    "evaluate", RECORDING, "--cases", CASES, "--quiet"],
                                   env=slurm_environment(), cwd=SOURCE, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, preexec_fn=ended_with_this_test)
        log = os.path.join(self.results, "logs", "shard-1.log")
        for _ in range(240):
            if os.path.isfile(log) and "holds on" in read_text(log):
                return waiting, read_text(log).splitlines()[0].split(", job ")[1].split(" ")[0]
            time.sleep(0.25)
        waiting.kill()
        self.fail("shard 2 did not start")

    def test_killed_failed_and_timed_out_tasks_are_named_by_the_merge_which_fails_and_writes_nothing(self):
        runner = write_runner(self.scratch, """
for argument; do
  case "$argument" in
    2/4) echo "shard 2 holds on"; sleep 600 ;;
    3/4) echo "shard 3 fails" >&2; exit 2 ;;
    4/4) echo "shard 4 runs past its time limit"; sleep 600 ;;
  esac
done""")
        # Slurm's time limits are whole minutes: shard 4 is ended after one.
        waiting, task = self.start_gate(runner, "--time=1")
        try:
            subprocess.run(["scancel", task], env=slurm_environment(), check=True)
            output, _ = waiting.communicate(timeout=240)
        finally:
            if waiting.poll() is None:
                waiting.kill()
        self.assertEqual(waiting.returncode, 2, output)
        self.assertIn("missing shards: 2/4, 3/4, 4/4", output)
        self.assertRegex(output, rf"shard 2/4 wrote no results \(job {task}: JobState=CANCELLED")
        self.assertRegex(output, r"shard 3/4 wrote no results \(job \d+_2: JobState=FAILED .*ExitCode=2:0")
        self.assertRegex(output, r"shard 4/4 wrote no results \(job \d+_3: JobState=TIMEOUT Reason=TimeLimit")
        self.assertFalse(os.path.exists(os.path.join(self.results, "results.json")))
        self.assertFalse(os.path.exists(os.path.join(self.results, "summary.md")))
        self.assertTrue(os.path.isfile(os.path.join(self.results, "shard-1.json")))

    def test_a_cancelled_ci_job_cancels_the_array_and_the_merge(self):
        runner = write_runner(self.scratch, """
for argument; do
  [[ $argument == 2/4 ]] && { echo "shard 2 holds on"; sleep 600; }
done""")
        waiting, task = self.start_gate(runner)
        waiting.send_signal(signal.SIGTERM)
        output, _ = waiting.communicate(timeout=60)
        self.assertEqual(waiting.returncode, 128 + signal.SIGTERM, output)
        # Nothing of the gate is left queued or running (the cluster runs nothing else meanwhile).
        for _ in range(60):
            left = subprocess.run(["squeue", "--noheader", "--format=%i %T"], env=slurm_environment(),
                                  stdout=subprocess.PIPE, text=True, check=True).stdout.split()
            if not left:
                break
            time.sleep(0.5)
        self.assertEqual(left, [])
        state = subprocess.run(["scontrol", "--oneliner", "show", "job", task], env=slurm_environment(),
                               stdout=subprocess.PIPE, text=True, check=False).stdout
        self.assertIn("JobState=CANCELLED", state)

    def test_a_results_directory_of_an_earlier_gate_is_refused_before_anything_is_submitted(self):
        os.makedirs(self.results)
        with open(os.path.join(self.results, "shard-2.json"), "w", encoding="utf-8") as f:
            f.write("{}")
        status, output = self.gate()
        self.assertEqual(status, 2, output)
        self.assertIn("already holds shard-2.json", output)
        self.assertNotIn("+ sbatch", output)


class gate_without_slurm(unittest.TestCase):
    def test_the_local_tasks_merge_into_one_unsharded_evaluation(self):
        scratch = tempfile.mkdtemp(prefix="cg-slurm-local-")
        try:
            results = os.path.join(scratch, "gate")
            environment = {k: v for k, v in os.environ.items() if not k.startswith("SLURM")}
            status, output = driver("gate", "--local", "--local-gpus", "0,1", "--shards", "3", "--results",
                                    results, "--runner", COUNTERGUARD, "--merge-argument=--quiet", "--", "evaluate",
                                    RECORDING, "--cases", CASES, "--quiet", environment=environment)
            self.assertEqual(status, 0, output)
            merged = os.path.join(results, "results.json")
            self.assertEqual(cases_without_timing(merged), cases_without_timing(evaluate_unsharded(scratch)))
            self.assertIn("CUDA_VISIBLE_DEVICES=1", read_text(os.path.join(results, "logs", "shard-1.log")))
            self.assertIn("job local_2", read_text(os.path.join(results, "logs", "shard-2.log")))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


def tree(directory):
    """{relative path: bytes} of every file under `directory`."""
    files = {}
    for root, _, names in os.walk(directory):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, directory)] = f.read()
    return files


class refresh_partitions(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp(prefix="cg-slurm-refresh-")
        self.baselines = os.path.join(self.scratch, "baselines")
        shutil.copytree(os.path.join(SOURCE, "baselines"), self.baselines)
        path = os.path.join(self.baselines, KEY, "coalescing.yaml")
        text = read_text(path)
        self.assertIn(LOAD_SECTORS, text)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(LOAD_SECTORS, HALVED_LOAD_SECTORS, 1))
        self.before = tree(self.baselines)
        # Each partition refreshes from its own recording: gpu-a the built-in suites, gpu-b the exec demo's.
        self.recordings = os.path.join(self.scratch, "recordings")
        os.makedirs(self.recordings)
        os.symlink(RECORDING, os.path.join(self.recordings, "gpu-a"))
        os.symlink(EXEC_RECORDING, os.path.join(self.recordings, "gpu-b"))

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def refresh(self, runner=COUNTERGUARD, recording=None):
        recording = recording or os.path.join(self.recordings, "{partition}")
        return driver("refresh", "--partitions", "gpu-a,gpu-b", "--baseline-dir", self.baselines, "--work",
                      os.path.join(self.scratch, "work"), "--summary", os.path.join(self.scratch, "summary.md"),
                      "--runner", runner, "--", "baseline", "update", "--from-recording", recording)

    def test_the_partitions_combined_equal_one_refresh_of_both_in_one_directory(self):
        reference = os.path.join(self.scratch, "reference")
        shutil.copytree(self.baselines, reference)
        for recording in (RECORDING, EXEC_RECORDING):
            subprocess.run([COUNTERGUARD, "baseline", "update", "--from-recording", recording, "--baseline-dir",
                            reference], cwd=SOURCE, check=True, stdout=subprocess.DEVNULL)
        status, output = self.refresh()
        self.assertEqual(status, 0, output)
        combined = tree(self.baselines)
        expected = tree(reference)
        self.assertEqual(sorted(combined), sorted(expected))
        changed = sorted(f for f in combined if combined[f] != self.before.get(f))
        self.assertEqual(changed, [f"{KEY}/coalescing.yaml", f"{KEY}/exec_demo.yaml"])
        same = subprocess.run([COUNTERGUARD, "baseline", "diff", reference, self.baselines], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, check=False)
        self.assertEqual(same.returncode, 0, same.stdout)
        summary = read_text(os.path.join(self.scratch, "summary.md"))
        self.assertIn(f"## Partition gpu-a: `{KEY}`", summary)
        self.assertIn(f"## Partition gpu-b: `{KEY}`", summary)
        self.assertIn("global_load_sectors", summary)

    def test_a_partition_whose_refresh_did_not_complete_is_named_and_no_baseline_changes(self):
        runner = write_runner(self.scratch, """
[[ $SLURM_JOB_PARTITION == gpu-b ]] && { echo "no GPU in this partition" >&2; exit 3; }""")
        status, output = self.refresh(runner)
        self.assertEqual(status, 2, output)
        self.assertRegex(output, r"did not complete on partition gpu-b \(job \d+: JobState=FAILED .*ExitCode=3:0")
        self.assertIn("left as it was (no partial baselines)", output)
        self.assertEqual(tree(self.baselines), self.before)

    def test_two_partitions_refreshing_the_same_file_are_refused_and_no_baseline_changes(self):
        status, output = self.refresh(recording=RECORDING)
        self.assertEqual(status, 2, output)
        self.assertIn(f"partitions gpu-a and gpu-b both refreshed {KEY}/coalescing.yaml", output)
        self.assertEqual(tree(self.baselines), self.before)


class nightly_through_slurm(unittest.TestCase):
    """The nightly templates (ci/github/nightly, templates/nightly.yml) with the Slurm refresh as their `refresh`:
    one pull or merge request for every partition's change."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="cg-slurm-nightly-")
        self.project = user_project(self.root)
        # On main: a baseline the recording disagrees with (gpu-a's change) and the exec demo's suite, which has
        # no baselines yet (gpu-b's). Each partition refreshes its own suites from its own recording.
        seed = self.project.checkout(built=False)
        path = os.path.join(seed, BASELINES, KEY, "coalescing.yaml")
        text = read_text(path)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(LOAD_SECTORS, HALVED_LOAD_SECTORS, 1))
        os.makedirs(os.path.join(seed, "tools", "exec_demo"))
        shutil.copy(os.path.join(SOURCE, "tools", "exec_demo", "demo.yaml"), os.path.join(seed, "tools", "exec_demo"))
        os.makedirs(os.path.join(seed, "partitions"))
        os.symlink("../tests/counterguard", os.path.join(seed, "partitions", "gpu-a"))
        os.symlink("../tools/exec_demo", os.path.join(seed, "partitions", "gpu-b"))
        git("add", "-A", cwd=seed)
        git("-c", "user.name=dev", "-c", "user.email=dev@example.com", "commit", "--quiet", "-m", "planted",
            cwd=seed)
        git("push", "--quiet", "origin", "main", cwd=seed)
        self.recordings = os.path.join(self.root, "recordings")
        os.makedirs(self.recordings)
        os.symlink(RECORDING, os.path.join(self.recordings, "gpu-a"))
        os.symlink(EXEC_RECORDING, os.path.join(self.recordings, "gpu-b"))

    def tearDown(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def refresh_command(self):
        return (f"{sys.executable} {DRIVER} refresh --partitions gpu-a,gpu-b --baseline-dir {BASELINES} "
                f"--work {self.root}/slurm-work --runner {RUNNER} --summary \"$CG_OUT/refresh-summary.md\" "
                f"-- baseline update partitions/{{partition}} --from-recording {self.recordings}/{{partition}}")

    def environment(self):
        return dict(self.project.environment(), SLURM_CONF=os.path.join(CLUSTER, "slurm.conf"))

    def assert_one_proposal_of_both_partitions(self, body):
        branch = self.project.branch_sha("counterguard/baseline-refresh")
        changed = git("diff", "--name-only", "main", branch, cwd=self.project.origin).split("\n")
        self.assertEqual(sorted(changed), [f"{BASELINES}/{KEY}/coalescing.yaml", f"{BASELINES}/{KEY}/exec_demo.yaml"])
        self.assertIn("`coalescing` on", body)
        self.assertIn("`exec_demo` on", body)

    def test_the_github_nightly_action_proposes_every_partitions_change_in_one_pull_request(self):
        workspace = self.project.checkout()
        github = {"repository": "acme/kernels", "sha": git("rev-parse", "HEAD", cwd=workspace),
                  "server_url": "https://github.com", "run_id": 7, "event_name": "schedule",
                  "ref": "refs/heads/main", "ref_name": "main", "workflow": "counterguard nightly baselines",
                  "job": "refresh", "token": "ghs_job_token", "event": {"repository": {"default_branch": "main"}}}
        environment = dict(self.environment(), CG_STUB_GITHUB_HOST="github.com")
        job = template_runner.github_job(workspace, github, environment, tempfile.mkdtemp(dir=self.root))
        records, outputs = job.run_action(os.path.join(SOURCE, "ci", "github", "nightly"), {
            "runner": RUNNER, "baseline-dir": BASELINES, "refresh": self.refresh_command(),
            "token": "github_pat_bot"})
        for record in records:
            self.assertNotEqual(record.status, "failure", record.detail)
        self.assertEqual(outputs["proposal"], "opened")
        (pull,) = self.project.stub_state("github")["pulls"]
        self.assert_one_proposal_of_both_partitions(pull["body"])

    def test_the_gitlab_nightly_component_proposes_every_partitions_change_in_one_merge_request(self):
        workspace = self.project.checkout()
        variables = {"CI_PIPELINE_SOURCE": "schedule", "COUNTERGUARD_NIGHTLY": "true", "CI_PROJECT_ID": "99",
                     "CI_SERVER_URL": "https://gitlab.example.com", "CI_DEFAULT_BRANCH": "main",
                     "CI_JOB_URL": "https://gitlab.example.com/acme/kernels/-/jobs/5",
                     "CI_REPOSITORY_URL": self.project.origin, "COUNTERGUARD_GITLAB_TOKEN": "glpat-bot",
                     "CI_COMMIT_SHA": git("rev-parse", "HEAD", cwd=workspace), "CI_JOB_NAME": "counterguard-nightly"}
        jobs = template_runner.load_gitlab_include(os.path.join(SOURCE, "templates", "nightly.yml"), {
            "runner": RUNNER, "baseline-dir": BASELINES, "refresh": self.refresh_command()})
        result = template_runner.run_gitlab_job(jobs, "counterguard-nightly", workspace, variables, self.environment())
        self.assertEqual(result.status, 0, result.output)
        self.assertEqual(read_text(os.path.join(workspace, "counterguard-out", "proposal")).strip(), "opened")
        (mr,) = self.project.stub_state("gitlab")["mrs"]
        self.assert_one_proposal_of_both_partitions(mr["description"])


class job_scripts(unittest.TestCase):
    @unittest.skipIf(shutil.which("shellcheck") is None, "shellcheck is not installed (tools/setup.sh installs it)")
    def test_the_job_scripts_and_the_cluster_scripts_pass_shellcheck(self):
        scripts = [os.path.join(SOURCE, "ci", "slurm", n) for n in sorted(os.listdir(os.path.join(SOURCE, "ci", "slurm")))
                   if n.endswith(".sbatch")]
        scripts += [os.path.join(HERE, n) for n in ("start_slurm.sh", "stop_slurm.sh")]
        done = subprocess.run(["shellcheck", "--shell=bash", "--severity=warning", *scripts], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, check=False)
        self.assertEqual(done.returncode, 0, done.stdout)


def stop_cluster(*_):
    if CLUSTER:
        subprocess.run([os.path.join(HERE, "stop_slurm.sh"), CLUSTER], check=False)
        shutil.rmtree(CLUSTER, ignore_errors=True)


def main():
    global COUNTERGUARD, CLUSTER
    parser = argparse.ArgumentParser()
    parser.add_argument("--counterguard", default=COUNTERGUARD)
    arguments, rest = parser.parse_known_args()
    COUNTERGUARD = os.path.abspath(arguments.counterguard)
    ci_fixtures.COUNTERGUARD = COUNTERGUARD  # the user project's runner wraps this one
    if os.getuid() != 0:
        print("test_slurm_fleet: skipped: slurmd runs jobs as their user and must be root")
        return 77
    CLUSTER = tempfile.mkdtemp(prefix="cg-slurm-cluster-")
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, lambda signum, frame: (stop_cluster(), sys.exit(128 + signum)))
    try:
        started = subprocess.run([os.path.join(HERE, "start_slurm.sh"), CLUSTER, "--watch", str(os.getpid())],
                                 check=False)
        if started.returncode != 0:
            return started.returncode
        program = unittest.main(argv=[sys.argv[0], *rest], exit=False, verbosity=2)
        return 0 if program.result.wasSuccessful() else 1
    finally:
        stop_cluster()


if __name__ == "__main__":
    sys.exit(main())
