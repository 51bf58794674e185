// `counterguard evaluate DIR`: re-evaluate saved counter data without a GPU and check it
// (pipeline/recording_evaluation.hpp).
#include <CLI/CLI.hpp>
#include <memory>

#include "commands.hpp"
#include "counterguard/pipeline/recording_evaluation.hpp"
#include "option_groups.hpp"

namespace counterguard::detail {

command_action add_evaluate_command(CLI::App& app, const command_context& context) {
  auto options = std::make_shared<evaluate_options>();
  options->command_line = context.command_line;
  options->selection.paths.clear();  // default: the suites the recording used
  CLI::App* command =
      app.add_subcommand("evaluate", "re-evaluate saved counter data without a GPU and check it");
  command->add_option("directory", options->directory, "a --save-counter-data directory")->required();
  command->add_option("--cases", options->selection.paths, "suites (default: those the recording used)");
  command->add_option("--filter", options->selection.filter, "only case instances whose name matches");
  add_shard_options(*command, options->cost_from, options->shard,
                    "balance shards by these results files' per-case seconds instead of the recording's");
  add_report_options(*command, options->reports, true);
  return when_chosen(command, [options] { return evaluate_recording_directory(*options); });
}

}  // namespace counterguard::detail
