#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The nightly templates' refresh step in the CPU tests (no GPU can run `counterguard baseline update` here):
edits the baseline files the way a refresh's results would, so that the templates' real decision
(`counterguard baseline diff`) and their pull-request handling can be tested night after night.

  refresh_standin.py DIR [--redate STAMP] [--set SUITE OLD NEW]... [--new-key KEY]

--redate rewrites every file's metadata date and git_commit (what every refresh would change);
--set replaces the first OLD text of DIR/GH100-132sm-cuda13/SUITE.yaml by NEW (a value that moved);
--new-key copies every suite under DIR/KEY/ with that GPU key (the first refresh on a new kind of GPU)."""
import argparse
import os
import re

KEY = "GH100-132sm-cuda13"
parser = argparse.ArgumentParser()
parser.add_argument("directory")
parser.add_argument("--redate")
parser.add_argument("--set", nargs=3, action="append", default=[], metavar=("SUITE", "OLD", "NEW"))
parser.add_argument("--new-key")
arguments = parser.parse_args()
home = os.path.join(arguments.directory, KEY)


def edit(path, change):
    text = open(path, encoding="utf-8").read()
    open(path, "w", encoding="utf-8").write(change(text))


if arguments.redate:
    for name in sorted(os.listdir(home)):
        edit(os.path.join(home, name), lambda t: re.sub(r"git_commit: \w+", "git_commit: " + "ab" * 20,
                                                          re.sub(r"date: \S+", "date: " + arguments.redate, t)))
for suite, old, new in arguments.set:
    def replace(text, old=old, new=new, suite=suite):
        if old not in text:
            raise SystemExit(f"refresh_standin: '{old}' is not in {suite}.yaml")
        return text.replace(old, new, 1)
    edit(os.path.join(home, suite + ".yaml"), replace)
if arguments.new_key:
    target = os.path.join(arguments.directory, arguments.new_key)
    os.makedirs(target, exist_ok=True)
    for name in sorted(os.listdir(home)):
        text = open(os.path.join(home, name), encoding="utf-8").read().replace(KEY, arguments.new_key)
        open(os.path.join(target, name), "w", encoding="utf-8").write(text)
