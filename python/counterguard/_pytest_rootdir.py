# SPDX-License-Identifier: Apache-2.0
"""pytest chooses its rootdir (and with it the ini file, the node ids and the paths it reports) before it knows a
plugin's options, so the value of `--counterguard-from-recording DIR`, written as a word of its own, counts as a
test path there: a DIR outside the project moves the rootdir, and the session silently loses the project's ini
file (its `counterguard_baselines` among them) and judges under other node ids. `--option=DIR` is not mistaken
for a path. The check asks pytest's own rule again, now that the options are known, and refuses a session whose
rootdir one of counterguard's values moved."""

import copy
import inspect
import os

import pytest

# The options whose value names a file or a folder.
PATH_OPTIONS = ("--counterguard-baselines", "--counterguard-json", "--counterguard-markdown", "--counterguard-html",
                "--counterguard-save-counter-data", "--counterguard-from-recording")


def _separate_path_values(args):
    """(option, value) for each path option written with its existing value as the next word."""
    return [(option, value) for option, value in zip(args, args[1:])
            if option in PATH_OPTIONS and os.path.exists(value)]


def _rootdir_by_pytest_rule(config, args):
    """The rootdir pytest's rule gives for `args` with every option known; None where this pytest's internals
    differ from those this was written against (the check is then left out, never a false refusal)."""
    try:
        from _pytest.config.findpaths import determine_setup

        known, unknown = config._parser.parse_known_and_unknown_args(args, namespace=copy.copy(config.option))
        wanted = {"inifile": known.inifilename, "args": list(known.file_or_dir) + list(unknown),
                  "rootdir_cmd_arg": known.rootdir or None, "config": config,
                  "invocation_dir": config.invocation_params.dir}
        parameters = inspect.signature(determine_setup).parameters
        rootdir = determine_setup(**{name: value for name, value in wanted.items() if name in parameters})[0]
        return os.path.realpath(rootdir)
    except Exception:  # noqa: BLE001  a private API of pytest: any change in it disables the check
        return None


def check_rootdir(config):
    """A pytest.UsageError when a counterguard option's value, written as a separate word, moved pytest's
    rootdir away from the one the same command line with `--option=VALUE` gives."""
    args = [*os.environ.get("PYTEST_ADDOPTS", "").split(), *config.invocation_params.args]
    separate = _separate_path_values(args)
    if not separate:
        return
    expected = _rootdir_by_pytest_rule(config, args)
    if expected is None or expected == os.path.realpath(config.rootpath):
        return
    joined = ", ".join(f"{option}={value}" for option, value in separate)
    raise pytest.UsageError(
        f"counterguard: pytest took {', '.join(repr(value) for _, value in separate)} for a test path when it chose "
        f"its rootdir ({config.rootpath} instead of {expected}), so this session would lose the project's ini file "
        f"and node ids; write {joined} (with '=')")
