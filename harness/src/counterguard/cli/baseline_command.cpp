// SPDX-License-Identifier: Apache-2.0
// `counterguard baseline update|diff`: manage per-GPU baselines (pipeline/baseline_refresh.hpp).
#include <CLI/CLI.hpp>
#include <memory>

#include "counterguard/core/error.hpp"
#include "counterguard/core/interruption.hpp"
#include "counterguard/pipeline/baseline_refresh.hpp"
#include "detail/commands.hpp"
#include "detail/option_groups.hpp"

namespace counterguard::detail {
namespace {

command_action add_update_command(CLI::App& baseline, const command_context& context) {
  auto options = std::make_shared<baseline_update_options>();
  options->command_line = context.command_line;
  CLI::App* command =
      baseline.add_subcommand("update", "measure N times and merge median and spread into the baselines");
  add_selection_options(*command, options->selection);
  command->add_option("--repeat", options->repeat, "runs per case")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  command->add_option("--baseline-dir", options->baseline_dir, "where baselines live")->capture_default_str();
  command->add_option("--summary", options->summary, "also write the Markdown change summary here");
  command
      ->add_option(
          "--summary-limit", options->summary_limit,
          "most characters the --summary file may hold; when over, the full summary goes to F.full.md")
      ->capture_default_str();
  command->add_option("--metric", options->extra_metrics, "also record this metric in every case");
  command
      ->add_option("--case-timeout", options->case_timeout_seconds, "seconds before a silent case is killed")
      ->check(CLI::PositiveNumber);
  add_device_options(*command, options->devices);
  command->add_option("--cost-from", options->cost_from,
                      "hand cases out longest first by the per-case seconds of these results files");
  add_gpu_wait_option(*command, options->wait_for_gpu_seconds,
                      "seconds to wait while another counterguard or profiler holds the GPU");
  CLI::Option* history = command->add_option("--history", options->history,
                                             "also record every repetition into this history database");
  command
      ->add_option("--from-history", options->from_history,
                   "noisy bands also use the last N values --history recorded for the GPU key")
      ->check(CLI::Range(1, 100000))
      ->needs(history);
  command->add_flag("--replace-all", options->replace_all,
                    "replace every measured entry, also those the refresh agrees with");
  command->add_flag("--with-lines", options->with_lines,
                    "also record each case's per-source-line counters of exact metrics "
                    "(<suite>.lines.json, for run's blame)");
  command->add_option("--blame-external", options->blame_external,
                      "with --with-lines: blame inlined code of this include directory on the line "
                      "that calls it, as `run --blame-external` (repeatable)");
  command
      ->add_option("--from-recording", options->from_recordings,
                   "merge these recordings instead of measuring (`run`/`exec --save-counter-data`), each "
                   "one repetition, measured again as `evaluate DIR` measures it (no GPU)")
      ->type_name("DIR");
  command->add_option("--binary", options->binaries,
                      "with a program: also read kernel resources (static metrics) from this file, as "
                      "`exec --binary` (repeatable)");
  command
      ->add_option("--timeout", options->program_timeout_seconds,
                   "with a program: seconds before a repetition of it is killed (0: never)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  command->add_flag("--allow-program-failure", options->allow_program_failure,
                    "with a program: record what a repetition measured even when the program fails");
  add_replay_mode_option(*command, options->replay);
  command->footer(
      "A program's kernels, as `exec` measures them: the program and its arguments come last, after '--': "
      "counterguard baseline update kernels.yaml --repeat 5 -- ./app -x");
  return when_chosen(command, [options, command] {
    options->devices.device_given = device_given_on(*command);
    options->program = program_arguments();
    if (!options->from_recordings.empty() && command->count("--repeat") > 0) {
      throw input_error({}, "--repeat", "--repeat and --from-recording are both given",
                        "each --from-recording DIR is one repetition: name as many as you want merged");
    }
    // A recording names its own suites, and a program's cases are never the default folder's.
    if ((!options->program.empty() || !options->from_recordings.empty()) && command->count("suites") == 0)
      options->selection.paths.clear();
    if (!options->program.empty())
      options->command_line = own_command_line();
    const interruption_guard interruptions;
    return update_baselines(*options);
  });
}

command_action add_diff_command(CLI::App& baseline) {
  auto options = std::make_shared<baseline_diff_options>();
  CLI::App* command = baseline.add_subcommand(
      "diff",
      "exit 1 when a baseline value or band differs between two baseline directories (metadata is ignored; "
      "a new GPU key or suite counts), 0 when none does; prints the differences as Markdown");
  command
      ->add_option("old", options->old_directory, "the baselines before (e.g. a copy of the base branch's)")
      ->required();
  command->add_option("new", options->new_directory, "the baselines after (e.g. baselines/ after a refresh)")
      ->required();
  command->add_option("--summary", options->summary, "also write the differences as Markdown here");
  command
      ->add_option("--summary-limit", options->summary_limit,
                   "most characters the --summary file may hold; when over, the full text goes to F.full.md")
      ->capture_default_str();
  command->add_flag("--quiet", options->quiet, "print only the one-line count (on stderr)");
  return when_chosen(command, [options] { return diff_baselines(*options); });
}

}  // namespace

command_action add_baseline_command(CLI::App& app, const command_context& context) {
  CLI::App* baseline = app.add_subcommand("baseline", "manage per-GPU baselines");
  baseline->require_subcommand(1);
  return first_chosen({add_update_command(*baseline, context), add_diff_command(*baseline)});
}

}  // namespace counterguard::detail
