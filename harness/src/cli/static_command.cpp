// `counterguard static`: compiler resource checks of the cases, or of compiled binaries with --binary
// (pipeline/static_checks.hpp). No GPU needed.
#include <CLI/CLI.hpp>
#include <memory>

#include "commands.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/pipeline/static_checks.hpp"
#include "option_groups.hpp"

namespace counterguard::detail {

command_action add_static_command(CLI::App& app, const command_context& context) {
  auto selection = std::make_shared<selection_options>();
  auto binary = std::make_shared<static_binary_options>();
  binary->command_line = context.command_line;
  binary->cases.paths.clear();
  CLI::App* command = app.add_subcommand("static", "compiler resource checks (no GPU needed)");
  add_selection_options(*command, *selection);
  add_report_options(*command, binary->reports, false);
  command
      ->add_option("--binary", binary->binaries,
                   "instead of the cases: print the resources of every kernel in this compiled program, "
                   "library, .cubin or .fatbin (repeatable; --json writes them)")
      ->excludes(command->get_option("paths"));
  command
      ->add_option("--cases", binary->cases.paths,
                   "with --binary: check the static expectations of these suites' cases against the binary's "
                   "kernels (docs/exec.md)")
      ->needs(command->get_option("--binary"));
  return when_chosen(command, [selection, binary, command_line = context.command_line] {
    const report_options& reports = binary->reports;
    if (binary->binaries.empty())
      return run_static_checks(*selection, reports, command_line);
    binary->cases.filter = selection->filter;
    binary->cases.chip = selection->chip;
    if (binary->cases.paths.empty() &&
        (!reports.junit.empty() || !reports.markdown.empty() || !selection->filter.empty())) {
      throw input_error({}, "--binary", "--junit, --markdown and --filter report on cases",
                        "add --cases F.yaml to check the binary's kernels against a suite");
    }
    binary->json = reports.json;
    binary->quiet = reports.quiet;
    return check_static_binaries(*binary);
  });
}

}  // namespace counterguard::detail
