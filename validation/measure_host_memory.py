#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Peak host memory (resident set, from wait4's rusage) and wall time of counterguard's host-side commands for
suites of N generated case instances (validation/generate_scale_suite.py), to check that memory stays flat in the
number of cases: a fixed start-up cost plus a small amount per case (the results kept for the reports), with
nothing quadratic.

A CPU measurement: without a GPU, `run` profiles nothing. Its worker loads the suites, reads the request and
reports that there is no GPU; the parent then runs the static checks and writes every report, as on a GPU host
after profiling. The peak of `run` is that of the parent or its worker, whichever is larger (wait4 folds in
the children a process waited for); `worker` is the worker started alone with a request for all N instances.

    validation/measure_host_memory.py build/counterguard [--sizes 10 100 1000] [--markdown table.md]
"""
import argparse
import fcntl
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent


def measure(command, cwd, pass_event_fd=False):
    """Runs `command`; returns (exit status, peak RSS in MiB, wall seconds)."""
    started = time.monotonic()
    kwargs = {}
    read_end = None
    if pass_event_fd:
        # The worker writes its events to descriptor 3: give it a pipe there and drain it.
        raw_read, write_end = os.pipe()
        read_end = fcntl.fcntl(raw_read, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(raw_read)
        if write_end != 3:
            os.dup2(write_end, 3)
            os.close(write_end)
        kwargs["pass_fds"] = (3,)
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kwargs)
    if pass_event_fd:
        os.close(3)
        with os.fdopen(read_end, "rb") as events:
            events.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.stderr.read()
    seconds = time.monotonic() - started
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss / 1024.0, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("counterguard", type=pathlib.Path, help="the counterguard binary")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--markdown", type=pathlib.Path, help="also write the table here")
    args = parser.parse_args()
    binary = str(args.counterguard.resolve())
    rows = {}
    with tempfile.TemporaryDirectory(prefix="counterguard-memory-") as scratch:
        scratch = pathlib.Path(scratch)
        for n in args.sizes:
            suite = scratch / f"scale{n}.yaml"
            subprocess.run([sys.executable, str(HERE / "generate_scale_suite.py"), str(n), str(suite)], check=True)
            out = scratch / f"out{n}"
            out.mkdir()
            reports = ["--json", str(out / "r.json"), "--junit", str(out / "r.xml"), "--markdown",
                       str(out / "r.md"), "--html", str(out / "r.html")]
            names = subprocess.run([binary, "list", str(suite)], capture_output=True, text=True, check=True)
            request = scratch / f"request{n}.json"
            instances = names.stdout.split()
            request.write_text(json.dumps({
                "suite_paths": [str(suite)], "instances": instances, "archive_indices": list(range(len(instances))),
                "extra_metrics": [], "save_counter_data_dir": "", "device": 0, "wait_for_gpu_seconds": 0}))
            commands = {
                "list": [binary, "list", str(suite)],
                "static + reports": [binary, "static", str(suite), "--quiet"] + reports,
                "run + reports": [binary, "run", str(suite), "--quiet"] + reports,
                "run --devices all": [binary, "run", str(suite), "--quiet", "--devices", "all"] + reports,
                "run --shard 1/2": [binary, "run", str(suite), "--quiet", "--shard", "1/2", "--json",
                                    str(out / "s1.json")],
                "run --shard 2/2": [binary, "run", str(suite), "--quiet", "--shard", "2/2", "--json",
                                    str(out / "s2.json")],
                "merge + reports": [binary, "merge", "--quiet", "--json", str(out / "m.json"), "--junit",
                                    str(out / "m.xml"), "--markdown", str(out / "m.md"), "--html",
                                    str(out / "m.html"), str(out / "s2.json"), str(out / "s1.json")],
            }
            for name, command in commands.items():
                status, mib, seconds = measure(command, scratch)
                if status != 0:
                    sys.exit(f"{name} ({n} instances) exited with {status}: {' '.join(command)}")
                rows.setdefault(name, {})[n] = (mib, seconds)
            status, mib, seconds = measure([binary, "__worker", str(request)], scratch, pass_event_fd=True)
            rows.setdefault("worker (alone)", {})[n] = (mib, seconds)
            print(f"{n} instances measured", file=sys.stderr)

    sizes = args.sizes
    header = "| command | " + " | ".join(f"{n} instances" for n in sizes) + f" | per instance ({sizes[-2]} to {sizes[-1]}) |"
    lines = [header, "|---" * (len(sizes) + 2) + "|"]
    for name, by_size in rows.items():
        cells = [f"{by_size[n][0]:.1f} MiB, {by_size[n][1]:.2f} s" for n in sizes]
        slope = (by_size[sizes[-1]][0] - by_size[sizes[-2]][0]) * 1024 / (sizes[-1] - sizes[-2])
        lines.append(f"| `{name}` | " + " | ".join(cells) + f" | {slope:.1f} KiB |")
    table = "\n".join(lines) + "\n"
    print(table)
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(table)


if __name__ == "__main__":
    main()
