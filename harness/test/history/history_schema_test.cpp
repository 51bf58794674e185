// SPDX-License-Identifier: Apache-2.0
// The history file format: the documented version-1 schema, the version check, and files that are not
// history databases.
#include <gtest/gtest.h>

#include <fstream>

#include "counterguard/core/error.hpp"
#include "counterguard/history/history_source.hpp"
#include "counterguard/history/history_store.hpp"
#include "history_test_support.hpp"

namespace counterguard::test {
namespace {

// The version-1 schema as docs/history.md documents it.
const char* const version_1_schema = R"sql(
CREATE TABLE runs (id INTEGER PRIMARY KEY, gpu_key TEXT NOT NULL, chip TEXT NOT NULL, gpu_name TEXT NOT NULL,
  sm_count INTEGER NOT NULL, compute_capability INTEGER NOT NULL, driver_version TEXT NOT NULL,
  cuda_runtime_version TEXT NOT NULL, cupti_version TEXT NOT NULL, sm_clock_mhz INTEGER NOT NULL,
  memory_clock_mhz INTEGER NOT NULL, git_commit TEXT NOT NULL, started_at TEXT NOT NULL, mode TEXT NOT NULL,
  command_line TEXT NOT NULL, counterguard_version TEXT NOT NULL, source TEXT NOT NULL,
  content_hash TEXT NOT NULL UNIQUE, recorded_at TEXT NOT NULL);
CREATE TABLE cases (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  instance TEXT NOT NULL, suite TEXT NOT NULL, case_name TEXT NOT NULL, kernel TEXT NOT NULL,
  status TEXT NOT NULL, status_reason TEXT NOT NULL, verified INTEGER, seconds REAL, passes INTEGER NOT NULL,
  UNIQUE (run_id, instance));
CREATE TABLE metrics (case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  kernel_key TEXT NOT NULL, metric TEXT NOT NULL, value REAL, class TEXT NOT NULL,
  PRIMARY KEY (case_id, kernel_key, metric)) WITHOUT ROWID;
CREATE TABLE checks (id INTEGER PRIMARY KEY, case_id INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  metric TEXT NOT NULL, kernel TEXT NOT NULL, origin TEXT NOT NULL, expected TEXT NOT NULL, measured REAL,
  baseline REAL, band_low REAL, band_high REAL, verdict TEXT NOT NULL, failing INTEGER NOT NULL,
  message TEXT NOT NULL);
PRAGMA application_id = 1667713107;
PRAGMA user_version = 1;
)sql";

std::string error_of(const std::string& path) {
  try {
    const history_store store(path);
    (void)store.runs();
    (void)store.all_series("GH100-132sm-cuda13", 0);
  } catch (const input_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(history_schema, a_new_database_has_the_current_version_and_is_in_wal_mode) {
  scratch_directory dir;
  { const history_store store(dir.file("h.db")); }
  raw_database raw(dir.file("h.db"));
  EXPECT_EQ(raw.scalar("PRAGMA user_version"), std::to_string(history_schema_version));
  EXPECT_EQ(raw.scalar("PRAGMA application_id"), "1667713107");  // "cgHS"
  EXPECT_EQ(raw.scalar("PRAGMA journal_mode"), "wal");
}

TEST(history_schema, a_version_1_database_built_from_the_documented_schema_opens_and_reads) {
  scratch_directory dir;
  {
    raw_database raw(dir.file("v1.db"));
    ASSERT_EQ(raw.execute(version_1_schema), "");
    ASSERT_EQ(raw.execute(R"sql(
INSERT INTO runs VALUES (7, 'GH100-132sm-cuda13', 'GH100', 'NVIDIA H200', 132, 90, '580', '13.0', '130001', 1980,
  3201, 'abcdef0123456789abcdef0123456789abcdef01', '2026-11-01T00:00:00Z', 'run', 'counterguard run', '0.1.0',
  'by hand', 'hash-7', '2026-11-01T00:01:00Z');
INSERT INTO cases VALUES (1, 7, 'transpose/smem_padded?n=2048', 'transpose', 'smem_padded', 'transpose/smem',
  'passed', '', 1, 0.5, 1);
INSERT INTO metrics VALUES (1, 'total', 'shared_store_bank_conflicts_hw', 5669, 'noisy');
INSERT INTO checks VALUES (1, 1, 'shared_store_bank_conflicts_hw', '', 'baseline', '5669 in [5000, 6000]', 5669,
  5669, 5000, 6000, 'pass', 0, 'fine');
)sql"),
              "");
  }
  history_store store(dir.file("v1.db"));
  const auto runs = store.runs();
  ASSERT_EQ(runs.size(), 1U);
  EXPECT_EQ(runs[0].id, 7);
  EXPECT_EQ(runs[0].metadata.git_commit, "abcdef0123456789abcdef0123456789abcdef01");
  const metric_history h = store.series("GH100-132sm-cuda13", "transpose/smem_padded?n=2048", "total",
                                        "shared_store_bank_conflicts_hw", 0);
  ASSERT_EQ(h.points.size(), 1U);
  EXPECT_EQ(h.points[0].value, 5669);
  EXPECT_EQ(h.points[0].band_low, 5000);
  EXPECT_EQ(h.points[0].band_high, 6000);
  // ... and takes new runs.
  const run_results results = recorded_h200_results();
  store.record(results, {"results.json", results_content_hash(results)});
  EXPECT_EQ(store.runs().size(), 2U);
}

TEST(history_schema, a_database_from_a_newer_counterguard_is_refused_with_both_versions) {
  scratch_directory dir;
  {
    raw_database raw(dir.file("future.db"));
    ASSERT_EQ(raw.execute(version_1_schema), "");
    ASSERT_EQ(raw.execute("PRAGMA user_version = " + std::to_string(history_schema_version + 1)), "");
  }
  const std::string message = error_of(dir.file("future.db"));
  EXPECT_NE(message.find("future.db"), std::string::npos) << message;
  EXPECT_NE(message.find("newer counterguard"), std::string::npos) << message;
  EXPECT_NE(message.find("version " + std::to_string(history_schema_version + 1)), std::string::npos)
      << message;
}

TEST(history_schema, an_sqlite_database_of_another_program_is_refused_and_left_alone) {
  scratch_directory dir;
  {
    raw_database raw(dir.file("other.db"));
    ASSERT_EQ(raw.execute("CREATE TABLE things (x); INSERT INTO things VALUES (1);"), "");
  }
  const std::string message = error_of(dir.file("other.db"));
  EXPECT_NE(message.find("not a counterguard history database"), std::string::npos) << message;
  raw_database raw(dir.file("other.db"));
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM sqlite_master"), "1");
}

TEST(history_schema, a_file_that_is_not_a_database_is_refused_naming_it) {
  scratch_directory dir;
  std::ofstream(dir.file("notes.db"))
      << "these are my notes, not a database; they are long enough to have a header" << std::string(200, '.');
  const std::string message = error_of(dir.file("notes.db"));
  EXPECT_NE(message.find("notes.db"), std::string::npos) << message;
  EXPECT_NE(message.find("not a counterguard history database"), std::string::npos) << message;
}

TEST(history_schema, a_corrupt_database_is_a_clear_error_naming_it) {
  scratch_directory dir;
  const std::string path = dir.file("corrupt.db");
  const run_results results = recorded_h200_results();
  {
    history_store store(path);
    store.record(results, {"results.json", results_content_hash(results)});
  }
  // Garbage over every page but the first (the header and the schema stay readable).
  const auto size = std::filesystem::file_size(path);
  ASSERT_GT(size, 3 * 4096U);
  {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(4096);
    const std::string garbage(size - 4096, '\xab');
    file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  const std::string message = error_of(path);
  EXPECT_NE(message.find("corrupt.db"), std::string::npos) << message;
  EXPECT_NE(message.find("corrupt"), std::string::npos) << message;
}

}  // namespace
}  // namespace counterguard::test
