// SPDX-License-Identifier: Apache-2.0
#pragma once
// A thin RAII owner of an SQLite connection and its prepared statements. Every failure throws a
// counterguard error naming the database file: a file that is not a database or is corrupt is an
// input_error (exit 2), a database locked past the busy timeout or a full disk an environment error (3).

#include <cstdint>
#include <optional>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace counterguard::detail {

class sqlite_statement;

class sqlite_database {
 public:
  // Opens `path` read-write; `create` makes the file when it does not exist.
  sqlite_database(const std::string& path, bool create, int busy_timeout_ms);
  ~sqlite_database();
  sqlite_database(const sqlite_database&) = delete;
  sqlite_database& operator=(const sqlite_database&) = delete;

  [[nodiscard]] const std::string& path() const { return m_path; }

  // Runs SQL that returns no rows (one or more statements).
  void execute(const std::string& sql);
  // The same, returning SQLite's result code instead of throwing (for callers that retry on SQLITE_BUSY).
  [[nodiscard]] int try_execute(const std::string& sql);
  [[nodiscard]] int busy_timeout_ms() const { return m_busy_timeout_ms; }
  [[nodiscard]] sqlite_statement prepare(const std::string& sql) const;
  [[nodiscard]] std::int64_t last_insert_id() const;

  // Throws the error that SQLite's result code `status` stands for, saying what was being done.
  [[noreturn]] void fail(int status, const std::string& doing) const;

 private:
  std::string m_path;
  int m_busy_timeout_ms = 0;
  sqlite3* m_handle = nullptr;
};

// A prepared statement; bind parameters are 1-based, columns 0-based.
class sqlite_statement {
 public:
  sqlite_statement(const sqlite_database& db, sqlite3_stmt* statement, std::string sql);
  ~sqlite_statement();
  sqlite_statement(sqlite_statement&& other) noexcept;
  sqlite_statement& operator=(sqlite_statement&&) = delete;
  sqlite_statement(const sqlite_statement&) = delete;
  sqlite_statement& operator=(const sqlite_statement&) = delete;

  sqlite_statement& bind(int index, const std::string& text);
  sqlite_statement& bind(int index, std::int64_t number);
  sqlite_statement& bind(int index, double number);  // NaN and infinities are stored as NULL
  sqlite_statement& bind(int index, const std::optional<double>& number);
  sqlite_statement& bind_null(int index);

  // Advances to the next row: true when there is one, false when done. `constraint_problem`, when given,
  // turns a constraint violation into an input_error with that text instead of an internal error.
  bool step(const std::string& constraint_problem = {});
  void reset();  // ready to bind and step again

  [[nodiscard]] bool is_null(int column) const;
  [[nodiscard]] std::string text(int column) const;
  [[nodiscard]] std::int64_t integer(int column) const;
  [[nodiscard]] double number(int column) const;  // NaN for NULL
  [[nodiscard]] std::optional<double> optional_number(int column) const;

 private:
  const sqlite_database* m_db;
  sqlite3_stmt* m_statement;
  std::string m_sql;
};

// BEGIN IMMEDIATE ... COMMIT: takes the write lock at the start (waiting up to the busy timeout), so two
// writers never both read and then conflict. Rolled back when destroyed without commit().
class sqlite_transaction {
 public:
  explicit sqlite_transaction(sqlite_database& db);
  ~sqlite_transaction();
  sqlite_transaction(const sqlite_transaction&) = delete;
  sqlite_transaction& operator=(const sqlite_transaction&) = delete;
  void commit();

 private:
  sqlite_database* m_db;
  bool m_open = true;
};

}  // namespace counterguard::detail
