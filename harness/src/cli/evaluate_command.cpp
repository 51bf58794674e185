#include "commands.hpp"
#include "counterguard/core/error.hpp"
#include "counterguard/exec/exec_recording.hpp"
#include "counterguard/measurement/recorded_run.hpp"

namespace counterguard::detail {

int run_evaluate(const evaluate_options& options) {
  const std::filesystem::path directory(options.directory);
  if (is_exec_recording(directory))
    return run_exec_evaluate(options);
  const recorded_run recording = load_recorded_run(directory);
  selection_options selection = options.selection;
  if (selection.paths.empty())
    selection.paths = recording.suite_paths;
  if (!recording.results.metadata.chip.empty())
    selection.chip = recording.results.metadata.chip;
  const std::vector<case_instance> instances = select_instances(selection);

  std::vector<case_instance> evaluated;  // the selected instances the recording has, in suite order
  run_results results = evaluate_recording(directory, recording, instances, evaluated);
  if (evaluated.empty()) {
    throw input_error(
        {(directory / "run.json").string()}, "results.cases",
        "none of the selected case instances was recorded in this directory",
        "select recorded cases (--filter) or record them with `counterguard run --save-counter-data`");
  }
  results.metadata.mode = "evaluate";
  results.metadata.command_line = options.command_line;
  check_all_expectations(results, evaluated);
  return judge_and_report(results, options.reports);
}

}  // namespace counterguard::detail
