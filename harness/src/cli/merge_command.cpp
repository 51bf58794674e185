// `counterguard merge --json OUT IN...`: the results files of shards (CI matrix jobs) joined into one results
// file and one set of reports, exiting as `run` would for the whole.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "counterguard/checker/run_verdict.hpp"
#include "counterguard/results/results_merge.hpp"

namespace counterguard::detail {
namespace {

struct merge_options {
  std::vector<std::string> inputs;
  report_options reports;
  std::string command_line;
};

int merge(const merge_options& options) {
  std::vector<named_results> inputs;
  inputs.reserve(options.inputs.size());
  for (const auto& file : options.inputs)
    inputs.push_back({file, load_run_results(file)});
  run_results merged = merge_results(std::move(inputs));
  if (!options.command_line.empty())
    merged.metadata.command_line = options.command_line;
  // Statuses are settled again with this command's --strict, as `run --strict` would have settled them.
  for (auto& c : merged.cases)
    settle_case_status(c, options.reports.strict);
  if (!options.reports.quiet) {
    std::fputs(fmt::format("counterguard: merged {} results files: {} case instances\n",
                           options.inputs.size(), merged.cases.size())
                   .c_str(),
               stderr);
  }
  write_reports(merged, options.reports);
  if (!options.reports.history.empty())
    record_into_history(options.reports.history, merged, "counterguard merge");
  return static_cast<int>(decide_exit_code(merged, options.reports.strict));
}

}  // namespace

command_action add_merge_command(CLI::App& app, const std::string& command_line) {
  auto options = std::make_shared<merge_options>();
  options->command_line = command_line;
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
  return [options, command]() -> std::optional<int> {
    if (*command)
      return merge(*options);
    return std::nullopt;
  };
}

}  // namespace counterguard::detail
