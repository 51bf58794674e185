#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the relative links of Markdown files: each target exists, and each #anchor names a heading of the
target page as GitHub spells it (lowercase; punctuation but '-' and '_' dropped; spaces to '-'; a repeated
heading gets -1, -2, ...) or an HTML id/name in it. External links (http:, https:, mailto:) are not fetched.

    tools/check_doc_links.py FILE_OR_DIRECTORY...      (directories: their *.md files, not recursively)

Exits 1 listing every broken link as FILE:LINE: TARGET: why.
"""
import pathlib
import re
import sys
import urllib.parse

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
INLINE_CODE = re.compile(r"`+[^`]*`+")
# [text](target "title") and ![alt](target); the text may hold one level of brackets.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*(\S+)")
HTML_ANCHOR = re.compile(r"<a\s+[^>]*(?:id|name)=\"([^\"]+)\"", re.I)


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def github_anchor(heading):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading keeps its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors_of(path, cache={}):
    if path not in cache:
        found = set()
        counts = {}
        for _, line in prose_lines(path.read_text(encoding="utf-8")):
            match = HEADING.match(line)
            if match:
                anchor = github_anchor(match.group(2))
                seen = counts.get(anchor, 0)
                counts[anchor] = seen + 1
                found.add(anchor if seen == 0 else f"{anchor}-{seen}")
            found.update(HTML_ANCHOR.findall(line))
        cache[path] = found
    return cache[path]


def broken_links(page):
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        prose = INLINE_CODE.sub("", line)
        targets = [m.group(1) for m in LINK.finditer(prose)] + [m.group(1) for m in REFERENCE.finditer(prose)]
        for target in targets:
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # http:, https:, mailto:
            address, _, anchor = target.partition("#")
            destination = (page.parent / urllib.parse.unquote(address)).resolve() if address else page.resolve()
            if not destination.exists():
                yield f"{page}:{number}: {target}: no such file or directory"
                continue
            if anchor and destination.is_file() and destination.suffix == ".md":
                if urllib.parse.unquote(anchor).lower() not in anchors_of(destination):
                    yield f"{page}:{number}: {target}: no heading '#{anchor}' in {destination.name}"


def main(arguments):
    if not arguments:
        raise SystemExit(__doc__)
    pages = []
    for argument in arguments:
        path = pathlib.Path(argument)
        if not path.exists():
            raise SystemExit(f"{path}: no such file or directory")
        pages.extend(sorted(path.glob("*.md")) if path.is_dir() else [path])
    problems = [problem for page in pages for problem in broken_links(page)]
    for problem in problems:
        print(problem)
    print(f"{len(pages)} pages, {len(problems)} broken links")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
