// SPDX-License-Identifier: Apache-2.0
#include "detail/sqlite_database.hpp"

#include <sqlite3.h>

#include <cmath>
#include <utility>

#include "counterguard/core/error.hpp"

namespace counterguard::detail {

sqlite_database::sqlite_database(const std::string& path, bool create, int busy_timeout_ms)
    : m_path(path), m_busy_timeout_ms(busy_timeout_ms) {
  const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
  const int status = sqlite3_open_v2(path.c_str(), &m_handle, flags, nullptr);
  if (status != SQLITE_OK) {
    const std::string reason = m_handle != nullptr ? sqlite3_errmsg(m_handle) : sqlite3_errstr(status);
    sqlite3_close(m_handle);
    m_handle = nullptr;
    throw input_error({path}, "", "cannot open the history database: " + reason,
                      "the folder must exist and be writable");
  }
  sqlite3_extended_result_codes(m_handle, 1);
  sqlite3_busy_timeout(m_handle, busy_timeout_ms);
}

sqlite_database::~sqlite_database() {
  sqlite3_close_v2(m_handle);
}

void sqlite_database::execute(const std::string& sql) {
  const int status = try_execute(sql);
  if (status != SQLITE_OK)
    fail(status, "executing '" + sql.substr(0, 60) + "'");
}

int sqlite_database::try_execute(const std::string& sql) {
  char* message = nullptr;
  const int status = sqlite3_exec(m_handle, sql.c_str(), nullptr, nullptr, &message);
  sqlite3_free(message);  // the same text as sqlite3_errmsg, which fail() reads
  return status;
}

sqlite_statement sqlite_database::prepare(const std::string& sql) const {
  sqlite3_stmt* statement = nullptr;
  const int status =
      sqlite3_prepare_v2(m_handle, sql.c_str(), static_cast<int>(sql.size()), &statement, nullptr);
  if (status != SQLITE_OK) {
    sqlite3_finalize(statement);
    fail(status, "preparing '" + sql.substr(0, 60) + "'");
  }
  return sqlite_statement(*this, statement, sql);
}

std::int64_t sqlite_database::last_insert_id() const {
  return sqlite3_last_insert_rowid(m_handle);
}

void sqlite_database::fail(int status, const std::string& doing) const {
  const std::string reason = m_handle != nullptr && sqlite3_extended_errcode(m_handle) == status
                                 ? sqlite3_errmsg(m_handle)
                                 : sqlite3_errstr(status);
  switch (status & 0xff) {
    case SQLITE_NOTADB:
      throw input_error({m_path}, "", "not a counterguard history database: " + reason,
                        "give a file written by `--history`, or a new file name");
    case SQLITE_CORRUPT:
      throw input_error(
          {m_path}, "", "the history database is corrupt (" + reason + ") while " + doing,
          "restore it from a backup or start a new file; `sqlite3 FILE .recover` may save the rest");
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_AUTH:
      throw input_error(
          {m_path}, "", "cannot write the history database: " + reason,
          "the file and its folder must be writable (SQLite adds -wal and -shm files beside it)");
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      throw error(exit_code::environment,
                  m_path + ": the history database stayed locked by another process past the busy timeout (" +
                      reason + ") while " + doing + "; try again when the other writer is done");
    // The file's tables are not those counterguard wrote (a column or table missing, a value of another
    // type): it was damaged or altered, the user's file to restore, as for SQLITE_CORRUPT.
    case SQLITE_ERROR:
    case SQLITE_SCHEMA:
    case SQLITE_MISMATCH:
    case SQLITE_CONSTRAINT:
    case SQLITE_TOOBIG:
    case SQLITE_RANGE:
    case SQLITE_FORMAT:
      throw input_error(
          {m_path}, "", "the history database is damaged or was altered (" + reason + ") while " + doing,
          "restore it from a backup or start a new file; `sqlite3 FILE .recover` may save the rest");
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_NOMEM:
    case SQLITE_PROTOCOL:
    case SQLITE_NOLFS:
      throw error(exit_code::environment, m_path + ": " + reason + " while " + doing);
    default:
      throw error(exit_code::internal_error, m_path + ": SQLite: " + reason + " while " + doing);
  }
}

sqlite_statement::sqlite_statement(const sqlite_database& db, sqlite3_stmt* statement, std::string sql)
    : m_db(&db), m_statement(statement), m_sql(std::move(sql)) {}

sqlite_statement::~sqlite_statement() {
  sqlite3_finalize(m_statement);
}

sqlite_statement::sqlite_statement(sqlite_statement&& other) noexcept
    : m_db(other.m_db),
      m_statement(std::exchange(other.m_statement, nullptr)),
      m_sql(std::move(other.m_sql)) {}

sqlite_statement& sqlite_statement::bind(int index, const std::string& text) {
  // SQLITE_TRANSIENT: SQLite copies the text, so a temporary may be bound.
  const int status = sqlite3_bind_text(m_statement, index, text.data(), static_cast<int>(text.size()),
                                       SQLITE_TRANSIENT);  // NOLINT(performance-no-int-to-ptr)
  if (status != SQLITE_OK)
    m_db->fail(status, "binding a parameter of '" + m_sql.substr(0, 60) + "'");
  return *this;
}

sqlite_statement& sqlite_statement::bind(int index, std::int64_t number) {
  const int status = sqlite3_bind_int64(m_statement, index, number);
  if (status != SQLITE_OK)
    m_db->fail(status, "binding a parameter of '" + m_sql.substr(0, 60) + "'");
  return *this;
}

sqlite_statement& sqlite_statement::bind(int index, double number) {
  if (!std::isfinite(number))
    return bind_null(index);
  const int status = sqlite3_bind_double(m_statement, index, number);
  if (status != SQLITE_OK)
    m_db->fail(status, "binding a parameter of '" + m_sql.substr(0, 60) + "'");
  return *this;
}

sqlite_statement& sqlite_statement::bind(int index, const std::optional<double>& number) {
  return number ? bind(index, *number) : bind_null(index);
}

sqlite_statement& sqlite_statement::bind_null(int index) {
  const int status = sqlite3_bind_null(m_statement, index);
  if (status != SQLITE_OK)
    m_db->fail(status, "binding a parameter of '" + m_sql.substr(0, 60) + "'");
  return *this;
}

bool sqlite_statement::step(const std::string& constraint_problem) {
  const int status = sqlite3_step(m_statement);
  if (status == SQLITE_ROW)
    return true;
  if (status == SQLITE_DONE)
    return false;
  if ((status & 0xff) == SQLITE_CONSTRAINT && !constraint_problem.empty())
    throw input_error({m_db->path()}, "", constraint_problem);
  m_db->fail(status, "running '" + m_sql.substr(0, 60) + "'");
}

void sqlite_statement::reset() {
  sqlite3_reset(m_statement);
  sqlite3_clear_bindings(m_statement);
}

bool sqlite_statement::is_null(int column) const {
  return sqlite3_column_type(m_statement, column) == SQLITE_NULL;
}

std::string sqlite_statement::text(int column) const {
  const unsigned char* text = sqlite3_column_text(m_statement, column);
  if (text == nullptr)
    return {};
  return {reinterpret_cast<const char*>(text),
          static_cast<std::size_t>(sqlite3_column_bytes(m_statement, column))};
}

std::int64_t sqlite_statement::integer(int column) const {
  return sqlite3_column_int64(m_statement, column);
}

double sqlite_statement::number(int column) const {
  if (is_null(column))
    return std::nan("");
  return sqlite3_column_double(m_statement, column);
}

std::optional<double> sqlite_statement::optional_number(int column) const {
  if (is_null(column))
    return std::nullopt;
  return sqlite3_column_double(m_statement, column);
}

sqlite_transaction::sqlite_transaction(sqlite_database& db) : m_db(&db) {
  m_db->execute("BEGIN IMMEDIATE");
}

sqlite_transaction::~sqlite_transaction() {
  if (!m_open)
    return;
  try {
    m_db->execute("ROLLBACK");
  } catch (...) {  // NOLINT(bugprone-empty-catch): SQLite rolls back itself when the connection closes
  }
}

void sqlite_transaction::commit() {
  m_db->execute("COMMIT");
  m_open = false;
}

}  // namespace counterguard::detail
