// SPDX-License-Identifier: Apache-2.0
#include "detail/history_schema.hpp"

#include <sqlite3.h>

#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "counterguard/core/error.hpp"
#include "counterguard/history/history_store.hpp"

namespace counterguard::detail {
namespace {

// Version 0 (an empty file) -> 1: the first schema.
void create_version_1(sqlite_database& db) {
  db.execute(R"sql(
CREATE TABLE runs (
  id                   INTEGER PRIMARY KEY,
  gpu_key              TEXT NOT NULL,
  chip                 TEXT NOT NULL,
  gpu_name             TEXT NOT NULL,
  sm_count             INTEGER NOT NULL,
  compute_capability   INTEGER NOT NULL,
  driver_version       TEXT NOT NULL,
  cuda_runtime_version TEXT NOT NULL,
  cupti_version        TEXT NOT NULL,
  sm_clock_mhz         INTEGER NOT NULL,
  memory_clock_mhz     INTEGER NOT NULL,
  git_commit           TEXT NOT NULL,
  started_at           TEXT NOT NULL,
  mode                 TEXT NOT NULL,
  command_line         TEXT NOT NULL,
  counterguard_version TEXT NOT NULL,
  source               TEXT NOT NULL,
  content_hash         TEXT NOT NULL UNIQUE,
  recorded_at          TEXT NOT NULL
);
CREATE INDEX runs_by_gpu_key ON runs (gpu_key, started_at);
CREATE INDEX runs_by_commit ON runs (git_commit);

CREATE TABLE cases (
  id            INTEGER PRIMARY KEY,
  run_id        INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  instance      TEXT NOT NULL,
  suite         TEXT NOT NULL,
  case_name     TEXT NOT NULL,
  kernel        TEXT NOT NULL,
  status        TEXT NOT NULL,
  status_reason TEXT NOT NULL,
  verified      INTEGER,
  seconds       REAL,
  passes        INTEGER NOT NULL,
  UNIQUE (run_id, instance)
);
CREATE INDEX cases_by_instance ON cases (instance, run_id);

CREATE TABLE metrics (
  case_id    INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  kernel_key TEXT NOT NULL,
  metric     TEXT NOT NULL,
  value      REAL,
  class      TEXT NOT NULL,
  PRIMARY KEY (case_id, kernel_key, metric)
) WITHOUT ROWID;

CREATE TABLE checks (
  id        INTEGER PRIMARY KEY,
  case_id   INTEGER NOT NULL REFERENCES cases (id) ON DELETE CASCADE,
  metric    TEXT NOT NULL,
  kernel    TEXT NOT NULL,
  origin    TEXT NOT NULL,
  expected  TEXT NOT NULL,
  measured  REAL,
  baseline  REAL,
  band_low  REAL,
  band_high REAL,
  verdict   TEXT NOT NULL,
  failing   INTEGER NOT NULL,
  message   TEXT NOT NULL
);
CREATE INDEX checks_by_case ON checks (case_id, metric);
)sql");
}

// migrations[v] takes a database from version v to v + 1.
const std::vector<std::function<void(sqlite_database&)>>& migrations() {
  static const std::vector<std::function<void(sqlite_database&)>> all{create_version_1};
  return all;
}

// What says whose file this is, read in one statement so that all three come from one snapshot (another
// process may be creating the schema meanwhile).
struct file_identity {
  int version = 0;
  int application_id = 0;
  int tables = 0;
};

file_identity read_identity(sqlite_database& db) {
  sqlite_statement statement = db.prepare(
      "SELECT (SELECT user_version FROM pragma_user_version), (SELECT application_id FROM "
      "pragma_application_id), "
      "(SELECT count(*) FROM sqlite_master)");
  file_identity identity;
  if (statement.step()) {
    identity.version = static_cast<int>(statement.integer(0));
    identity.application_id = static_cast<int>(statement.integer(1));
    identity.tables = static_cast<int>(statement.integer(2));
  }
  return identity;
}

// Refuses files that are SQLite databases of something else, and histories of a newer counterguard.
void check_identity(const sqlite_database& db, const file_identity& identity) {
  if (identity.version == 0 && identity.application_id == 0 && identity.tables == 0)
    return;  // a new, empty database
  if (identity.application_id != history_application_id) {
    throw input_error({db.path()}, "", "an SQLite database, but not a counterguard history database",
                      "give a file written by `--history`, or a new file name");
  }
  if (identity.version < 0) {
    throw input_error({db.path()}, "",
                      "a damaged history database (schema version " + std::to_string(identity.version) + ")",
                      "restore it from a backup or start a new file");
  }
  if (identity.version > history_schema_version) {
    throw input_error({db.path()}, "",
                      "written by a newer counterguard (history schema version " +
                          std::to_string(identity.version) + "; this counterguard reads versions up to " +
                          std::to_string(history_schema_version) + ")",
                      "use a newer counterguard, or record into another file");
  }
}

std::string journal_mode(sqlite_database& db) {
  sqlite_statement statement = db.prepare("PRAGMA journal_mode");
  return statement.step() ? statement.text(0) : std::string();
}

// WAL: readers do not block the writer, and a crash mid-write leaves the last committed state. Switching to
// it needs the file to itself for a moment, and SQLite does not wait for that (no busy handler), so two
// processes opening a new file at once retry until the busy timeout. Not every file system supports WAL;
// SQLite then keeps its rollback journal, which is just as atomic.
void enable_write_ahead_log(sqlite_database& db) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(db.busy_timeout_ms());
  for (;;) {
    if (journal_mode(db) == "wal")
      return;
    const int status = db.try_execute("PRAGMA journal_mode = WAL");
    if (status == SQLITE_OK)
      return;
    if ((status & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() >= deadline)
      db.fail(status, "switching to WAL mode");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Applies the migrations from the file's version to history_schema_version (N to N+1, in order) in one
// transaction.
void migrate(sqlite_database& db) {
  sqlite_transaction transaction(db);
  // Read again under the write lock: another process may have migrated the file meanwhile.
  const file_identity identity = read_identity(db);
  check_identity(db, identity);
  for (int v = identity.version; v < history_schema_version; ++v)
    migrations().at(static_cast<std::size_t>(v))(db);
  db.execute("PRAGMA application_id = " + std::to_string(history_application_id));
  db.execute("PRAGMA user_version = " + std::to_string(history_schema_version));
  transaction.commit();
}

}  // namespace

void prepare_history_schema(sqlite_database& db) {
  // Reading the header first: a file that is not a database fails here, naming the file.
  check_identity(db, read_identity(db));

  db.execute("PRAGMA foreign_keys = ON");
  if (read_identity(db).version != history_schema_version)
    migrate(db);
  enable_write_ahead_log(db);
}

}  // namespace counterguard::detail
