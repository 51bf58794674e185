// SPDX-License-Identifier: Apache-2.0
// `counterguard static [SUITE...]`: compiler resource checks of the cases, or of compiled binaries with
// --binary (pipeline/static_checks.hpp). No GPU needed.
#include <CLI/CLI.hpp>
#include <memory>

#include "counterguard/core/error.hpp"
#include "counterguard/pipeline/static_checks.hpp"
#include "detail/commands.hpp"
#include "detail/option_groups.hpp"

namespace counterguard::detail {

command_action add_static_command(CLI::App& app, const command_context& context) {
  auto selection = std::make_shared<selection_options>();
  auto binary = std::make_shared<static_binary_options>();
  binary->command_line = context.command_line;
  binary->cases.paths.clear();
  selection->paths.clear();  // default below: cases, or with --binary none
  CLI::App* command = app.add_subcommand("static", "compiler resource checks (no GPU needed)");
  add_suite_paths(*command, selection->paths,
                  "suite files or directories of *.yaml (default: cases); with --binary: the suites whose "
                  "static expectations are checked against the binary's kernels (docs/exec.md)");
  add_filter_option(*command, selection->filter);
  command->add_option("--chip", selection->chip, "chip that raw CUPTI metric names are validated for")
      ->capture_default_str();
  add_report_options(*command, binary->reports, false);
  CLI::Option* binaries = command->add_option(
      "--binary", binary->binaries,
      "instead of the cases' own variants: print the resources of every kernel in this compiled program, "
      "library, .cubin or .fatbin (repeatable; --json writes them)");
  add_cases_alias(*command, binary->cases.paths);
  command->get_option("--cases")->needs(binaries);
  return when_chosen(command, [selection, binary, command_line = context.command_line] {
    const report_options& reports = binary->reports;
    check_report_destinations(reports.files);
    if (binary->binaries.empty()) {
      if (selection->paths.empty())
        selection->paths = selection_options{}.paths;
      return run_static_checks(*selection, reports, command_line);
    }
    binary->cases.paths.insert(binary->cases.paths.end(), selection->paths.begin(), selection->paths.end());
    binary->cases.filter = selection->filter;
    binary->cases.chip = selection->chip;
    if (binary->cases.paths.empty() &&
        (!reports.files.junit.empty() || !reports.files.markdown.empty() || !selection->filter.empty())) {
      throw input_error({}, "--binary", "--junit, --markdown and --filter report on cases",
                        "name a suite (`static F.yaml --binary B`) to check the binary's kernels against it");
    }
    binary->json = reports.files.json;
    binary->quiet = reports.quiet;
    return check_static_binaries(*binary);
  });
}

}  // namespace counterguard::detail
