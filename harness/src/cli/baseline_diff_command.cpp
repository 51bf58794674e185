// `counterguard baseline diff OLD NEW`: did a baseline value or band change between two baseline directories?
// The nightly refresh asks it before proposing a pull request (docs/ci.md): metadata alone never counts.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "commands.hpp"
#include "counterguard/baselines/baseline_directory_diff.hpp"
#include "counterguard/core/atomic_file.hpp"

namespace counterguard::detail {
namespace {

struct baseline_diff_options {
  std::string old_directory;
  std::string new_directory;
  std::string summary;
  std::size_t summary_limit = default_markdown_limit;
  bool quiet = false;
};

int diff_directories(const baseline_diff_options& options) {
  const std::vector<baseline_file_diff> diffs =
      diff_baseline_directories(options.old_directory, options.new_directory);
  std::size_t changes = 0;
  for (const auto& diff : diffs)
    changes += diff.changes.size();
  const std::string complete = render_baseline_diff_markdown(diffs, markdown_budget{0, {}});
  if (!options.quiet)
    std::fputs(complete.c_str(), stdout);
  if (!options.summary.empty()) {
    const std::string full_path = full_summary_path(options.summary);
    const std::string bounded =
        render_baseline_diff_markdown(diffs, markdown_budget{options.summary_limit, full_path});
    write_file_atomically(options.summary, bounded);
    if (bounded != complete)
      write_file_atomically(full_path, complete);
  }
  std::fputs(
      fmt::format("counterguard: {} baseline entr{} changed in {} file(s) between {} and {}\n", changes,
                  changes == 1 ? "y" : "ies", diffs.size(), options.old_directory, options.new_directory)
          .c_str(),
      stderr);
  return diffs.empty() ? 0 : 1;
}

}  // namespace

command_action add_baseline_diff_command(CLI::App& baseline_command) {
  auto options = std::make_shared<baseline_diff_options>();
  CLI::App* command = baseline_command.add_subcommand(
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
  return [options, command]() -> std::optional<int> {
    if (*command)
      return diff_directories(*options);
    return std::nullopt;
  };
}

}  // namespace counterguard::detail
