// SPDX-License-Identifier: Apache-2.0
// `counterguard history import|list`.
#include "counterguard/pipeline/history_commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <vector>

#include "counterguard/core/error.hpp"
#include "counterguard/core/text_table.hpp"
#include "counterguard/history/history_source.hpp"
#include "counterguard/history/history_store.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {
namespace {

void say(const std::string& line) {
  std::fputs(("counterguard: " + line + "\n").c_str(), stderr);
}

}  // namespace

// Each file is recorded in a transaction of its own: a malformed file is reported and the others are still
// imported; a file's run is either recorded whole or not at all.
int import_results_files(const history_options& options) {
  history_store store(options.database);
  std::size_t imported = 0;
  std::size_t known = 0;
  std::size_t refused = 0;
  for (const auto& file : options.files) {
    try {
      const run_results results = load_run_results(file);
      const record_outcome outcome = store.record(results, {file, results_content_hash(results)});
      if (outcome.already_recorded) {
        ++known;
        std::printf("%s: already recorded as run %lld\n", file.c_str(),
                    static_cast<long long>(outcome.run_id));
      } else {
        ++imported;
        std::printf("%s: recorded as run %lld (%zu cases, %s, commit %s)\n", file.c_str(),
                    static_cast<long long>(outcome.run_id), results.cases.size(),
                    results.metadata.gpu_key.c_str(), results.metadata.git_commit.substr(0, 12).c_str());
      }
    } catch (const input_error& e) {
      ++refused;
      say(std::string("invalid input: ") + e.what());
    }
  }
  std::printf("%zu imported, %zu already recorded, %zu refused into %s\n", imported, known, refused,
              options.database.c_str());
  return static_cast<int>(refused > 0 ? exit_code::invalid_input : exit_code::success);
}

int list_recorded_runs(const history_options& options) {
  const history_store store(options.database, history_store::open_mode::must_exist);
  run_filter filter;
  filter.gpu_key = options.gpu_key;
  filter.commit_prefix = options.commit;
  filter.last_n = options.last;
  const std::vector<run_record> runs = store.runs(filter);
  if (runs.empty()) {
    std::printf("no runs recorded in %s%s\n", options.database.c_str(),
                options.gpu_key.empty() && options.commit.empty() ? "" : " that match");
    return 0;
  }
  std::vector<std::vector<std::string>> rows{
      {"RUN", "STARTED", "COMMIT", "GPU KEY", "MODE", "CASES", "FAILED", "SKIPPED", "SOURCE"}};
  for (const auto& run : runs) {
    rows.push_back({std::to_string(run.id), run.metadata.started_at, run.metadata.git_commit.substr(0, 12),
                    run.metadata.gpu_key, run.metadata.mode, std::to_string(run.cases),
                    std::to_string(run.failed + run.errors), std::to_string(run.skipped), run.source});
  }
  std::fputs(align_columns(rows).c_str(), stdout);
  return 0;
}

}  // namespace counterguard
