# SPDX-License-Identifier: Apache-2.0
"""Runs GitLab CI/CD components (templates/*.yml) on this machine, one job at a time, as the GitLab runner would.

The spec:inputs header gives the defaults, `$[[ inputs.x ]]` is interpolated into the jobs (a value that is only an
interpolation takes the input's type), `rules: if:` is evaluated against the pipeline's variables, `variables:` are
expanded, and the script items run in one bash shell with `set -eo pipefail`.
"""

import json
import os
import re
import subprocess
import tempfile

import yaml

from template_error import TemplateError


def load_gitlab_include(path, given_inputs):
    """The jobs of an include file with spec:inputs, interpolated with `given_inputs` (the rest: defaults)."""
    with open(path, encoding="utf-8") as f:
        documents = list(yaml.safe_load_all(f))
    if len(documents) != 2 or "spec" not in documents[0]:
        raise TemplateError(f"{path}: expected a spec:inputs header, ---, then the jobs")
    specs = documents[0]["spec"].get("inputs", {})
    unknown = set(given_inputs) - set(specs)
    if unknown:
        raise TemplateError(f"{path}: unknown inputs {sorted(unknown)}")
    values = {}
    for name, spec in specs.items():
        spec = spec or {}
        if name in given_inputs:
            values[name] = given_inputs[name]
        elif "default" in spec:
            values[name] = spec["default"]
        else:
            raise TemplateError(f"{path}: input '{name}' is required")
        kind = spec.get("type", "string")
        if "options" in spec and values[name] not in spec["options"]:
            raise TemplateError(f"{path}: input '{name}' is {values[name]!r}; options: {spec['options']}")
        checks = {"string": str, "number": (int, float), "boolean": bool, "array": list}
        if not isinstance(values[name], checks[kind]) or (kind == "number" and isinstance(values[name], bool)):
            raise TemplateError(f"{path}: input '{name}' must be a {kind}, got {values[name]!r}")

    def as_text(value):
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, list):
            return json.dumps(value)
        return str(value)

    pattern = re.compile(r"\$\[\[\s*inputs\.([A-Za-z0-9_-]+)\s*\]\]")

    def interpolate(node):
        if isinstance(node, dict):
            return {interpolate(k): interpolate(v) for k, v in node.items()}
        if isinstance(node, list):
            return [interpolate(v) for v in node]
        if isinstance(node, str):
            for found in pattern.findall(node):
                if found not in values:
                    raise TemplateError(f"{path}: unknown input '{found}'")
            whole = pattern.fullmatch(node.strip())
            if whole:
                return values[whole.group(1)]
            return pattern.sub(lambda m: as_text(values[m.group(1)]), node)
        return node

    if "$[[" in json.dumps(documents[1]).replace("$[[ inputs.", ""):
        raise TemplateError(f"{path}: an interpolation other than $[[ inputs.x ]]")
    return interpolate(documents[1])


def included_template(entry, source):
    """The file in counterguard's checkout `source` that an `include:` entry names: a CI/CD component
    (`component: HOST/GROUP/PROJECT/NAME@VERSION`: templates/NAME.yml, or templates/NAME/template.yml) or a
    project file (`project:` with `file:`)."""
    if "component" in entry:
        address, at, version = entry["component"].partition("@")
        parts = address.split("/")
        if not at or not version or len(parts) < 4:
            raise TemplateError(f"component '{entry['component']}' is not HOST/GROUP/PROJECT/NAME@VERSION")
        name = parts[-1]
        for candidate in (os.path.join(source, "templates", name + ".yml"),
                          os.path.join(source, "templates", name, "template.yml")):
            if os.path.isfile(candidate):
                return candidate
        raise TemplateError(f"no component '{name}' in {os.path.join(source, 'templates')}")
    if "project" in entry and "file" in entry and "ref" in entry:
        path = os.path.join(source, entry["file"].lstrip("/"))
        if not os.path.isfile(path):
            raise TemplateError(f"no file {entry['file']} in {source}")
        return path
    raise TemplateError(f"include entry {entry} names neither a component nor a project file at a ref")


_GITLAB_TOKEN = re.compile(r"\s*(?:(?P<variable>\$[A-Za-z_][A-Za-z0-9_]*)|(?P<string>\"[^\"]*\"|'[^']*')"
                           r"|(?P<op>==|!=|&&|\|\||\(|\)))")


def gitlab_rule_matches(expression, variables):
    """Evaluates a `rules: if:` expression: $VAR, "strings", ==, !=, &&, ||, parentheses."""
    tokens, at = [], 0
    while at < len(expression) and expression[at:].strip():
        match = _GITLAB_TOKEN.match(expression, at)
        if not match:
            raise TemplateError(f"cannot read the rule '{expression}' at '{expression[at:]}'")
        tokens.append((match.lastgroup, match.group(match.lastgroup)))
        at = match.end()
    position = [0]

    def peek():
        return tokens[position[0]][1] if position[0] < len(tokens) else None

    def take():
        position[0] += 1
        return tokens[position[0] - 1]

    def operand():
        kind, text = take()
        if text == "(":
            value = disjunction()
            if take()[1] != ")":
                raise TemplateError(f"unbalanced parentheses in '{expression}'")
            return value
        if kind == "variable":
            return variables.get(text[1:])
        if kind == "string":
            return text[1:-1]
        raise TemplateError(f"unexpected '{text}' in '{expression}'")

    def comparison():
        left = operand()
        if peek() in ("==", "!="):
            op = take()[1]
            right = operand()
            return (left == right) if op == "==" else (left != right)
        if isinstance(left, bool):  # a parenthesised expression
            return left
        return left not in (None, "")

    def conjunction():
        value = comparison()
        while peek() == "&&":
            take()
            right = comparison()
            value = value and right
        return value

    def disjunction():
        value = conjunction()
        while peek() == "||":
            take()
            right = conjunction()
            value = value or right
        return value

    result = disjunction()
    if position[0] != len(tokens):
        raise TemplateError(f"unexpected '{peek()}' in '{expression}'")
    return bool(result)


def expand_variables(text, variables):
    """$NAME and ${NAME} from `variables` (unknown: empty), as GitLab expands variables in variables."""
    return re.sub(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))",
                  lambda m: variables.get(m.group(1) or m.group(2), ""), str(text))


class gitlab_job_result:
    def __init__(self, ran, status, output, script):
        self.ran, self.status, self.output, self.script = ran, status, output, script


def run_gitlab_job(jobs, job_name, workspace, pipeline_variables, base_env):
    """Runs one job of an interpolated include if its rules match the pipeline's variables."""
    job = jobs[job_name]
    rules = job.get("rules")
    if rules is not None:
        if not any(gitlab_rule_matches(rule["if"], pipeline_variables) for rule in rules if "if" in rule):
            return gitlab_job_result(False, None, "", "")
    variables = dict(pipeline_variables)
    declared = {}
    for extended in ([job["extends"]] if isinstance(job.get("extends"), str) else job.get("extends", [])):
        declared.update(jobs[extended].get("variables") or {})
    declared.update(job.get("variables") or {})
    for name, value in declared.items():
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise TemplateError(f"{job_name}: variable {name} is {value!r}; GitLab takes strings and numbers")
        variables[name] = expand_variables(value, variables)
    items = (job.get("before_script") or []) + job["script"]
    script = "set -eo pipefail\n" + "\n".join(items) + "\n"
    env = dict(base_env)
    env.update({k: str(v) for k, v in variables.items()})
    handle, path = tempfile.mkstemp(suffix=".sh")
    with os.fdopen(handle, "w") as f:
        f.write(script)
    try:
        done = subprocess.run(["bash", "--noprofile", "--norc", path], cwd=workspace, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    finally:
        os.unlink(path)
    return gitlab_job_result(True, done.returncode, done.stdout, script)
