// SPDX-License-Identifier: Apache-2.0
// `counterguard history import|list`: the run history (pipeline/history_commands.hpp).
#include <CLI/CLI.hpp>
#include <memory>

#include "counterguard/pipeline/history_commands.hpp"
#include "detail/commands.hpp"

namespace counterguard::detail {

command_action add_history_command(CLI::App& app, const command_context& /*context*/) {
  auto options = std::make_shared<history_options>();
  CLI::App* history = app.add_subcommand("history", "the run history: an SQLite file of every recorded run");
  history->require_subcommand(1);

  CLI::App* import = history->add_subcommand("import", "record results JSON files (e.g. CI artifacts)");
  import->add_option("--history", options->database, "the history database (created when missing)")
      ->required();
  import->add_option("files", options->files, "results JSON files written by --json")->required();

  CLI::App* list = history->add_subcommand("list", "the recorded runs, oldest first");
  list->add_option("--history", options->database, "the history database")->required();
  list->add_option("--gpu-key", options->gpu_key, "only runs on this GPU key");
  list->add_option("--commit", options->commit, "only runs of commits that start with this");
  list->add_option("--last", options->last, "only the N most recent")->check(CLI::PositiveNumber);

  return first_chosen({when_chosen(import, [options] { return import_results_files(*options); }),
                       when_chosen(list, [options] { return list_recorded_runs(*options); })});
}

}  // namespace counterguard::detail
