#include "history_schema.hpp"

#include <functional>
#include <string>
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

int read_pragma(sqlite_database& db, const std::string& name) {
  sqlite_statement statement = db.prepare("PRAGMA " + name);
  return statement.step() ? static_cast<int>(statement.integer(0)) : 0;
}

int table_count(sqlite_database& db) {
  sqlite_statement statement = db.prepare("SELECT count(*) FROM sqlite_master");
  return statement.step() ? static_cast<int>(statement.integer(0)) : 0;
}

// Refuses files that are SQLite databases of something else, and histories of a newer counterguard.
void check_identity(sqlite_database& db, int version, int application_id) {
  if (version == 0 && application_id == 0 && table_count(db) == 0)
    return;  // a new, empty database
  if (application_id != history_application_id) {
    throw input_error({db.path()}, "", "an SQLite database, but not a counterguard history database",
                      "give a file written by `--history`, or a new file name");
  }
  if (version > history_schema_version) {
    throw input_error({db.path()}, "",
                      "written by a newer counterguard (history schema version " + std::to_string(version) +
                          "; this counterguard reads versions up to " +
                          std::to_string(history_schema_version) + ")",
                      "use a newer counterguard, or record into another file");
  }
}

}  // namespace

void prepare_history_schema(sqlite_database& db) {
  // Reading the header first: a file that is not a database fails here, naming the file.
  check_identity(db, read_pragma(db, "user_version"), read_pragma(db, "application_id"));

  // WAL: readers do not block the writer and a crash mid-write leaves the last committed state. Not every
  // file system supports it; SQLite then keeps its rollback journal, which is just as atomic.
  db.execute("PRAGMA journal_mode = WAL");
  db.execute("PRAGMA foreign_keys = ON");

  if (read_pragma(db, "user_version") == history_schema_version)
    return;
  sqlite_transaction transaction(db);
  // Read again under the write lock: another process may have migrated the file meanwhile.
  const int version = read_pragma(db, "user_version");
  check_identity(db, version, read_pragma(db, "application_id"));
  for (int v = version; v < history_schema_version; ++v)
    migrations().at(static_cast<std::size_t>(v))(db);
  db.execute("PRAGMA application_id = " + std::to_string(history_application_id));
  db.execute("PRAGMA user_version = " + std::to_string(history_schema_version));
  transaction.commit();
}

}  // namespace counterguard::detail
