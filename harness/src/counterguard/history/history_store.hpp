// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "counterguard/history/history_source.hpp"
#include "counterguard/history/metric_history.hpp"
#include "counterguard/history/run_values.hpp"
#include "counterguard/results/run_results.hpp"

namespace counterguard {

namespace detail {
class sqlite_database;
}

// Version of the history database schema (docs/history.md), kept in SQLite's `PRAGMA user_version`.
// Bump it with a migration from the previous version (history_schema.cpp) on any change of the tables.
inline constexpr int history_schema_version = 1;

// A recorded run as `history list` shows it.
struct run_record {
  std::int64_t id = 0;
  run_metadata metadata;
  std::string source;
  std::string content_hash;
  std::string recorded_at;  // ISO 8601, UTC
  int cases = 0;
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  int errors = 0;
};

// Which runs to list: every field left empty / 0 matches everything.
struct run_filter {
  std::string gpu_key;
  std::string commit_prefix;  // the start of the git commit
  std::size_t last_n = 0;     // only the N most recent (by started_at, then id)
};

// What record() did.
struct record_outcome {
  std::int64_t run_id = 0;
  bool already_recorded = false;  // the content hash was stored already; nothing was written
};

// Which earlier values recent_values() returns.
struct value_window {
  std::size_t last_n = 20;
  std::string started_before;               // ISO 8601: only runs that started earlier; empty: any
  std::vector<std::int64_t> excluded_runs;  // e.g. the two runs being compared
};

// The run history in one SQLite file: every recorded run with its cases, metric values (case totals and per
// launch) and checks. Recording is one transaction per run (a crash leaves no half-recorded run); the file
// is in WAL mode with a busy timeout, so several processes (CI jobs) may record into it at once.
// Errors: a file that is not a history database, is corrupt, or comes from a newer counterguard is an
// input_error naming the file; a database locked past the busy timeout is an environment error.
class history_store {
 public:
  enum class open_mode {
    create,      // create the file (and its schema) when missing
    must_exist,  // a missing file is an input_error
  };

  explicit history_store(const std::string& path, open_mode mode = open_mode::create,
                         std::chrono::milliseconds busy_timeout = std::chrono::seconds(60));
  ~history_store();
  history_store(history_store&&) noexcept;
  history_store& operator=(history_store&&) noexcept;
  history_store(const history_store&) = delete;
  history_store& operator=(const history_store&) = delete;

  [[nodiscard]] const std::string& path() const { return m_path; }

  // Records a run: metadata, cases, metric values and checks, all or nothing. Idempotent by content hash.
  // An instance that appears twice in `results` is an input_error (and nothing is recorded).
  record_outcome record(const run_results& results, const history_source& source);

  // Recorded runs, oldest first (by started_at, then id).
  [[nodiscard]] std::vector<run_record> runs(const run_filter& filter = {}) const;
  [[nodiscard]] std::optional<run_record> find_run(std::int64_t id) const;
  // The run recorded with this content hash (results_content_hash()), if any.
  [[nodiscard]] std::optional<run_record> find_run_by_content(const std::string& content_hash) const;

  // The values a recorded run measured (as compare reads them).
  [[nodiscard]] run_values load_values(std::int64_t run_id) const;

  // The last `last_n` recorded values (0: all) of one metric of one case instance on a GPU key, oldest
  // first, with the verdict and the baseline band of each run. `kernel` is a kernel key ("total").
  [[nodiscard]] metric_history series(const std::string& gpu_key, const std::string& instance,
                                      const std::string& kernel, const std::string& metric,
                                      std::size_t last_n) const;
  // Every series of a GPU key, ordered by instance, kernel key and metric.
  [[nodiscard]] std::vector<metric_history> all_series(const std::string& gpu_key, std::size_t last_n) const;

  // The last `last_n` measured values (runs that did not measure it are left out), oldest first: what noise
  // bands and compare's significance are computed from.
  [[nodiscard]] std::vector<double> recent_values(const std::string& gpu_key, const std::string& instance,
                                                  const std::string& kernel, const std::string& metric,
                                                  std::size_t last_n) const;
  [[nodiscard]] std::vector<double> recent_values(const std::string& gpu_key, const std::string& instance,
                                                  const std::string& kernel, const std::string& metric,
                                                  const value_window& window) const;

 private:
  std::string m_path;
  std::unique_ptr<detail::sqlite_database> m_db;
};

}  // namespace counterguard
