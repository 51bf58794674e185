#include "counterguard/cli/command_line.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <vector>

#include "commands.hpp"
#include "counterguard/build_info.hpp"
#include "counterguard/cli/build_identity.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/core/interruption.hpp"

namespace counterguard {
namespace {

void add_reports(CLI::App& command, detail::report_options& reports, bool with_baselines) {
  command.add_option("--json", reports.json, "write the results JSON here");
  command.add_option("--junit", reports.junit, "write JUnit XML here (one testcase per case instance)");
  command.add_option("--markdown", reports.markdown,
                     "write a Markdown summary here (CI job summary, PR comment)");
  command
      .add_option("--markdown-limit", reports.markdown_limit,
                  "most characters the Markdown summary may hold (0: no limit; GitHub takes 65536)")
      ->capture_default_str();
  command.add_option("--html", reports.html,
                     "write a self-contained HTML report here (failures first, every check, trend plots)");
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

// --device N or --devices all|0,1,... (docs/scaling.md).
void add_devices(CLI::App& command, detail::device_options& devices) {
  CLI::Option* one = command.add_option("--device", devices.device, "CUDA device ordinal")
                         ->capture_default_str()
                         ->check(CLI::NonNegativeNumber);
  command
      .add_option("--devices", devices.devices,
                  "profile on several GPUs at once, one worker each: all, or ordinals such as 0,1")
      ->excludes(one);
}

// --shard I/N and the timing it is balanced by.
void add_sharding(CLI::App& command, std::vector<std::string>& cost_from, std::string& shard,
                  const std::string& cost_help) {
  command.add_option("--shard", shard,
                     "run only shard I of N (1-based, e.g. 2/4): a stable, cost-balanced part of the cases");
  command.add_option("--cost-from", cost_from, cost_help);
}

std::string joined_arguments(int argc, char** argv) {
  std::string text;
  for (int i = 0; i < argc; ++i)
    text += (i == 0 ? "" : " ") + std::string(argv[i]);
  return text;
}

int report_error(const char* kind, const std::string& message, exit_code code) {
  std::fputs(fmt::format("counterguard: {}: {}\n", kind, message).c_str(), stderr);
  return static_cast<int>(code);
}

}  // namespace

namespace detail {
void add_report_options(CLI::App& command, report_options& reports, bool with_baselines) {
  add_reports(command, reports, with_baselines);
}
}  // namespace detail

int run_command_line(int argc, char** argv) {
  // The hidden worker mode: started by `run` for each batch of cases (runner/isolated_runner.hpp).
  if (argc == 3 && std::string(argv[1]) == "__worker") {
    try {
      return detail::run_worker(argv[2]);
    } catch (const std::exception& e) {
      return report_error("worker", e.what(), exit_code::internal_error);
    }
  }

  CLI::App app{"counterguard: hardware-counter regression tests for CUDA kernels"};
  app.require_subcommand(1);
  app.set_version_flag("--version", build_identity());
  const std::string command_line = joined_arguments(argc, argv);

  detail::run_options run;
  run.command_line = command_line;
  CLI::App* run_command = app.add_subcommand("run", "profile the cases on the GPU and check them");
  detail::add_selection(*run_command, run.selection);
  add_reports(*run_command, run.reports, true);
  run_command->add_option("--save-counter-data", run.save_counter_data,
                          "keep each case's counter-data image here for `counterguard evaluate`");
  run_command->add_option("--metric", run.extra_metrics,
                          "also measure this metric in every case (repeatable)");
  run_command->add_flag("--require-gpu", run.require_gpu, "no GPU is an error (exit 3), not a skip");
  run_command
      ->add_option("--case-timeout", run.case_timeout_seconds, "seconds before a silent case is killed")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  add_devices(*run_command, run.devices);
  add_sharding(*run_command, run.cost_from, run.shard,
               "balance shards by the per-case seconds of these results files (repeatable)");
  run_command
      ->add_option("--wait-for-gpu", run.wait_for_gpu_seconds,
                   "seconds to wait while another counterguard or profiler holds the GPU")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  CLI::Option* blame_flag = run_command->add_flag(
      "--blame", run.blame_every_failure,
      "blame every failing case to source lines (default: cases whose exact metric regressed)");
  run_command
      ->add_flag("--no-blame", run.no_blame, "no source-line blame, not even for a regressed exact metric")
      ->excludes(blame_flag);
  run_command->add_option("--blame-top", run.blame_top, "source lines shown per blamed case")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));

  detail::selection_options static_selection;
  detail::report_options static_reports;
  CLI::App* static_command = app.add_subcommand("static", "compiler resource checks (no GPU needed)");
  detail::add_selection(*static_command, static_selection);
  add_reports(*static_command, static_reports, false);
  std::vector<std::string> static_binaries;
  static_command
      ->add_option("--binary", static_binaries,
                   "instead of the cases: print the resources of every kernel in this compiled program, "
                   "library, .cubin or .fatbin (repeatable; --json writes them)")
      ->excludes(static_command->get_option("paths"));
  detail::selection_options static_binary_cases;
  static_binary_cases.paths.clear();
  static_command
      ->add_option("--cases", static_binary_cases.paths,
                   "with --binary: check the static expectations of these suites' cases against the binary's "
                   "kernels (docs/exec.md)")
      ->needs(static_command->get_option("--binary"));

  detail::evaluate_options evaluate;
  evaluate.command_line = command_line;
  evaluate.selection.paths.clear();  // default: the suites the recording used
  CLI::App* evaluate_command =
      app.add_subcommand("evaluate", "re-evaluate saved counter data without a GPU and check it");
  evaluate_command->add_option("directory", evaluate.directory, "a --save-counter-data directory")
      ->required();
  evaluate_command->add_option("--cases", evaluate.selection.paths,
                               "suites (default: those the recording used)");
  evaluate_command->add_option("--filter", evaluate.selection.filter,
                               "only case instances whose name matches");
  add_sharding(*evaluate_command, evaluate.cost_from, evaluate.shard,
               "balance shards by these results files' per-case seconds instead of the recording's");
  add_reports(*evaluate_command, evaluate.reports, true);

  detail::baseline_update_options update;
  update.command_line = command_line;
  CLI::App* baseline_command = app.add_subcommand("baseline", "manage per-GPU baselines");
  baseline_command->require_subcommand(1);
  CLI::App* update_command = baseline_command->add_subcommand(
      "update", "measure N times and merge median and spread into the baselines");
  detail::add_selection(*update_command, update.selection);
  update_command->add_option("--repeat", update.repeat, "runs per case")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  update_command->add_option("--baseline-dir", update.baseline_dir, "where baselines live")
      ->capture_default_str();
  update_command->add_option("--summary", update.summary, "also write the Markdown change summary here");
  update_command
      ->add_option(
          "--summary-limit", update.summary_limit,
          "most characters the --summary file may hold; when over, the full summary goes to F.full.md")
      ->capture_default_str();
  update_command->add_option("--metric", update.extra_metrics, "also record this metric in every case");
  update_command
      ->add_option("--case-timeout", update.case_timeout_seconds, "seconds before a silent case is killed")
      ->check(CLI::PositiveNumber);
  add_devices(*update_command, update.devices);
  update_command->add_option("--cost-from", update.cost_from,
                             "hand cases out longest first by the per-case seconds of these results files");
  update_command
      ->add_option("--wait-for-gpu", update.wait_for_gpu_seconds,
                   "seconds to wait while another counterguard or profiler holds the GPU")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  CLI::Option* update_history = update_command->add_option(
      "--history", update.history, "also record every repetition into this history database");
  update_command
      ->add_option("--from-history", update.from_history,
                   "noisy bands also use the last N values --history recorded for the GPU key")
      ->check(CLI::Range(1, 100000))
      ->needs(update_history);
  update_command->add_flag("--replace-all", update.replace_all,
                           "replace every measured entry, also those the refresh agrees with");
  update_command->add_flag("--with-lines", update.with_lines,
                           "also record each case's per-source-line counters of exact metrics "
                           "(<suite>.lines.json, for run's blame)");
  const detail::command_action baseline_diff_action = detail::add_baseline_diff_command(*baseline_command);

  std::string chip = COUNTERGUARD_DEFAULT_CHIP;
  bool raw_metrics = false;
  detail::selection_options validate_selection;
  CLI::App* metrics_command =
      app.add_subcommand("metrics", "metric aliases and CUPTI metric names (no GPU needed)");
  metrics_command->require_subcommand(1);
  CLI::App* list_command =
      metrics_command->add_subcommand("list", "list the aliases, or a chip's raw CUPTI metrics");
  list_command->add_option("--chip", chip, "chip for --raw")->capture_default_str();
  list_command->add_flag("--raw", raw_metrics, "list every raw CUPTI metric name of the chip");
  bool json_metrics = false;
  list_command->add_flag("--json", json_metrics,
                         "the aliases as JSON (name, class, source, formula, inputs)");
  CLI::App* validate_command =
      metrics_command->add_subcommand("validate", "check every metric the cases name");
  detail::add_selection(*validate_command, validate_selection);
  validate_selection.allow_program_cases = true;  // program suites name metrics too

  CLI::App* kernels_command = app.add_subcommand("kernels", "list the registered kernel variants");

  detail::selection_options launch_selection;
  CLI::App* launch_command = app.add_subcommand(
      "launch",
      "run each case's kernels once, verified, without profiling (for ncu, nsys, compute-sanitizer)");
  detail::add_selection(*launch_command, launch_selection);

  const detail::command_action history_action = detail::add_history_commands(app);
  const detail::command_action compare_action = detail::add_compare_command(app);
  const detail::command_action exec_action = detail::add_exec_command(app);
  const detail::command_action merge_action = detail::add_merge_command(app, command_line);
  const detail::command_action list_action = detail::add_list_command(app);
  const detail::command_action plan_action = detail::add_plan_command(app);
  const detail::command_action sass_action = detail::add_sass_command(app);
  const detail::command_action blame_action = detail::add_blame_command(app);

  try {
    // `exec ... -- program args`: what follows "--" is the program's, never parsed as counterguard's options.
    std::vector<char*> arguments(argv, argv + argc);
    detail::take_exec_program(arguments);
    app.parse(static_cast<int>(arguments.size()), arguments.data());
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);
    return status == 0 ? 0 : static_cast<int>(exit_code::invalid_input);
  }
  run.devices.device_given = run_command->count("--device") > 0;
  update.devices.device_given = update_command->count("--device") > 0;

  try {
    if (*run_command) {
      const interruption_guard interruptions;
      return detail::run_profiling(run);
    }
    if (*static_command && !static_binaries.empty()) {
      static_binary_cases.filter = static_selection.filter;
      static_binary_cases.chip = static_selection.chip;
      if (static_binary_cases.paths.empty() &&
          (!static_reports.junit.empty() || !static_reports.markdown.empty() ||
           !static_selection.filter.empty())) {
        throw input_error({}, "--binary", "--junit, --markdown and --filter report on cases",
                          "add --cases F.yaml to check the binary's kernels against a suite");
      }
      return detail::run_static_binary({static_binaries, static_reports.json, static_reports.quiet,
                                        command_line, static_binary_cases, static_reports});
    }
    if (*static_command)
      return detail::run_static(static_selection, static_reports, command_line);
    if (*evaluate_command)
      return detail::run_evaluate(evaluate);
    if (*update_command) {
      const interruption_guard interruptions;
      return detail::run_baseline_update(update);
    }
    if (*list_command)
      return detail::run_metrics_list(chip, raw_metrics, json_metrics);
    if (*validate_command)
      return detail::run_metrics_validate(validate_selection);
    if (*kernels_command)
      return detail::run_kernels_list();
    if (*launch_command)
      return detail::run_launch(launch_selection);
    for (const auto& action : {history_action, compare_action, baseline_diff_action, merge_action,
                               list_action, plan_action, exec_action, sass_action, blame_action}) {
      if (const std::optional<int> status = action())
        return *status;
    }
  } catch (const interrupted_error& e) {
    std::fputs(fmt::format("counterguard: {}; stopped the GPU worker, wrote no results\n", e.what()).c_str(),
               stderr);
    return e.exit_status();
  } catch (const input_error& e) {
    return report_error("invalid input", e.what(), e.code());
  } catch (const environment_error& e) {
    return report_error("environment", e.what(), e.code());
  } catch (const registration_error& e) {
    return report_error("kernel registration", e.what(), e.code());
  } catch (const internal_error& e) {
    return report_error("internal error (a bug in counterguard; please report it)", e.what(), e.code());
  } catch (const error& e) {
    return report_error("error", e.what(), e.code());
  } catch (const std::exception& e) {
    return report_error("internal error", e.what(), exit_code::internal_error);
  }
  return static_cast<int>(exit_code::internal_error);
}

}  // namespace counterguard
