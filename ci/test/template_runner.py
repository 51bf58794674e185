# SPDX-License-Identifier: Apache-2.0
"""Runs the shell steps of counterguard's CI templates on this machine, in order, the way the CI service would.

GitHub composite actions (ci/github/*/action.yml): each step's `if:` and `${{ }}` expressions are evaluated
(inputs, github, steps, env, runner contexts; ||, &&, ==, !=, !, success(), failure(), always(), cancelled()),
`run:` steps run with `bash --noprofile --norc -eo pipefail` and GITHUB_OUTPUT / GITHUB_ENV / GITHUB_STEP_SUMMARY
as files; `uses:` steps are recorded with their evaluated `with:` and checked for the files they would read.
The actions the templates use are emulated with the inputs each version takes: actions/upload-artifact and
download-artifact (v3, v4: a folder per workflow run holds the artifacts; v4 refuses a name uploaded twice),
actions/cache/restore and save (v3, v4: a folder per repository holds the entries; `cache-hit` on an exact key),
and mikepenz/action-junit-report (a check run).

GitLab CI/CD components (templates/*.yml): the spec:inputs header gives the defaults, `$[[ inputs.x ]]` is interpolated
into the job (a value that is only an interpolation takes the input's type), `rules: if:` is evaluated against
the pipeline's variables, `variables:` are expanded, and the script items run in one bash shell with
`set -eo pipefail`, as the GitLab runner does.

An expression, input or context this module does not know is an error, so a template cannot use something
that the tests do not exercise.
"""

import fnmatch
import json
import os
import re
import shutil
import subprocess
import tempfile

import yaml


class TemplateError(Exception):
    """The template uses something this runner does not support, or names an unknown input."""


# ---------------------------------------------------------------------------------------------------------------
# GitHub expressions
# ---------------------------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(?P<string>'(?:[^']|'')*')|(?P<number>-?\d+(?:\.\d+)?)|(?P<op>\|\||&&|==|!=|!|\(|\)|,)"
                    r"|(?P<name>[A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_*][A-Za-z0-9_-]*)*))")


def _tokens(text):
    at, found = 0, []
    while at < len(text):
        if text[at:].strip() == "":
            break
        match = _TOKEN.match(text, at)
        if not match:
            raise TemplateError(f"cannot read the expression '{text}' at '{text[at:]}'")
        kind = match.lastgroup
        found.append((kind, match.group(kind)))
        at = match.end()
    return found


def _truthy(value):
    return value not in (None, False, 0, "", 0.0)


def _text(value):
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


class expression_context:
    """What `${{ }}` can read: the action's inputs, the github, steps, env and runner contexts, the job status."""

    def __init__(self, inputs, github, steps, env, runner, job_failed):
        self.inputs, self.github, self.steps, self.env, self.runner = inputs, github, steps, env, runner
        self.job_failed = job_failed

    def lookup(self, name):
        parts = name.split(".")
        head, rest = parts[0], parts[1:]
        if head == "inputs":
            if len(rest) != 1 or rest[0] not in self.inputs:
                raise TemplateError(f"unknown input '{name}' (declared: {sorted(self.inputs)})")
            return self.inputs[rest[0]]
        if head == "steps":
            if len(rest) != 3 or rest[1] != "outputs":
                raise TemplateError(f"only steps.<id>.outputs.<name> is supported, not '{name}'")
            return self.steps.get(rest[0], {}).get(rest[2])
        if head == "env":
            return self.env.get(rest[0]) if len(rest) == 1 else None
        if head == "runner":
            if len(rest) != 1 or rest[0] not in self.runner:
                raise TemplateError(f"unknown runner context '{name}'")
            return self.runner[rest[0]]
        if head == "github":
            value = self.github
            for i, part in enumerate(rest):
                if not isinstance(value, dict) or part not in value:
                    # Inside the event payload a missing field is null (a push has no pull_request); elsewhere
                    # the test must provide what the template reads.
                    if rest[:1] == ["event"] and i >= 1:
                        return None
                    raise TemplateError(f"the test gives no value for '{name}'")
                value = value[part]
            return value
        raise TemplateError(f"unsupported context '{name}'")


class _parser:
    def __init__(self, tokens, context):
        self.tokens, self.at, self.context = tokens, 0, context

    def peek(self):
        return self.tokens[self.at] if self.at < len(self.tokens) else (None, None)

    def take(self, expected=None):
        token = self.peek()
        if expected is not None and token[1] != expected:
            raise TemplateError(f"expected '{expected}', found '{token[1]}'")
        self.at += 1
        return token

    def parse(self):
        value = self.disjunction()
        if self.at != len(self.tokens):
            raise TemplateError(f"unexpected '{self.peek()[1]}' in an expression")
        return value

    def disjunction(self):
        value = self.conjunction()
        while self.peek()[1] == "||":
            self.take()
            right = self.conjunction()
            value = value if _truthy(value) else right
        return value

    def conjunction(self):
        value = self.comparison()
        while self.peek()[1] == "&&":
            self.take()
            right = self.comparison()
            value = right if _truthy(value) else value
        return value

    def comparison(self):
        value = self.unary()
        while self.peek()[1] in ("==", "!="):
            op = self.take()[1]
            right = self.unary()
            # GitHub compares strings case-insensitively; these templates compare strings only.
            equal = _text(value).lower() == _text(right).lower()
            value = equal if op == "==" else not equal
        return value

    def unary(self):
        if self.peek()[1] == "!":
            self.take()
            return not _truthy(self.unary())
        return self.primary()

    def primary(self):
        kind, text = self.take()
        if text == "(":
            value = self.disjunction()
            self.take(")")
            return value
        if kind == "string":
            return text[1:-1].replace("''", "'")
        if kind == "number":
            return float(text)
        if kind == "name":
            if text in ("true", "false"):
                return text == "true"
            if text == "null":
                return None
            if self.peek()[1] == "(":
                self.take("(")
                self.take(")")
                statuses = {"always": True, "cancelled": False, "success": not self.context.job_failed,
                            "failure": self.context.job_failed}
                if text not in statuses:
                    raise TemplateError(f"unsupported function '{text}()'")
                return statuses[text]
            return self.context.lookup(text)
        raise TemplateError(f"unexpected '{text}' in an expression")


def evaluate(expression, context):
    return _parser(_tokens(expression), context).parse()


def substitute(text, context):
    """Replaces every ${{ expression }} in `text` by its value as text."""
    if not isinstance(text, str):
        return _text(text)
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: _text(evaluate(m.group(1), context)), text)


def evaluate_condition(condition, context):
    """A step's `if:`; as on GitHub, one that calls no status function (success(), failure(), always(),
    cancelled()) is `success() && (condition)`: after a failed step it is false."""
    if condition is None:
        return not context.job_failed
    if isinstance(condition, bool):
        return condition and not context.job_failed
    text = condition.strip()
    if text.startswith("${{") and text.endswith("}}"):
        text = text[3:-2]
    if not re.search(r"\b(success|failure|always|cancelled)\s*\(", text):
        text = f"success() && ({text})"
    return _truthy(evaluate(text, context))


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
                inputs[name] = _text(with_inputs[name])
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


# ---------------------------------------------------------------------------------------------------------------
# GitLab includes
# ---------------------------------------------------------------------------------------------------------------

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


def shellcheck(script, label):
    """Problems shellcheck finds in a bash script (empty when clean or when shellcheck is missing)."""
    if shutil.which("shellcheck") is None:
        return ""
    done = subprocess.run(["shellcheck", "--shell=bash", "--severity=warning", "-"], input=script, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    return "" if done.returncode == 0 else f"{label}:\n{done.stdout}"
