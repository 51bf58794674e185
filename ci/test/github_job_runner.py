# SPDX-License-Identifier: Apache-2.0
"""Runs GitHub composite actions (ci/github/*/action.yml) step by step on this machine, as one job would.

`run:` steps run with `bash --noprofile --norc -eo pipefail`, with GITHUB_OUTPUT / GITHUB_ENV / GITHUB_STEP_SUMMARY
as files; `uses:` steps are emulated with the inputs each version takes: actions/upload-artifact and
download-artifact (v3, v4: a folder per workflow run holds the artifacts; v4 refuses a name uploaded twice),
actions/cache/restore and save (v3, v4: a folder per repository holds the entries; `cache-hit` on an exact key),
and mikepenz/action-junit-report (a check run).
"""

import fnmatch
import os
import shutil
import subprocess
import tempfile

import yaml

from github_expressions import as_text, evaluate_condition, expression_context, substitute
from template_error import TemplateError


def _parse_command_file(path):
    """name=value lines and name<<DELIMITER heredocs, as GITHUB_OUTPUT and GITHUB_ENV hold them."""
    values = {}
    if not os.path.exists(path):
        return values
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            collected = []
            while i < len(lines) and lines[i] != delimiter:
                collected.append(lines[i])
                i += 1
            i += 1
            values[name] = "\n".join(collected)
        elif "=" in line:
            name, value = line.split("=", 1)
            values[name] = value
        else:
            raise TemplateError(f"malformed line in {path}: '{line}'")
    return values


class github_step_record:
    def __init__(self, name, kind, status, detail):
        self.name, self.kind, self.status, self.detail = name, kind, status, detail

    def __repr__(self):
        return f"<step {self.name!r} {self.kind} {self.status}>"


class github_job:
    """One job's state across the composite actions it runs: the workspace, files, environment.

    run_store: the workflow run's artifacts (jobs of one run share it; default: this job's own);
    cache_store: the repository's Actions cache (default: this job's own);
    tool_cache: the runner machine's RUNNER_TOOL_CACHE (default: this job's own)."""

    def __init__(self, workspace, github, base_env, scratch, run_store=None, cache_store=None, tool_cache=None):
        self.workspace, self.github, self.base_env, self.scratch = workspace, github, dict(base_env), scratch
        self.summary = os.path.join(scratch, "step_summary.md")
        open(self.summary, "w").close()
        self.runner = {"temp": os.path.join(scratch, "runner_temp"), "os": "Linux"}
        os.makedirs(self.runner["temp"], exist_ok=True)
        self.run_store = run_store or os.path.join(scratch, "run_artifacts")
        self.cache_store = cache_store or os.path.join(scratch, "actions_cache")
        self.tool_cache = tool_cache or os.path.join(scratch, "tool_cache")
        for directory in (self.run_store, self.cache_store, self.tool_cache):
            os.makedirs(directory, exist_ok=True)
        self.job_env = {}
        self.failed = False
        self.log = []
        self.artifacts = {}  # name -> list of files uploaded
        self.check_runs = []
        self.scripts = []  # every bash script run, for shellcheck

    def environment(self, step_env):
        env = dict(self.base_env)
        env.update({
            "GITHUB_WORKSPACE": self.workspace, "GITHUB_STEP_SUMMARY": self.summary,
            "GITHUB_REPOSITORY": self.github["repository"], "GITHUB_SHA": self.github["sha"],
            "GITHUB_SERVER_URL": self.github["server_url"], "GITHUB_RUN_ID": str(self.github["run_id"]),
            "GITHUB_EVENT_NAME": self.github["event_name"], "GITHUB_REF": self.github["ref"],
            "RUNNER_TEMP": self.runner["temp"], "RUNNER_TOOL_CACHE": self.tool_cache, "CI": "true",
            "GITHUB_ACTIONS": "true",
        })
        env.update(self.job_env)
        env.update(step_env)
        return env

    def run_action(self, action_path, with_inputs):
        """Runs the composite action in `action_path` (a directory with action.yml) with these inputs."""
        with open(os.path.join(action_path, "action.yml"), encoding="utf-8") as f:
            action = yaml.safe_load(f)
        if action.get("runs", {}).get("using") != "composite":
            raise TemplateError(f"{action_path}: not a composite action")
        declared = action.get("inputs", {}) or {}
        unknown = set(with_inputs) - set(declared)
        if unknown:
            raise TemplateError(f"{action_path}: unknown inputs {sorted(unknown)}")
        steps = {}
        defaults_context = expression_context({}, self.github, steps, {}, self.runner, self.failed)
        inputs = {}
        for name, spec in declared.items():
            if name in with_inputs:
                inputs[name] = as_text(with_inputs[name])
            elif spec.get("required"):
                raise TemplateError(f"{action_path}: required input '{name}' not given")
            else:
                inputs[name] = substitute(spec.get("default", ""), defaults_context)
        records = []
        for index, step in enumerate(action["runs"]["steps"]):
            name = step.get("name", f"step {index}")
            context = expression_context(inputs, self.github, steps, self.job_env, self.runner, self.failed)
            if not evaluate_condition(step.get("if"), context):
                records.append(github_step_record(name, "run" if "run" in step else "uses", "skipped", None))
                continue
            if "run" in step:
                if step.get("shell") != "bash":
                    raise TemplateError(f"{action_path}: step '{name}' must say shell: bash")
                step_env = {k: substitute(v, context) for k, v in (step.get("env") or {}).items()}
                script = substitute(step["run"], context)
                status, outputs, output_text = self._run_bash(script, step_env)
                if step.get("id"):
                    steps[step["id"]] = outputs
                records.append(github_step_record(name, "run", "success" if status == 0 else "failure",
                                                  {"status": status, "output": output_text, "env": step_env}))
                if status != 0:
                    self.failed = True
            elif "uses" in step:
                with_values = {k: substitute(v, context) for k, v in (step.get("with") or {}).items()}
                detail, outputs = self._use_action(step["uses"], with_values)
                if step.get("id"):
                    steps[step["id"]] = outputs
                records.append(github_step_record(name, "uses", "success", detail))
            else:
                raise TemplateError(f"{action_path}: step '{name}' has neither run nor uses")
        outputs = {}
        final_context = expression_context(inputs, self.github, steps, self.job_env, self.runner, self.failed)
        for name, spec in (action.get("outputs") or {}).items():
            outputs[name] = substitute(spec.get("value", ""), final_context)
        self.log.extend(records)
        return records, outputs

    def _run_bash(self, script, step_env):
        handle, path = tempfile.mkstemp(suffix=".sh", dir=self.runner["temp"])
        with os.fdopen(handle, "w") as f:
            f.write(script)
        self.scripts.append(script)
        output_file = os.path.join(self.runner["temp"], "github_output")
        env_file = os.path.join(self.runner["temp"], "github_env")
        for f in (output_file, env_file):
            open(f, "w").close()
        env = self.environment(step_env)
        env["GITHUB_OUTPUT"], env["GITHUB_ENV"] = output_file, env_file
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", path], cwd=self.workspace,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
        self.job_env.update(_parse_command_file(env_file))
        return done.returncode, _parse_command_file(output_file), done.stdout

    # The inputs each version of the emulated actions takes (from their action.yml files).
    ACTION_INPUTS = {
        "actions/upload-artifact@v3": {"name", "path", "if-no-files-found", "retention-days"},
        "actions/upload-artifact@v4": {"name", "path", "if-no-files-found", "retention-days", "compression-level",
                                       "overwrite", "include-hidden-files"},
        "actions/download-artifact@v3": {"name", "path"},
        "actions/download-artifact@v4": {"name", "path", "pattern", "merge-multiple", "github-token", "repository",
                                         "run-id"},
        "actions/cache/restore@v3": {"path", "key", "restore-keys", "enableCrossOsArchive", "fail-on-cache-miss",
                                     "lookup-only"},
        "actions/cache/restore@v4": {"path", "key", "restore-keys", "enableCrossOsArchive", "fail-on-cache-miss",
                                     "lookup-only"},
        "actions/cache/save@v3": {"path", "key", "upload-chunk-size", "enableCrossOsArchive"},
        "actions/cache/save@v4": {"path", "key", "upload-chunk-size", "enableCrossOsArchive"},
        "mikepenz/action-junit-report@v5": {"report_paths", "check_name", "token", "commit", "require_tests"},
    }

    def _use_action(self, uses, with_values):
        """The actions the templates use, checked for what they would read; anything else is an error.
        Returns the step's record and its outputs."""
        if uses not in self.ACTION_INPUTS:
            raise TemplateError(f"the test runner does not know the action '{uses}'")
        unknown = set(with_values) - self.ACTION_INPUTS[uses]
        if unknown:
            raise TemplateError(f"{uses} has no inputs {sorted(unknown)}")
        name, version = uses.split("@")
        detail = {"uses": uses, "with": with_values}
        if name == "actions/upload-artifact":
            path = os.path.join(self.workspace, with_values["path"])
            files = []
            if os.path.isdir(path):
                for root, _, names in os.walk(path):
                    files += [os.path.relpath(os.path.join(root, n), path) for n in names]
            elif os.path.isfile(path):
                files = [os.path.basename(path)]
            if not files and with_values.get("if-no-files-found", "warn") == "error":
                raise TemplateError(f"upload-artifact: nothing at {path}")
            artifact = with_values.get("name", "artifact")
            stored = os.path.join(self.run_store, artifact)
            if version == "v4" and os.path.exists(stored) and with_values.get("overwrite") != "true":
                raise TemplateError(f"upload-artifact@v4: an artifact named '{artifact}' exists in this run")
            for f in files:
                source = path if os.path.isfile(path) else os.path.join(path, f)
                os.makedirs(os.path.dirname(os.path.join(stored, f)), exist_ok=True)
                shutil.copyfile(source, os.path.join(stored, f))
            self.artifacts[artifact] = sorted(files)
            return dict(detail, files=sorted(files)), {}
        if name == "actions/download-artifact":
            target = os.path.join(self.workspace, with_values.get("path") or ".")
            stored = sorted(os.listdir(self.run_store))
            if with_values.get("name"):
                if with_values["name"] not in stored:
                    raise TemplateError(f"download-artifact: no artifact '{with_values['name']}' in this run")
                shutil.copytree(os.path.join(self.run_store, with_values["name"]), target, dirs_exist_ok=True)
                return dict(detail, artifacts=[with_values["name"]]), {"download-path": target}
            # Without a name: every artifact (v4: those matching `pattern`), each in a folder named after it.
            chosen = [a for a in stored if fnmatch.fnmatchcase(a, with_values.get("pattern") or "*")]
            for artifact in chosen:
                shutil.copytree(os.path.join(self.run_store, artifact), os.path.join(target, artifact),
                                dirs_exist_ok=True)
            return dict(detail, artifacts=chosen), {"download-path": target}
        if name in ("actions/cache/restore", "actions/cache/save"):
            paths = [p.strip() for p in with_values["path"].split("\n") if p.strip()]
            entry = os.path.join(self.cache_store, with_values["key"])
            if name == "actions/cache/restore":
                hit = os.path.isdir(entry)
                if hit:
                    shutil.copytree(entry, self.workspace, dirs_exist_ok=True, symlinks=True)
                return dict(detail, hit=hit), {"cache-hit": "true" if hit else "false",
                                               "cache-primary-key": with_values["key"],
                                               "cache-matched-key": with_values["key"] if hit else ""}
            if os.path.isdir(entry):  # entries are immutable: the action warns and keeps the first
                return dict(detail, saved=False), {}
            for p in paths:
                source = os.path.join(self.workspace, p)
                if os.path.isdir(source):
                    shutil.copytree(source, os.path.join(entry, p), symlinks=True)
                elif os.path.isfile(source):
                    os.makedirs(os.path.dirname(os.path.join(entry, p)), exist_ok=True)
                    shutil.copy2(source, os.path.join(entry, p))
            return dict(detail, saved=os.path.isdir(entry)), {}
        # mikepenz/action-junit-report
        report = os.path.join(self.workspace, with_values["report_paths"])
        if not os.path.isfile(report):
            raise TemplateError(f"action-junit-report: no file {report}")
        with open(report, encoding="utf-8") as f:
            self.check_runs.append({"with": with_values, "xml": f.read()})
        return detail, {}
