// SPDX-License-Identifier: Apache-2.0
#pragma once
// Options that several commands share, added the same way to each and described once in docs/cli.md
// ("Common options").

#include <string>
#include <vector>

#include "counterguard/exec/replay_mode.hpp"
#include "counterguard/pipeline/case_selection.hpp"
#include "counterguard/pipeline/device_choice.hpp"
#include "counterguard/pipeline/exec_run.hpp"
#include "counterguard/pipeline/judgement.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace counterguard::detail {

// The suites, positional in every command that reads them: suite files or directories of *.yaml.
CLI::Option* add_suite_paths(CLI::App& command, std::vector<std::string>& paths, const std::string& help);
// `--cases PATH...`, the earlier spelling of the suites of exec, evaluate and static --binary; kept working.
void add_cases_alias(CLI::App& command, std::vector<std::string>& paths);

// Suite paths (positional), --filter, --chip.
void add_selection_options(CLI::App& command, selection_options& selection);
// --filter PATTERN alone (a glob, or regex:EXPR).
void add_filter_option(CLI::App& command, std::string& filter);

// --replay-mode auto|kernel|application, for the commands that profile a program's launches (exec,
// baseline update -- PROGRAM).
void add_replay_mode_option(CLI::App& command, replay_mode& mode);

// --json, --junit, --markdown, --markdown-limit, --html, --csv, --export, --quiet and, with baselines,
// --baseline-dir, --no-baselines, --false-alarm-rate, --strict, --history.
void add_report_options(CLI::App& command, report_options& reports, bool with_baselines);
// --fail-fast.
void add_fail_fast_option(CLI::App& command, report_options& reports);

// --device N or --devices all|0,1,... (docs/scaling.md). device_options::device_given is set when the command
// runs (device_given_on).
void add_device_options(CLI::App& command, device_options& devices);
// Whether --device was on the command line of `command` (else ctest's assignment wins).
[[nodiscard]] bool device_given_on(const CLI::App& command);

// --shard I/N and the results files (--cost-from) it is balanced by.
void add_shard_options(CLI::App& command, std::vector<std::string>& cost_from, std::string& shard,
                       const std::string& cost_help);

// --wait-for-gpu SECONDS.
void add_gpu_wait_option(CLI::App& command, double& seconds, const std::string& help);

// `exec`'s --blame, --blame-top and --blame-external (exec_blame_options.cpp).
void add_exec_blame_options(CLI::App& command, exec_options& options);

// The help of a --json option: the same words in every command.
[[nodiscard]] std::string json_option_help(const std::string& what);

}  // namespace counterguard::detail
