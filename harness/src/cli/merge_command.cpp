// `counterguard merge --json OUT IN...`: the results files of shards joined (pipeline/shard_merge.hpp).
#include <CLI/CLI.hpp>
#include <memory>

#include "commands.hpp"
#include "counterguard/pipeline/shard_merge.hpp"

namespace counterguard::detail {

command_action add_merge_command(CLI::App& app, const command_context& context) {
  auto options = std::make_shared<merge_options>();
  options->command_line = context.command_line;
  CLI::App* command = app.add_subcommand(
      "merge",
      "join the results files of shards (--shard I/N) into one results file and reports (no GPU needed)");
  command->add_option("inputs", options->inputs, "results JSON files (`run --json`, `evaluate --json`)")
      ->required();
  command->add_option("--json", options->reports.json, "write the merged results JSON here");
  command->add_option("--junit", options->reports.junit, "write JUnit XML here");
  command->add_option("--markdown", options->reports.markdown, "write a Markdown summary here");
  command
      ->add_option("--markdown-limit", options->reports.markdown_limit,
                   "most characters the Markdown summary may hold (0: no limit)")
      ->capture_default_str();
  command->add_option("--html", options->reports.html, "write a self-contained HTML report here");
  command->add_flag("--strict", options->reports.strict,
                    "improvements beyond tolerance fail too (give it when the shards ran with --strict)");
  command->add_flag("--quiet", options->reports.quiet, "print only the summary line and failures");
  command->add_option("--history", options->reports.history,
                      "also record the merged results into this history database");
  return when_chosen(command, [options] { return merge_results_files(*options); });
}

}  // namespace counterguard::detail
