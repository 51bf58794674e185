// SPDX-License-Identifier: Apache-2.0
// `exec --blame`: failed cases blamed to source lines (pipeline/exec_blame.hpp).
#include <CLI/CLI.hpp>

#include "counterguard/pipeline/exec_run.hpp"
#include "detail/option_groups.hpp"

namespace counterguard::detail {

void add_exec_blame_options(CLI::App& command, exec_options& options) {
  CLI::Option* blame = command.add_flag(
      "--blame", options.blame,
      "blame every failing case to source lines: the program runs again once per failed case, its "
      "selected launch's per-instruction counters collected (docs/blame.md)");
  command.add_option("--blame-top", options.blame_top, "source lines shown per blamed case")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000))
      ->needs(blame);
  command
      .add_option("--blame-external", options.blame_external,
                  "blame inlined code of this include directory (a library's) on the line that calls it, "
                  "like the CUDA toolkit's (repeatable)")
      ->needs(blame);
}

}  // namespace counterguard::detail
