#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""counterguard on a Slurm cluster, called from a CI job (GitLab with a Slurm executor or Jacamar CI, a GitHub
runner on a login node): the gate as a job array, one shard per task on one GPU, and a dependent merge job; the
nightly refresh as one job per GPU partition and a dependent job that combines them into one baselines change.
Each waits with `sbatch --wait` on the last job and exits with its status. Python 3 standard library only.

  counterguard_slurm.py gate --shards N --results DIR [options] -- MEASURE...
      MEASURE: `run SUITES... --require-gpu [...]` or `evaluate RECORDING [...]` (the runner's arguments without
      --shard and --json). Exit status: the merge's (0 passed, 1 failed, 2 a shard missing or invalid input).
      --local runs the same task scripts as processes on this machine, without Slurm.
  counterguard_slurm.py refresh --partitions P1,P2 --baseline-dir DIR --work DIR [options] -- UPDATE...
      UPDATE: `baseline update SUITES... --repeat 5 [...]`. Exit status: 0 when every partition refreshed and
      the baselines were combined into --baseline-dir, else non-zero with --baseline-dir unchanged.
  counterguard_slurm.py combine WORK_DIR BASELINE_DIR PARTITION=JOB_ID... [--summary F]
      the combine job's step (ci/slurm/refresh-combine.sbatch); also usable alone.

Results and work directories must be on a file system every node of the jobs sees (docs/scaling.md). The jobs
start in the directory the driver runs in (sbatch's default), so relative paths in MEASURE and UPDATE mean the
same to them.
"""
import argparse
import filecmp
import os
import re
import shutil
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GATE_SHARD = os.path.join(HERE, "gate-shard.sbatch")
GATE_MERGE = os.path.join(HERE, "gate-merge.sbatch")
REFRESH_PARTITION = os.path.join(HERE, "refresh-partition.sbatch")
REFRESH_COMBINE = os.path.join(HERE, "refresh-combine.sbatch")


class Refusal(Exception):
    """Invalid input or a state the command cannot continue from (exit status 2)."""


def log(message):
    print(f"counterguard_slurm: {message}", file=sys.stderr, flush=True)


def fresh_directory(path, what):
    """Creates `path`; refuses one that already holds files (an earlier run's shards would be merged)."""
    if os.path.isdir(path) and os.listdir(path):
        raise Refusal(f"{what} {path} already holds {sorted(os.listdir(path))[0]}: give every run a directory "
                      f"of its own (e.g. one named after the CI job id), so that no earlier run's files count")
    os.makedirs(path, exist_ok=True)
    os.makedirs(os.path.join(path, "logs"), exist_ok=True)


def job_id(parsable):
    """The job id of `sbatch --parsable` output ("123" or "123;cluster")."""
    first = parsable.strip().splitlines()[0] if parsable.strip() else ""
    match = re.fullmatch(r"(\d+)(;.*)?", first.strip())
    if not match:
        raise Refusal(f"sbatch answered '{parsable.strip()}', not a job id")
    return match.group(1)


def sbatch(arguments):
    """Submits a job and returns its id."""
    command = ["sbatch", "--parsable", *arguments]
    log("+ " + " ".join(command))
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        raise Refusal(f"sbatch failed (exit status {done.returncode}): {done.stderr.strip()}")
    return job_id(done.stdout)


def sbatch_and_wait(arguments, cancel_also):
    """Submits the last job with --wait and returns its exit status; a CI job cancelled meanwhile (SIGTERM,
    SIGINT) cancels that job and `cancel_also`, so that nothing keeps a GPU for a pipeline that is gone."""
    command = ["sbatch", "--parsable", "--wait", *arguments]
    log("+ " + " ".join(command))
    waiting = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    submitted = []

    def cancel(signum, _frame):
        jobs = [*cancel_also, *submitted]
        log(f"signal {signum}: cancelling jobs {' '.join(jobs)}")
        subprocess.run(["scancel", *jobs], check=False)
        waiting.terminate()
        sys.exit(128 + signum)

    previous = {s: signal.signal(s, cancel) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    try:
        line = waiting.stdout.readline()
        if line.strip():
            submitted.append(job_id(line))
            log(f"waiting for job {submitted[0]}")
        waiting.stdout.read()
        status = waiting.wait()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if not submitted:
        raise Refusal(f"sbatch --wait failed (exit status {status})")
    return status


def runner_path(runner):
    """The runner as the jobs find it: a path made absolute, or a command name looked up on PATH."""
    if os.sep in runner:
        return os.path.abspath(runner)
    found = shutil.which(runner)
    if found is None:
        raise Refusal(f"--runner {runner}: not on PATH; give its path (e.g. build/counterguard)")
    return found


def show_log(path):
    if os.path.isfile(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            sys.stderr.write(f.read())


# ---------------------------------------------------------------------------------------------------- gate


def gate(arguments):
    if not arguments.measure:
        raise Refusal("no MEASURE after --: e.g. `-- run cases --require-gpu` or `-- evaluate RECORDING`")
    if arguments.shards < 1:
        raise Refusal(f"--shards {arguments.shards}: give 1 or more")
    results = os.path.abspath(arguments.results)
    runner = runner_path(arguments.runner)
    fresh_directory(results, "--results")
    measure = arguments.measure
    if arguments.local:
        return gate_locally(arguments, results, runner, measure)

    count = arguments.shards
    shard_options = [f"--array=0-{count - 1}", f"--output={results}/logs/shard-%a.log",
                     f"--gres={arguments.gres}", *arguments.sbatch_option]
    if arguments.partition:
        shard_options.append(f"--partition={arguments.partition}")
    if arguments.time:
        shard_options.append(f"--time={arguments.time}")
    array = sbatch([*shard_options, GATE_SHARD, results, str(count), runner, *measure])
    log(f"job array {array}: shard I/{count} is task {array}_<I-1>")
    merge_options = [f"--dependency=afterany:{array}", "--kill-on-invalid-dep=yes",
                     f"--output={results}/logs/merge.log", *arguments.sbatch_option]
    if arguments.merge_partition:
        merge_options.append(f"--partition={arguments.merge_partition}")
    status = sbatch_and_wait([*merge_options, GATE_MERGE, results, str(count), runner, array,
                              *arguments.merge_argument], [array])
    show_log(os.path.join(results, "logs", "merge.log"))
    report(results, status)
    return status


def gate_locally(arguments, results, runner, measure):
    """The array's tasks as processes of this machine (a GPU host without Slurm), then the merge: the same
    scripts, with the variables Slurm would set. --local-gpus deals CUDA_VISIBLE_DEVICES out round-robin; without
    it every shard sees the GPUs this process sees, and counterguard's GPU lock queues the shards on each."""
    gpus = [g for g in arguments.local_gpus.split(",") if g] if arguments.local_gpus else []
    tasks = []
    for task in range(arguments.shards):
        environment = dict(os.environ, SLURM_ARRAY_JOB_ID="local", SLURM_ARRAY_TASK_ID=str(task))
        if gpus:
            environment["CUDA_VISIBLE_DEVICES"] = gpus[task % len(gpus)]
        output = open(os.path.join(results, "logs", f"shard-{task}.log"), "w", encoding="utf-8")
        command = ["bash", GATE_SHARD, results, str(arguments.shards), runner, *measure]
        tasks.append((task, subprocess.Popen(command, env=environment, stdout=output, stderr=subprocess.STDOUT),
                      output))
    for task, process, output in tasks:
        status = process.wait()
        output.close()
        log(f"shard {task + 1}/{arguments.shards} exited with status {status}")
    command = ["bash", GATE_MERGE, results, str(arguments.shards), runner, "-", *arguments.merge_argument]
    with open(os.path.join(results, "logs", "merge.log"), "w", encoding="utf-8") as output:
        status = subprocess.run(command, stdout=output, stderr=subprocess.STDOUT, check=False).returncode
    show_log(os.path.join(results, "logs", "merge.log"))
    report(results, status)
    return status


def report(results, status):
    summary = os.path.join(results, "summary.md")
    if os.path.isfile(summary):
        log(f"merged results in {results}: results.json, junit.xml, summary.md, report.html (exit status {status})")
    else:
        log(f"no merged results (exit status {status}); the tasks' logs are in {results}/logs")


# ---------------------------------------------------------------------------------------------------- refresh


def refresh(arguments):
    if not arguments.update:
        raise Refusal("no UPDATE after --: e.g. `-- baseline update cases --repeat 5`")
    partitions = [p for p in arguments.partitions.split(",") if p]
    if not partitions:
        raise Refusal("--partitions is empty: name the GPU partitions, one per GPU kind (e.g. a100,h100)")
    if len(set(partitions)) != len(partitions):
        raise Refusal(f"--partitions {arguments.partitions} names a partition twice")
    work = os.path.abspath(arguments.work)
    baseline_dir = os.path.abspath(arguments.baseline_dir)
    runner = runner_path(arguments.runner)
    fresh_directory(work, "--work")
    # The snapshot every partition starts from, and what the combine compares each partition's copy with.
    if os.path.isdir(baseline_dir):
        shutil.copytree(baseline_dir, os.path.join(work, "base"), symlinks=True)
    else:
        os.makedirs(os.path.join(work, "base"))
    jobs = []
    for partition in partitions:
        options = [f"--partition={partition}", f"--job-name=counterguard-refresh-{partition}",
                   f"--output={work}/logs/refresh-{partition}.log", f"--gres={arguments.gres}",
                   *arguments.sbatch_option]
        if arguments.time:
            options.append(f"--time={arguments.time}")
        jobs.append((partition, sbatch([*options, REFRESH_PARTITION, work, partition, runner, *arguments.update])))
        log(f"job {jobs[-1][1]}: the refresh on partition {partition}")
    combine_options = [f"--dependency=afterany:{':'.join(j for _, j in jobs)}", "--kill-on-invalid-dep=yes",
                       f"--output={work}/logs/combine.log", *arguments.sbatch_option]
    if arguments.merge_partition:
        combine_options.append(f"--partition={arguments.merge_partition}")
    summary = [f"--summary={os.path.abspath(arguments.summary)}"] if arguments.summary else []
    status = sbatch_and_wait([*combine_options, REFRESH_COMBINE, os.path.abspath(__file__), work, baseline_dir,
                              *[f"{p}={j}" for p, j in jobs], *summary], [j for _, j in jobs])
    show_log(os.path.join(work, "logs", "combine.log"))
    return status


def slurm_state(job):
    """What scontrol still knows of a job: 'JobState=FAILED ExitCode=1:0 Reason=...', or ''."""
    if not job or shutil.which("scontrol") is None:
        return ""
    done = subprocess.run(["scontrol", "--oneliner", "show", "job", job], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True, check=False)
    return " ".join(re.findall(r"(?:JobState|ExitCode|Reason)=\S+", done.stdout))


def files_under(directory):
    """The files under `directory`, as paths relative to it."""
    found = []
    for root, _, names in os.walk(directory):
        found.extend(os.path.relpath(os.path.join(root, n), directory) for n in names)
    return sorted(found)


def combine(arguments):
    work = os.path.abspath(arguments.work)
    baseline_dir = os.path.abspath(arguments.baseline_dir)
    base = os.path.join(work, "base")
    if not os.path.isdir(base):
        raise Refusal(f"{base} is missing: the snapshot the partitions started from (written by `refresh`)")
    partitions = []
    for item in arguments.partitions:
        name, _, job = item.partition("=")
        partitions.append((name, job))

    # 1. Every partition must have finished its refresh; otherwise nothing lands.
    incomplete = []
    for name, job in partitions:
        if not os.path.isfile(os.path.join(work, "partitions", name, "complete")):
            state = slurm_state(job)
            incomplete.append(f"{name} (job {job or '?'}{': ' + state if state else ''}; log: "
                              f"{work}/logs/refresh-{name}.log)")
    if incomplete:
        raise Refusal("the refresh did not complete on partition " + ", ".join(incomplete) +
                      f"; {baseline_dir} is left as it was (no partial baselines): rerun the nightly refresh")

    # 2. The files each partition's refresh wrote (a refresh rewrites a file only when a value or band changed):
    #    baselines/<gpu-key>/<suite>.yaml and .lines.json. One partition per file.
    owner = {}
    for name, _ in partitions:
        refreshed = os.path.join(work, "partitions", name, "baselines")
        for relative in files_under(refreshed):
            before = os.path.join(base, relative)
            if os.path.isfile(before) and filecmp.cmp(before, os.path.join(refreshed, relative), shallow=False):
                continue
            if relative in owner:
                raise Refusal(f"partitions {owner[relative]} and {name} both refreshed {relative}: give one "
                              f"partition per GPU kind (GPUs of one key share one baseline); {baseline_dir} is "
                              f"left as it was")
            owner[relative] = name

    # 3. Each changed file copied next to its place, then renamed into it (a reader sees the old file or the new).
    staged = []
    for relative, name in sorted(owner.items()):
        target = os.path.join(baseline_dir, relative)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(work, "partitions", name, "baselines", relative), target + ".combine.tmp")
        staged.append(target)
    for target in staged:
        os.replace(target + ".combine.tmp", target)

    # 4. One summary: each partition's change summary under its name and keys.
    parts = []
    for name, _ in partitions:
        keys = sorted({os.path.dirname(f) or f for f, n in owner.items() if n == name})
        heading = f"## Partition {name}: " + (", ".join(f"`{k}`" for k in keys) if keys else "no value changed")
        path = os.path.join(work, "partitions", name, "summary.md")
        text = open(path, encoding="utf-8").read().strip() if os.path.isfile(path) else ""
        parts.append(heading + ("\n\n" + text if text else ""))
    summary = "\n\n".join(parts) + "\n"
    for destination in [os.path.join(work, "summary.md"), *([arguments.summary] if arguments.summary else [])]:
        with open(destination + ".tmp", "w", encoding="utf-8") as f:
            f.write(summary)
        os.replace(destination + ".tmp", destination)
    changed = ", ".join(f"{f} (from {n})" for f, n in sorted(owner.items())) or "none"
    log(f"combined {len(partitions)} partitions into {baseline_dir}; files changed: {changed}")
    return 0


# ---------------------------------------------------------------------------------------------------- main


def add_sbatch_options(parser, jobs):
    parser.add_argument("--runner", default="build/counterguard",
                        help="the counterguard program (your counterguard_add_runner target); default %(default)s")
    parser.add_argument("--gres", default="gpu:1",
                        help=f"the GPUs of each {jobs} job (sbatch --gres); default %(default)s "
                             "(e.g. gpu:h100:1 for typed GRES, gpu:4 with `--devices all`)")
    parser.add_argument("--time", help=f"time limit of each {jobs} job (sbatch --time)")
    parser.add_argument("--merge-partition", help="partition of the job that needs no GPU (default: sbatch's)")
    parser.add_argument("--sbatch-option", action="append", default=[], metavar="OPTION",
                        help="an sbatch option for every job, e.g. --sbatch-option=--account=gpu-ci (repeatable)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)

    gate_parser = commands.add_parser("gate", help="the gate as a job array and a merge job")
    gate_parser.add_argument("--shards", type=int, required=True, help="N: one array task per shard")
    gate_parser.add_argument("--results", required=True,
                             help="a new directory on a shared file system: shard-I.json, results.json, reports, logs")
    gate_parser.add_argument("--partition", help="the GPU partition of the shards")
    gate_parser.add_argument("--merge-argument", action="append", default=[], metavar="OPTION",
                             help="an option for `counterguard merge` (--strict, --history=DB; repeatable)")
    gate_parser.add_argument("--local", action="store_true",
                             help="no Slurm: the tasks are processes of this machine")
    gate_parser.add_argument("--local-gpus", help="with --local: CUDA_VISIBLE_DEVICES values dealt to the tasks")
    add_sbatch_options(gate_parser, "shard")
    gate_parser.add_argument("measure", nargs=argparse.REMAINDER, help="-- MEASURE...")

    refresh_parser = commands.add_parser("refresh", help="one baseline update per GPU partition, then one change")
    refresh_parser.add_argument("--partitions", required=True, help="GPU partitions, one per GPU kind: a100,h100")
    refresh_parser.add_argument("--baseline-dir", required=True, help="the checkout's baselines/<gpu-key>/ folder")
    refresh_parser.add_argument("--work", required=True,
                                help="a new directory on a shared file system: the partitions' copies and logs")
    refresh_parser.add_argument("--summary", help="also write the combined change summary (Markdown) here")
    add_sbatch_options(refresh_parser, "partition")
    refresh_parser.add_argument("update", nargs=argparse.REMAINDER, help="-- UPDATE...")

    combine_parser = commands.add_parser("combine", help="the partitions' refreshed GPU keys into one change")
    combine_parser.add_argument("work")
    combine_parser.add_argument("baseline_dir")
    combine_parser.add_argument("partitions", nargs="+", metavar="PARTITION=JOB_ID")
    combine_parser.add_argument("--summary")

    arguments = parser.parse_args()
    for name in ("measure", "update"):
        values = getattr(arguments, name, None)
        if values and values[0] == "--":
            setattr(arguments, name, values[1:])
    try:
        return {"gate": gate, "refresh": refresh, "combine": combine}[arguments.command](arguments)
    except Refusal as refusal:
        log(str(refusal))
        return 2


if __name__ == "__main__":
    sys.exit(main())
