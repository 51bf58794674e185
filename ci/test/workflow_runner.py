# SPDX-License-Identifier: Apache-2.0
"""Runs one job of a user's GitHub workflow (.github/workflows/*.yml) on this machine, step by step, the way the
CI service would, with template_runner executing the composite actions it uses.

A job may have `needs`, a job-level `if` and a `strategy.matrix`: the test runs the jobs in the order their `needs`
give and decides the job-level `if` (job_condition); the matrix values of one job are given as `matrix`.
A job's steps may be `actions/checkout` (the test's workspace is the checkout; `submodules: true` puts the
submodules the test names in place), a local composite action (`uses: ./path`, read from the workspace), or a
remote one (`uses: OWNER/REPO/path@REF`, read from the directory the test maps OWNER/REPO to). `with:` values
are evaluated (`${{ }}` with the github, secrets, env, runner and steps contexts); a test may override inputs
(the build, the measurement) and says which. `if:` is evaluated; after a failed step, steps without `if:` are
skipped. A job key, step kind or action this module does not know is an error, so a workflow cannot use
something the tests do not exercise.
"""

import os
import re

import yaml

import template_runner

JOB_KEYS = {"runs-on", "timeout-minutes", "concurrency", "steps", "permissions", "name", "needs", "if", "strategy"}
STEP_KEYS = {"uses", "with", "name", "id", "if"}


class secrets_context(template_runner.expression_context):
    """The expression context plus `secrets.NAME` (a secret the test does not give is empty, as on GitHub) and
    `matrix.NAME` (the job's matrix values; a name the job's matrix lacks is an error)."""

    def __init__(self, secrets, matrix, *arguments):
        super().__init__(*arguments)
        self.secrets, self.matrix = secrets, matrix

    def lookup(self, name):
        parts = name.split(".")
        if parts[0] == "secrets":
            if len(parts) != 2:
                raise template_runner.TemplateError(f"only secrets.<name> is supported, not '{name}'")
            return self.secrets.get(parts[1], "")
        if parts[0] == "matrix":
            if len(parts) != 2 or parts[1] not in self.matrix:
                raise template_runner.TemplateError(f"the job's matrix has no '{name}' (it has {sorted(self.matrix)})")
            return str(self.matrix[parts[1]])
        return super().lookup(name)


def job_condition(workflow_path, job_id, needed_results):
    """Whether job `job_id` runs, given the results ("success", "failure", "cancelled", "skipped") of the jobs
    it needs. As on GitHub, a job without `if:` runs only when every needed job succeeded; `if:` may use the
    status functions (success(), failure(), always(), cancelled()) and `!`, `&&`, `||`."""
    definition = load_workflow(workflow_path)["jobs"][job_id]
    needs = definition.get("needs", [])
    needs = [needs] if isinstance(needs, str) else needs
    if sorted(needs) != sorted(needed_results):
        raise template_runner.TemplateError(f"{workflow_path}: job '{job_id}' needs {needs}, the test gave "
                                            f"{sorted(needed_results)}")
    results = set(needed_results.values())
    functions = {"success()": results <= {"success"}, "failure()": "failure" in results,
                 "always()": True, "cancelled()": "cancelled" in results}
    condition = str(definition.get("if", "success()")).strip()
    if condition.startswith("${{") and condition.endswith("}}"):
        condition = condition[3:-2].strip()
    if not re.search(r"\b(success|failure|always|cancelled)\(", condition):
        condition = f"success() && ({condition})"
    text = condition
    for function, value in functions.items():
        text = text.replace(function, " True " if value else " False ")
    text = text.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    text = text.replace("(", " ( ").replace(")", " ) ")
    if set(text.split()) - {"True", "False", "and", "or", "not", "(", ")"}:
        raise template_runner.TemplateError(f"{workflow_path}: job '{job_id}' has `if: {condition}`; the test "
                                            "evaluates only status functions")
    return eval(text, {"__builtins__": {}})  # noqa: S307  (only True, False, and, or, not, parentheses)


def matrix_values(workflow_path, job_id):
    """Every combination of the job's `strategy.matrix` (one axis supported), e.g. [{"shard": 1}, ...]; [{}]
    for a job without a matrix."""
    strategy = load_workflow(workflow_path)["jobs"][job_id].get("strategy")
    if not strategy:
        return [{}]
    matrix = strategy["matrix"]
    if len(matrix) != 1:
        raise template_runner.TemplateError(f"{workflow_path}: job '{job_id}': the test supports a one-axis matrix")
    ((axis, values),) = matrix.items()
    return [{axis: value} for value in values]


def load_workflow(path):
    """The workflow as a dict, with its triggers under "on" (YAML 1.1 reads the bare key `on` as true)."""
    with open(path, encoding="utf-8") as f:
        workflow = yaml.safe_load(f)
    if True in workflow:
        workflow["on"] = workflow.pop(True)
    return workflow


class step_result:
    def __init__(self, index, uses, status, inputs=None, records=None, outputs=None):
        self.index, self.uses, self.status = index, uses, status
        self.inputs, self.records, self.outputs = inputs, records or [], outputs or {}

    def __repr__(self):
        return f"<workflow step {self.index} {self.uses} {self.status}>"


def run_workflow_job(job, workflow_path, job_id, secrets=None, overrides=None, submodules=None, remote=None,
                     matrix=None):
    """Runs job `job_id` of the workflow in `job` (a template_runner.github_job whose workspace is the checkout).

    overrides: {action directory name: {input: value}}, applied on top of the step's evaluated `with:`.
    submodules: {path in the workspace: directory} that a checkout with `submodules: true` puts in place.
    remote: {"OWNER/REPO": directory} for `uses: OWNER/REPO/path@REF`.
    matrix: this job's values of its `strategy.matrix` (matrix_values).
    Returns the step results in order."""
    workflow = load_workflow(workflow_path)
    definition = workflow["jobs"][job_id]
    unknown = set(definition) - JOB_KEYS
    if unknown:
        raise template_runner.TemplateError(f"{workflow_path}: job '{job_id}' uses {sorted(unknown)}")
    overrides, submodules, remote, secrets = overrides or {}, submodules or {}, remote or {}, secrets or {}
    matrix = matrix or {}
    results, steps = [], {}
    for index, step in enumerate(definition["steps"]):
        unknown = set(step) - STEP_KEYS
        if unknown or "uses" not in step:
            raise template_runner.TemplateError(f"{workflow_path}: step {index} has {sorted(step)}; supported: "
                                                f"{sorted(STEP_KEYS)} with uses")
        context = secrets_context(secrets, matrix, {}, job.github, steps, job.job_env, job.runner, job.failed)
        if not template_runner.evaluate_condition(step.get("if"), context):
            results.append(step_result(index, step["uses"], "skipped"))
            continue
        inputs = {k: template_runner.substitute(v, context) for k, v in (step.get("with") or {}).items()}
        uses = step["uses"]
        if uses.split("@")[0] == "actions/checkout":
            if set(inputs) - {"submodules"}:
                raise template_runner.TemplateError(f"{workflow_path}: checkout with {sorted(inputs)}")
            if inputs.get("submodules") == "true":
                for path, target in submodules.items():
                    os.makedirs(os.path.dirname(os.path.join(job.workspace, path)), exist_ok=True)
                    os.symlink(target, os.path.join(job.workspace, path))
            results.append(step_result(index, uses, "success", inputs))
            continue
        if uses.startswith("./"):
            directory = os.path.join(job.workspace, uses[2:])
        else:
            name, _, ref = uses.partition("@")
            parts = name.split("/")
            owner_repo, rest = "/".join(parts[:2]), "/".join(parts[2:])
            if owner_repo not in remote or not ref:
                raise template_runner.TemplateError(f"{workflow_path}: the test maps no repository for '{uses}'")
            directory = os.path.join(remote[owner_repo], rest)
        if not os.path.isfile(os.path.join(directory, "action.yml")):
            raise template_runner.TemplateError(f"{workflow_path}: no action at '{uses}' ({directory})")
        inputs.update(overrides.get(os.path.basename(os.path.normpath(directory)), {}))
        records, outputs = job.run_action(directory, inputs)
        if step.get("id"):
            steps[step["id"]] = outputs
        failed = any(r.status == "failure" for r in records)
        results.append(step_result(index, uses, "failure" if failed else "success", inputs, records, outputs))
    return results
