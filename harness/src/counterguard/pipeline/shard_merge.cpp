// SPDX-License-Identifier: Apache-2.0
// `counterguard merge --json OUT IN...`: the results files of shards (CI matrix jobs) joined into one results
// file and one set of reports, exiting as `run` would for the whole.
#include "counterguard/pipeline/shard_merge.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <utility>

#include "counterguard/checker/run_verdict.hpp"
#include "counterguard/results/results_merge.hpp"

namespace counterguard {

int merge_results_files(const merge_options& options) {
  std::vector<named_results> inputs;
  inputs.reserve(options.inputs.size());
  for (const auto& file : options.inputs)
    inputs.push_back({file, load_run_results(file)});
  run_results merged =
      merge_results(std::move(inputs),
                    options.expected_shards > 0 ? std::optional<int>(options.expected_shards) : std::nullopt);
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
  const judged_run judged = judge_run(std::move(merged), options.reports.strict);
  write_reports(judged, {!options.reports.quiet}, options.reports.files);
  if (!options.reports.history.empty())
    record_into_history(options.reports.history, judged.results, "counterguard merge");
  return static_cast<int>(judged.status);
}

}  // namespace counterguard
