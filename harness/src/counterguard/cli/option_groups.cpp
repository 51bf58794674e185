// SPDX-License-Identifier: Apache-2.0
#include "detail/option_groups.hpp"

#include <CLI/CLI.hpp>
#include <map>

namespace counterguard::detail {

std::string json_option_help(const std::string& what) {
  return "write " + what + " as JSON to FILE ('-': standard output, which then holds the JSON alone)";
}

CLI::Option* add_suite_paths(CLI::App& command, std::vector<std::string>& paths, const std::string& help) {
  return command.add_option("suites", paths, help)->type_name("SUITE");
}

void add_cases_alias(CLI::App& command, std::vector<std::string>& paths) {
  command.add_option("--cases", paths, "the same as the suites given positionally (the earlier spelling)")
      ->type_name("SUITE");
}

void add_filter_option(CLI::App& command, std::string& filter) {
  command.add_option("--filter", filter,
                     "only case instances whose name matches: a glob (* any run of characters) or regex:EXPR "
                     "(an ECMAScript regular expression found anywhere in the name)");
}

void add_replay_mode_option(CLI::App& command, replay_mode& mode) {
  const std::map<std::string, replay_mode> modes{{"auto", replay_mode::automatic},
                                                 {"kernel", replay_mode::kernel},
                                                 {"application", replay_mode::application}};
  command
      .add_option(
          "--replay-mode", mode,
          "how counters needing several passes are collected: kernel (one run; each launch replayed, device "
          "memory restored between passes), application (one run of the program per pass group, one pass "
          "a launch), auto (one run; each multi-pass launch is replayed while that stays cheaper than "
          "running "
          "the program again, by the memory it holds and the run's length; otherwise the rest by further "
          "runs)")
      ->transform(CLI::CheckedTransformer(modes))
      ->default_str("kernel");
}

void add_selection_options(CLI::App& command, selection_options& selection) {
  add_suite_paths(command, selection.paths, "suite files or directories of *.yaml (default: cases)");
  add_filter_option(command, selection.filter);
  command.add_option("--chip", selection.chip, "chip that raw CUPTI metric names are validated for")
      ->capture_default_str();
}

void add_report_options(CLI::App& command, report_options& reports, bool with_baselines) {
  command.add_option("--json", reports.files.json, json_option_help("the results"))->type_name("FILE");
  command
      .add_option("--junit", reports.files.junit, "write JUnit XML to FILE (one testcase per case instance)")
      ->type_name("FILE");
  command
      .add_option("--markdown", reports.files.markdown,
                  "write a Markdown summary to FILE (CI job summary, PR comment)")
      ->type_name("FILE");
  command
      .add_option("--markdown-limit", reports.files.markdown_limit,
                  "most characters the Markdown summary may hold (0: no limit; GitHub takes 65536)")
      ->capture_default_str();
  command
      .add_option("--html", reports.files.html,
                  "write a self-contained HTML report to FILE (failures first, every check, trend plots)")
      ->type_name("FILE");
  command.add_option("--csv", reports.files.csv, "write every check and measured value as CSV to FILE")
      ->type_name("FILE");
  command
      .add_option("--export", reports.files.exports,
                  "write the measured values for a benchmark dashboard: bencher (Bencher Metric Format), "
                  "github-action-benchmark (customSmallerIsBetter), github-action-benchmark-bigger "
                  "(customBiggerIsBetter); repeatable")
      ->type_name("FORMAT FILE")
      // One pair per occurrence, so that the arguments after it stay positional (merge's inputs).
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      .add_option("--annotations", reports.files.annotations,
                  "write the failing checks placed on their blamed source lines and suite lines: github "
                  "(workflow commands: `cat FILE` in a step annotates the pull request), gitlab-code-quality "
                  "(a Code Quality report), sarif (SARIF 2.1.0); repeatable")
      ->type_name("FORMAT FILE")
      // One pair per occurrence, so that the arguments after it stay positional (merge's inputs).
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command
      .add_option("--annotations-limit", reports.files.annotation_limit,
                  "github: most annotations before one that says how many more there are (GitHub shows 10 "
                  "per step; 0: no limit)")
      ->capture_default_str();
  command
      .add_option("--source-root", reports.files.source_root,
                  "the repository root annotation paths are relative to (default: $GITHUB_WORKSPACE, "
                  "$CI_PROJECT_DIR, else the git top level of the working directory)")
      ->type_name("DIR");
  command
      .add_option("--source-link", reports.files.source_link,
                  "link the Markdown summary's blamed lines under this URL of the commit, e.g. "
                  "https://github.com/OWNER/REPO/blob/SHA")
      ->type_name("URL");
  command.add_flag("--quiet", reports.quiet, "print only the summary line and failures");
  if (with_baselines) {
    command.add_option("--baseline-dir", reports.baseline_dir, "baselines/<gpu-key>/<suite>.yaml live here")
        ->capture_default_str();
    command.add_flag("--no-baselines", reports.no_baselines, "check expectations only");
    command
        .add_option(
            "--false-alarm-rate", reports.false_alarm_rate,
            "probability that one noisy baseline check of an unchanged kernel fails (docs/baselines.md)")
        ->capture_default_str()
        ->check(CLI::Range(1e-15, 0.49));
    command.add_flag("--strict", reports.strict,
                     "improvements beyond tolerance fail too (baselines are stale)");
    command.add_option("--history", reports.history, "also record the results into this history database");
  }
}

void add_fail_fast_option(CLI::App& command, report_options& reports) {
  command.add_flag("-x,--fail-fast", reports.fail_fast,
                   "stop at the first case that fails; the cases not run are reported as skipped");
}

void add_device_options(CLI::App& command, device_options& devices) {
  CLI::Option* one = command.add_option("--device", devices.device, "CUDA device ordinal")
                         ->capture_default_str()
                         ->check(CLI::NonNegativeNumber);
  command
      .add_option("--devices", devices.devices,
                  "profile on several GPUs at once, one worker each: all, or ordinals such as 0,1")
      ->excludes(one);
}

bool device_given_on(const CLI::App& command) {
  return command.count("--device") > 0;
}

void add_shard_options(CLI::App& command, std::vector<std::string>& cost_from, std::string& shard,
                       const std::string& cost_help) {
  command.add_option("--shard", shard,
                     "run only shard I of N (1-based, e.g. 2/4): a stable, cost-balanced part of the cases");
  command.add_option("--cost-from", cost_from, cost_help);
}

void add_gpu_wait_option(CLI::App& command, double& seconds, const std::string& help) {
  command.add_option("--wait-for-gpu", seconds, help)->capture_default_str()->check(CLI::NonNegativeNumber);
}

}  // namespace counterguard::detail
