// SPDX-License-Identifier: Apache-2.0
// `counterguard evaluate DIR`: re-evaluate saved counter data without a GPU and check it
// (pipeline/recording_evaluation.hpp).
#include <CLI/CLI.hpp>
#include <memory>

#include "counterguard/pipeline/recording_evaluation.hpp"
#include "detail/commands.hpp"
#include "detail/option_groups.hpp"

namespace counterguard::detail {

command_action add_evaluate_command(CLI::App& app, const command_context& context) {
  auto options = std::make_shared<evaluate_options>();
  auto cases = std::make_shared<std::vector<std::string>>();
  options->command_line = context.command_line;
  options->selection.paths.clear();  // default: the suites the recording used
  CLI::App* command =
      app.add_subcommand("evaluate", "re-evaluate saved counter data without a GPU and check it");
  command->add_option("directory", options->directory, "a --save-counter-data directory")->required();
  add_suite_paths(*command, options->selection.paths,
                  "suite files or directories (default: those the recording used)");
  add_cases_alias(*command, *cases);
  add_filter_option(*command, options->selection.filter);
  add_shard_options(*command, options->cost_from, options->shard,
                    "balance shards by these results files' per-case seconds instead of the recording's");
  add_report_options(*command, options->reports, true);
  add_fail_fast_option(*command, options->reports);
  command
      ->add_option("--blame-from", options->blame_from,
                   "blame the failed cases to source lines from the profiles of a `blame --record-dir` "
                   "directory, recorded on the GPU")
      ->type_name("DIR");
  command
      ->add_option("--blame-binary", options->blame_binary,
                   "with --blame-from: the program whose kernels were profiled (default: this counterguard)")
      ->type_name("FILE");
  command->add_option("--blame-top", options->blame_top, "source lines shown per blamed case")
      ->capture_default_str();
  command
      ->add_option("--blame-external", options->blame_external,
                   "blame inlined code of this include directory (a library's) on the line that calls it "
                   "(repeatable)")
      ->type_name("DIR");
  return when_chosen(command, [options, cases] {
    check_report_destinations(options->reports.files);
    options->selection.paths.insert(options->selection.paths.end(), cases->begin(), cases->end());
    return evaluate_recording_directory(*options);
  });
}

}  // namespace counterguard::detail
