// SPDX-License-Identifier: Apache-2.0
// `counterguard merge --json OUT IN...`: the results files of shards joined (pipeline/shard_merge.hpp).
#include <CLI/CLI.hpp>
#include <memory>

#include "counterguard/pipeline/shard_merge.hpp"
#include "detail/commands.hpp"
#include "detail/option_groups.hpp"

namespace counterguard::detail {

command_action add_merge_command(CLI::App& app, const command_context& context) {
  auto options = std::make_shared<merge_options>();
  options->command_line = context.command_line;
  CLI::App* command = app.add_subcommand(
      "merge",
      "join the results files of shards (--shard I/N) into one results file and reports (no GPU needed)");
  // Not required: with --expect-shards, no file at all is every shard missing, named as such.
  command->add_option("inputs", options->inputs, "results JSON files (`run --json`, `evaluate --json`)");
  command
      ->add_option("--expect-shards", options->expected_shards,
                   "the shards' count N (a job array of N tasks): every one of the N results files must be "
                   "given; the missing ones are named, even when no file is given")
      ->check(CLI::PositiveNumber);
  add_report_options(*command, options->reports, false);
  command->add_flag("--strict", options->reports.strict,
                    "improvements beyond tolerance fail too (give it when the shards ran with --strict)");
  command->add_option("--history", options->reports.history,
                      "also record the merged results into this history database");
  return when_chosen(command, [options] {
    check_report_destinations(options->reports.files);
    return merge_results_files(*options);
  });
}

}  // namespace counterguard::detail
