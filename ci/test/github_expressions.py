# SPDX-License-Identifier: Apache-2.0
"""GitHub Actions `${{ }}` expressions and step conditions, as the composite actions use them.

Contexts: inputs, github, steps, env, runner; operators ||, &&, ==, !=, !; functions success(), failure(),
always(), cancelled(). A context or function this module does not know is an error (TemplateError).
"""

import re

from template_error import TemplateError


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


def as_text(value):
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
            equal = as_text(value).lower() == as_text(right).lower()
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
        return as_text(text)
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: as_text(evaluate(m.group(1), context)), text)


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
