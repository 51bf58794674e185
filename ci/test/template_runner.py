# SPDX-License-Identifier: Apache-2.0
"""Runs the shell steps of counterguard's CI templates on this machine, in order, the way the CI service would.

The tests import this module; the work is split by concern: github_expressions (`${{ }}` expressions and step
conditions), github_job_runner (GitHub composite actions and the actions they use), gitlab_job_runner (GitLab CI/CD
components), and shellcheck here for the scripts either runs. An expression, input or context the runner does not
know is an error (TemplateError), so a template cannot use something that the tests do not exercise.
"""

import shutil
import subprocess

from github_expressions import evaluate, evaluate_condition, expression_context, substitute
from github_job_runner import github_job, github_step_record
from gitlab_job_runner import (expand_variables, gitlab_job_result, gitlab_rule_matches, included_template,
                               load_gitlab_include, run_gitlab_job)
from template_error import TemplateError

__all__ = ["TemplateError", "evaluate", "evaluate_condition", "expand_variables", "expression_context",
           "github_job", "github_step_record", "gitlab_job_result", "gitlab_rule_matches", "included_template",
           "load_gitlab_include", "run_gitlab_job", "shellcheck", "substitute"]


def shellcheck(script, label):
    """Problems shellcheck finds in a bash script (empty when clean or when shellcheck is missing)."""
    if shutil.which("shellcheck") is None:
        return ""
    done = subprocess.run(["shellcheck", "--shell=bash", "--severity=warning", "-"], input=script, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    return "" if done.returncode == 0 else f"{label}:\n{done.stdout}"
